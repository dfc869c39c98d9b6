package io.gamefleet.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class TlsWarmUpTest {
    @Test
    void aPlainHttpEndpointNeedsNoWarmUp() {
        TlsWarmUp warmUp = TlsWarmUp.start(URI.create("http://127.0.0.1:8000"), "us-east-1");
        assertThat(warmUp.started()).isFalse();
        warmUp.await();
    }

    @Test
    void anHttpsEndpointOrTheRegionalOneIsWarmedOnAThreadOfItsOwn() {
        TlsWarmUp regional = TlsWarmUp.start(null, "us-east-1");
        TlsWarmUp local = TlsWarmUp.start(URI.create("https://127.0.0.1:8443"), "us-east-1");
        assertThat(regional.started()).isTrue();
        assertThat(local.started()).isTrue();
        regional.await();
        local.await();
    }

    @Test
    void aCallIsSentOnlyOnceTheWarmUpHasEnded() {
        TlsWarmUp warmUp = TlsWarmUp.start(null, "eu-west-1");
        assertThat(warmUp.running()).isTrue(); // a ClientHello alone takes milliseconds
        warmUp.beforeTransmission(null, null);
        assertThat(warmUp.running()).isFalse();
    }

    @Test
    void theWarmUpGoesThroughEveryStepWithoutAConnection() {
        assertThat(TlsWarmUp.warm("dynamodb.us-east-1.amazonaws.com")).isTrue();
    }
}

package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/** The gate holds matching requests until opened, and a hold that runs out its safety timeout is loud. */
class RequestGateTest {
    private final RequestGate gate = new RequestGate(r -> r instanceof PutItemRequest, Duration.ofMillis(200));

    private CompletableFuture<Void> send(Object request) {
        return CompletableFuture.runAsync(() -> gate.beforeExecution(
                () -> (software.amazon.awssdk.core.SdkRequest) request, new ExecutionAttributes()));
    }

    @Test
    void aHeldRequestGoesOnWhenTheGateOpens() throws Exception {
        gate.close();
        CompletableFuture<Void> held = send(PutItemRequest.builder().build());
        assertThat(gate.awaitArrival(Duration.ofSeconds(5))).isTrue();
        assertThat(held).isNotDone();
        send(GetItemRequest.builder().build()).get(5, TimeUnit.SECONDS); // not matched: never held
        gate.open();
        held.get(5, TimeUnit.SECONDS);
        assertThat(gate.seen()).isEqualTo(1);
    }

    @Test
    void aHoldPastTheSafetyTimeoutFailsTheRequestAndThenTheTest() throws Exception {
        gate.close();
        CompletableFuture<Void> held = send(PutItemRequest.builder().build());
        assertThatThrownBy(() -> held.join()).isInstanceOf(CompletionException.class)
                .hasRootCauseInstanceOf(IllegalStateException.class)
                .hasMessageContaining("PutItemRequest was held 200 ms and the gate was not opened");
        assertThatThrownBy(gate::open).isInstanceOf(AssertionError.class)
                .hasMessageContaining("1 request(s) held by this gate timed out after 200 ms");
        assertThatCode(gate::open).as("reported once").doesNotThrowAnyException();
    }
}

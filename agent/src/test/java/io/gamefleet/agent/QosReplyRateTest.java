package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The QoS beacon's reply rate, on a clock the test moves. */
class QosReplyRateTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2025-01-01T00:00:00Z"));

    @Test
    void aSourceGetsItsSecondsWorthThenWhatTheClockRefills() {
        QosReplyRate rate = QosReplyRate.defaults(clock);
        assertThat(answered(rate, "198.51.100.1", 150)).isEqualTo(QosReplyRate.PER_SOURCE_PER_SECOND);
        clock.advance(Duration.ofMillis(250));
        assertThat(answered(rate, "198.51.100.1", 150)).isEqualTo(25);
        clock.advance(Duration.ofSeconds(30)); // a quiet half minute still fills only a second's worth
        assertThat(answered(rate, "198.51.100.1", 150)).isEqualTo(100);
    }

    @Test
    void manySourcesTogetherGetTheShareInAll() {
        QosReplyRate rate = QosReplyRate.defaults(clock);
        int answered = IntStream.range(0, 50).map(i -> answered(rate, "198.51.100." + i, 100)).sum();
        assertThat(answered).isEqualTo(QosReplyRate.IN_ALL_PER_SECOND);
        clock.advance(Duration.ofMillis(25));
        assertThat(answered(rate, "203.0.113.1", 100)).as("a fortieth of a second's share in all").isEqualTo(50);
    }

    @Test
    void aFloodOfSpoofedSourcesIsNotRememberedPastItsBoundAndQuietSourcesAreForgotten() {
        QosReplyRate rate = new QosReplyRate(10, 1_000_000, 3, clock);
        assertThat(answered(rate, "198.51.100.1", 1)).isEqualTo(1);
        assertThat(answered(rate, "198.51.100.2", 1)).isEqualTo(1);
        assertThat(answered(rate, "198.51.100.3", 1)).isEqualTo(1);
        assertThat(answered(rate, "198.51.100.4", 1)).as("a fourth source while three are remembered").isZero();
        assertThat(answered(rate, "198.51.100.1", 1)).as("a remembered source still answered").isEqualTo(1);
        clock.advance(Duration.ofSeconds(1)); // all three full again: forgotten at the next new source
        assertThat(answered(rate, "198.51.100.4", 1)).isEqualTo(1);
    }

    private static int answered(QosReplyRate rate, String source, int pings) {
        InetAddress address = address(source);
        return (int) IntStream.range(0, pings).filter(i -> rate.allows(address)).count();
    }

    private static InetAddress address(String address) {
        try {
            return InetAddress.getByName(address);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}

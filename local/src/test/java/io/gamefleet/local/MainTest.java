package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** local/run's flags, parsed without starting anything. */
class MainTest {
    @Test
    void flagsBecomeOptions() {
        Main.Launch launch = Main.parse(List.of("--port", "0", "--claim-ttl-seconds", "30", "--balancer-rate-seconds", "5",
                "--spot-interruption-rate", "c4.large=0.5", "--spot-interruption-rate", "m4.large=2"));
        assertThat(launch.options().port()).isZero();
        assertThat(launch.options().claimTtl()).isEqualTo(Duration.ofSeconds(30));
        assertThat(launch.options().balancerRate()).isEqualTo(Duration.ofSeconds(5));
        assertThat(launch.spotInterruptionsPerHour()).containsEntry("c4.large", 0.5).containsEntry("m4.large", 2.0);
        assertThat(launch.demo()).isFalse();
        assertThat(Main.parse(List.of("--demo", "--port", "0")).demo()).isTrue();
    }

    @Test
    void badValuesSayWhatIsExpected() {
        assertThatThrownBy(() -> Main.parse(List.of("--spot-interruption-rate", "c4.large")))
                .hasMessageContaining("TYPE=PER_HOUR");
        assertThatThrownBy(() -> Main.parse(List.of("--spot-interruption-rate", "c4.large=-1")))
                .hasMessageContaining("TYPE=PER_HOUR");
        assertThatThrownBy(() -> Main.parse(List.of("--port", "http"))).hasMessageContaining("--port");
        assertThatThrownBy(() -> Main.parse(List.of("--frobnicate", "1"))).hasMessageContaining("unknown flag");
        assertThatThrownBy(() -> Main.parse(List.of("--dynamodb-endpoint", "nope"))).hasMessageContaining("URL");
    }
}

package io.gamefleet.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.domain.StandbyPolicy.Buffer;
import io.gamefleet.domain.StandbyPolicy.DynamicTier;
import io.gamefleet.domain.StandbyPolicy.Window;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class StandbyPolicyTest {
    private static final Instant T0 = Instant.parse("2026-12-24T18:00:00Z");
    private static final Duration HOUR = Duration.ofHours(1);

    private static StandbyPolicy policy(Buffer buffer, List<DynamicTier> tiers, List<Window> windows) {
        return new StandbyPolicy(buffer, tiers, StandbyPolicy.DEFAULT_RAMP_DOWN, windows,
                StandbyPolicy.DEFAULT_SCALE_IN_COOLDOWN);
    }

    @Test
    void badSettingsAreRefusedNamingTheirMember() {
        assertThatThrownBy(() -> policy(Buffer.count(-1), List.of(), List.of()))
                .hasMessageStartingWith("StandingBy must be from 0");
        assertThatThrownBy(() -> policy(Buffer.percentOfServers(100), List.of(), List.of()))
                .hasMessageStartingWith("StandingBy as a percentage must be from 1% to 99%");
        assertThatThrownBy(() -> policy(Buffer.count(5), List.of(new DynamicTier(0, 2)), List.of()))
                .hasMessageStartingWith("Dynamic[0].BelowPercent");
        assertThatThrownBy(() -> policy(Buffer.count(5), List.of(new DynamicTier(50, 1)), List.of()))
                .hasMessageStartingWith("Dynamic[0].Multiplier must be above 1");
        // The tier of the deeper shortage (25%) multiplies less than the one above it: it would shrink the buffer.
        assertThatThrownBy(() -> policy(Buffer.count(5), List.of(new DynamicTier(50, 3), new DynamicTier(25, 2)),
                List.of()))
                .isInstanceOf(GamefleetException.class)
                .hasMessageStartingWith("Dynamic[1].Multiplier must be above the 3.0 of the tier below 50.0%");
        assertThatThrownBy(() -> policy(Buffer.count(5), List.of(new DynamicTier(50, 2), new DynamicTier(50, 3)),
                List.of()))
                .hasMessageStartingWith("Dynamic[");
        assertThatThrownBy(() -> policy(Buffer.count(5), List.of(), List.of(
                new Window(T0, T0.plus(HOUR), Buffer.count(10)),
                new Window(T0.plus(Duration.ofMinutes(59)), T0.plus(Duration.ofHours(2)), Buffer.count(20)))))
                .hasMessage("Schedule[1] overlaps Schedule[0]");
        assertThatThrownBy(() -> policy(Buffer.count(5), List.of(), List.of(new Window(T0, T0, Buffer.count(1)))))
                .hasMessage("Schedule[0].End must be after its Start");
        assertThatThrownBy(() -> policy(Buffer.count(5), List.of(), List.of(new Window(T0, T0.plus(HOUR),
                Buffer.count(-3)))))
                .hasMessageStartingWith("Schedule[0].StandingBy must be from 0");
        assertThatThrownBy(() -> new StandbyPolicy(Buffer.count(1), List.of(), Duration.ofSeconds(-1), List.of(),
                Duration.ZERO))
                .hasMessageStartingWith("RampDownSeconds");
    }

    @Test
    void windowsThatTouchDoNotOverlapAndTheBufferFollowsThem() {
        StandbyPolicy p = policy(Buffer.count(5), List.of(), List.of(
                new Window(T0, T0.plus(HOUR), Buffer.count(10)),
                new Window(T0.plus(HOUR), T0.plus(Duration.ofHours(2)), Buffer.percentOfServers(50))));

        assertThat(p.bufferAt(T0.minusSeconds(1))).isEqualTo(Buffer.count(5));
        assertThat(p.bufferAt(T0)).isEqualTo(Buffer.count(10));
        assertThat(p.bufferAt(T0.plus(HOUR))).isEqualTo(Buffer.percentOfServers(50));
        assertThat(p.bufferAt(T0.plus(Duration.ofHours(2)))).isEqualTo(Buffer.count(5));
    }

    @Test
    void aPercentageIsOfAllTheServersTheBufferItselfIncluded() {
        // 20% of (40 in use + 10) = 10.
        assertThat(Buffer.percentOfServers(20).servers(40)).isEqualTo(10);
        // 25% of (1 + b): b = 1/3, rounded up.
        assertThat(Buffer.percentOfServers(25).servers(1)).isEqualTo(1);
        assertThat(Buffer.percentOfServers(50).servers(0)).isZero();
        assertThat(Buffer.count(7).servers(1_000)).isEqualTo(7);
    }

    @Test
    void theDeepestTierTheStandingByServersAreBelowApplies() {
        StandbyPolicy p = policy(Buffer.count(10), List.of(new DynamicTier(50, 2), new DynamicTier(20, 4)), List.of());

        assertThat(p.tierFor(5, 10)).isEmpty(); // 50% is not below 50%
        assertThat(p.tierFor(4, 10)).contains(new DynamicTier(50, 2));
        assertThat(p.tierFor(1, 10)).contains(new DynamicTier(20, 4));
        assertThat(p.tierFor(0, 0)).isEmpty();
        assertThat(p.active()).isTrue();
        assertThat(StandbyPolicy.none().active()).isFalse();
        assertThat(policy(Buffer.count(0), List.of(), List.of(new Window(T0, T0.plus(HOUR), Buffer.count(3))))
                .active()).isTrue();
    }
}

package io.gamefleet.local.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.Metrics.GameServerCounts;
import io.gamefleet.domain.MetricsHistory.CountsAt;
import io.gamefleet.domain.fakes.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local CloudWatch read back: each balancer run's counts of a group, the last hour's. */
class FleetMetricsTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    @Test
    void eachRunsCountsAreKeptForAnHourAndReadBackByGroupAndRange(@TempDir Path dir) {
        MutableClock clock = new MutableClock(T0);
        FleetMetrics metrics = new FleetMetrics(dir.resolve("metrics.log"), clock,
                new SimulatedFleet(clock, Duration.ofSeconds(1), "us-east-1", "000000000000", Duration.ZERO), new Timeline(clock));

        metrics.gameServers("arena", new GameServerCounts(3, 1, 0, 0));
        clock.advance(Duration.ofSeconds(30));
        metrics.gameServers("arena", new GameServerCounts(2, 2, 0, 0));
        metrics.gameServers("other", new GameServerCounts(9, 0, 0, 0));

        assertThat(metrics.gameServers("arena", T0, clock.instant(), Duration.ofMinutes(1)))
                .containsExactly(new CountsAt(T0, 3, 1, 25), new CountsAt(T0.plusSeconds(30), 2, 2, 50));
        assertThat(metrics.gameServers("arena", T0.plusSeconds(1), clock.instant(), Duration.ofMinutes(1)))
                .containsExactly(new CountsAt(T0.plusSeconds(30), 2, 2, 50));
        assertThat(metrics.gameServers("nowhere", T0, clock.instant(), Duration.ofMinutes(1))).isEmpty();

        // An hour and a minute later the first two runs are gone; the new one is kept.
        clock.advance(Duration.ofMinutes(61).minusSeconds(30));
        metrics.gameServers("arena", new GameServerCounts(4, 0, 0, 0));
        assertThat(metrics.gameServers("arena", T0, clock.instant(), Duration.ofMinutes(1)))
                .containsExactly(new CountsAt(clock.instant(), 4, 0, 0));
    }
}

package io.gamefleet.local.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.Metrics.GameServerCounts;
import io.gamefleet.domain.MetricsHistory.CountsAt;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local CloudWatch read back: each balancer run's counts of a group, the last hour's. */
class FleetMetricsTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    /** A clock the test moves. */
    private static final class Moving extends Clock {
        Instant now = T0;

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void eachRunsCountsAreKeptForAnHourAndReadBackByGroupAndRange(@TempDir Path dir) {
        Moving clock = new Moving();
        FleetMetrics metrics = new FleetMetrics(dir.resolve("metrics.log"), clock,
                new SimulatedFleet(clock, Duration.ofSeconds(1), "us-east-1", "000000000000", Duration.ZERO), new Timeline(clock));

        metrics.gameServers("arena", new GameServerCounts(3, 1, 0, 0));
        clock.now = T0.plusSeconds(30);
        metrics.gameServers("arena", new GameServerCounts(2, 2, 0, 0));
        metrics.gameServers("other", new GameServerCounts(9, 0, 0, 0));

        assertThat(metrics.gameServers("arena", T0, clock.now, Duration.ofMinutes(1)))
                .containsExactly(new CountsAt(T0, 3, 1, 25), new CountsAt(T0.plusSeconds(30), 2, 2, 50));
        assertThat(metrics.gameServers("arena", T0.plusSeconds(1), clock.now, Duration.ofMinutes(1)))
                .containsExactly(new CountsAt(T0.plusSeconds(30), 2, 2, 50));
        assertThat(metrics.gameServers("nowhere", T0, clock.now, Duration.ofMinutes(1))).isEmpty();

        // An hour and a minute later the first two runs are gone; the new one is kept.
        clock.now = T0.plus(Duration.ofMinutes(61));
        metrics.gameServers("arena", new GameServerCounts(4, 0, 0, 0));
        assertThat(metrics.gameServers("arena", T0, clock.now, Duration.ofMinutes(1)))
                .containsExactly(new CountsAt(clock.now, 4, 0, 0));
    }
}

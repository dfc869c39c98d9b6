package io.gamefleet.local.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The fleet's recent events and schedule runs, numbered, for the console's timeline. */
class TimelineTest {
    private final Timeline timeline = new Timeline(Clock.fixed(Instant.parse("2026-01-01T10:00:00Z"), ZoneOffset.UTC));

    @Test
    void keepsEventsAndRunsInOrderAndGivesThoseAfterASequence() {
        timeline.event(Map.of("detail-type", "EC2 Spot Instance Interruption Warning",
                "detail", Map.of("instance-id", "i-1", "instance-action", "terminate")));
        timeline.scheduleRun("RunBalancer", Map.of("Drained", 1));
        assertThat(timeline.after(0)).hasSize(2);
        assertThat(timeline.after(0).get(0)).containsEntry("Sequence", 1L).containsEntry("Kind", "Event")
                .containsEntry("Name", "EC2 Spot Instance Interruption Warning")
                .containsEntry("Time", "2026-01-01T10:00:00Z");
        assertThat(timeline.after(1)).singleElement().satisfies(e -> assertThat(e).containsEntry("Kind", "Schedule")
                .containsEntry("Detail", Map.of("Drained", 1)));
        assertThat(timeline.after(2)).isEmpty();
    }

    @Test
    void keepsTheCountsTheBalancerGaveTheMetrics() {
        timeline.gameServers("arena", new io.gamefleet.domain.Metrics.GameServerCounts(3, 1, 0, 0));
        assertThat(timeline.after(0)).singleElement().satisfies(e -> assertThat(e).containsEntry("Kind", "Metric")
                .containsEntry("Detail", Map.of("GameServerGroupName", "arena", "Available", 3L, "Utilized", 1L,
                        "DrainingAvailable", 0L, "DrainingUtilized", 0L, "PercentUtilized", 25.0)));
    }

    @Test
    void keepsOnlyTheNewestEntries() {
        IntStream.range(0, Timeline.CAPACITY + 5).forEach(i -> timeline.scheduleRun("RunBalancer", Map.of()));
        assertThat(timeline.after(0)).hasSize(Timeline.CAPACITY);
        assertThat(timeline.after(0).get(0)).containsEntry("Sequence", 6L);
    }
}

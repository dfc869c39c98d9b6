package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MaintenanceWatcherTest {
    private final Map<String, String> items = new HashMap<>();
    private boolean unreadable;
    private final List<MaintenanceEvent.Schedule> schedules = new ArrayList<>();
    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
    private final MaintenanceWatcher watcher = new MaintenanceWatcher(path -> {
        if (unreadable) {
            throw new IllegalStateException("connect timed out");
        }
        return Optional.ofNullable(items.get(path));
    }, "i-1", clock, schedules::add, new AgentLog(Clock.systemUTC(), line -> { }));

    private MaintenanceEvent.Schedule last() {
        return schedules.get(schedules.size() - 1);
    }

    @Test
    void aSpotInterruptionIsAPreemptAtItsTime() {
        watcher.poll();
        assertThat(last().events()).isEmpty();
        items.put(InstanceMetadata.SPOT_INSTANCE_ACTION, "{\"action\": \"terminate\", \"time\": \"2026-12-01T10:02:00Z\"}");
        watcher.poll();
        MaintenanceEvent e = last().events().get(0);
        assertThat(e.eventType()).isEqualTo("Preempt");
        assertThat(e.notBefore()).isEqualTo(Instant.parse("2026-12-01T10:02:00Z"));
        assertThat(e.resources()).containsExactly("i-1");
        assertThat(last().documentIncarnation()).isEqualTo(1);
        watcher.poll();
        assertThat(last().documentIncarnation()).isEqualTo(1);
    }

    @Test
    void aRebalanceAndScheduledEventsToo() {
        items.put(InstanceMetadata.REBALANCE, "{\"noticeTime\": \"2026-12-01T10:00:00Z\"}");
        items.put(InstanceMetadata.SCHEDULED_EVENTS, """
                [{"NotBefore": "21 Jan 2027 09:00:43 GMT", "Code": "system-reboot", "Description": "scheduled reboot",
                  "EventId": "instance-event-0d59937288b749b32", "NotAfter": "21 Jan 2027 09:17:23 GMT", "State": "active"},
                 {"NotBefore": "21 Jan 2027 09:00:43 GMT", "Code": "instance-stop", "Description": "done",
                  "EventId": "instance-event-1", "NotAfter": "", "State": "completed"}]""");
        watcher.poll();
        assertThat(last().events()).extracting(MaintenanceEvent::eventType).containsExactly("Rebalance", "Reboot");
        MaintenanceEvent reboot = last().events().get(1);
        assertThat(reboot.eventId()).isEqualTo("instance-event-0d59937288b749b32");
        assertThat(reboot.notBefore()).isEqualTo(Instant.parse("2027-01-21T09:00:43Z"));
        assertThat(reboot.durationInSeconds()).isEqualTo(1000);
        assertThat(last().next()).as("the reboot's time: a recommendation disrupts nothing")
                .isEqualTo(Instant.parse("2027-01-21T09:00:43Z"));
    }

    @Test
    void aSpotWarningsNextMaintenanceIsTheInterruptionNotTheRecommendationThatCameWithIt() {
        items.put(InstanceMetadata.REBALANCE, "{\"noticeTime\": \"2026-12-01T10:00:00Z\"}");
        watcher.poll();
        assertThat(last().next()).as("a recommendation alone").isEqualTo(Instant.parse("2026-12-01T10:00:00Z"));
        items.put(InstanceMetadata.SPOT_INSTANCE_ACTION, "{\"action\": \"terminate\", \"time\": \"2026-12-01T10:02:00Z\"}");
        watcher.poll();
        assertThat(last().events()).extracting(MaintenanceEvent::eventType).containsExactlyInAnyOrder("Preempt", "Rebalance");
        assertThat(last().next()).isEqualTo(Instant.parse("2026-12-01T10:02:00Z"));
    }

    @Test
    void unreadableMetadataKeepsTheLastSchedule() {
        items.put(InstanceMetadata.SPOT_INSTANCE_ACTION, "{\"action\": \"stop\", \"time\": \"2026-12-01T10:02:00Z\"}");
        watcher.poll();
        unreadable = true;
        watcher.poll();
        assertThat(schedules).hasSize(1);
    }
}

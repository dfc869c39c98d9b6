package io.gamefleet.agent;

import java.time.Instant;
import java.util.List;

/**
 * One event of PlayFab's {@code maintenanceSchedule} (the Azure Scheduled Events shape), made from
 * an instance metadata notice: a Spot interruption, a rebalance recommendation, a scheduled event.
 */
record MaintenanceEvent(String eventId, String eventType, List<String> resources, String eventStatus,
        Instant notBefore, String description, String eventSource, int durationInSeconds) {

    static final String RESOURCE_TYPE = "VirtualMachine";

    /** The events of one reading of the metadata, and their incarnation (it changes when they do). */
    record Schedule(long documentIncarnation, List<MaintenanceEvent> events) {
        static final Schedule NONE = new Schedule(0, List.of());

        Instant next() {
            return events.stream().map(MaintenanceEvent::notBefore).min(Instant::compareTo).orElse(null);
        }
    }
}

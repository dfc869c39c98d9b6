package io.gamefleet.agent;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * One event of PlayFab's {@code maintenanceSchedule} (the Azure Scheduled Events shape), made from
 * an instance metadata notice (a Spot interruption, a rebalance recommendation, a scheduled event, an
 * Auto Scaling termination) or by the agent (Gamefleet's retiring notice, its own stop). {@code ends}
 * names the graceful end it begins, if any (never sent to a process).
 */
record MaintenanceEvent(String eventId, String eventType, List<String> resources, String eventStatus,
        Instant notBefore, String description, String eventSource, int durationInSeconds, GracefulEnd.Reason ends) {

    /** A notice only: it ends nothing of the instance's (a scheduled reboot, say). */
    MaintenanceEvent(String eventId, String eventType, List<String> resources, String eventStatus, Instant notBefore,
            String description, String eventSource, int durationInSeconds) {
        this(eventId, eventType, resources, eventStatus, notBefore, description, eventSource, durationInSeconds, null);
    }

    static final String RESOURCE_TYPE = "VirtualMachine";
    static final String REBALANCE = "Rebalance";

    /** The events of one reading of the metadata, and their incarnation (it changes when they do). */
    record Schedule(long documentIncarnation, List<MaintenanceEvent> events) {
        static final Schedule NONE = new Schedule(0, List.of());

        /**
         * PlayFab's {@code nextScheduledMaintenanceUtc}: the earliest time the instance is disrupted. A
         * rebalance recommendation disrupts nothing (its time is when it was made), so it counts only
         * while nothing else is scheduled; otherwise a Spot warning's V1 callback would get the
         * recommendation's time, not the interruption's.
         */
        Instant next() {
            return events.stream().min(Comparator.comparing((MaintenanceEvent e) -> e.eventType().equals(REBALANCE))
                    .thenComparing(MaintenanceEvent::notBefore)).map(MaintenanceEvent::notBefore).orElse(null);
        }
    }
}

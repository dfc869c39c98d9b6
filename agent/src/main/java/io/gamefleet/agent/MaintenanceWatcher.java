package io.gamefleet.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reads the instance's notices every poll (AWS advises 5 s for {@code spot/instance-action}) and
 * hands every process PlayFab's maintenance fields: a Spot interruption is a {@code Preempt}, a
 * rebalance recommendation a {@code Rebalance}, a scheduled event its Azure counterpart, and Auto
 * Scaling's target lifecycle state {@code Terminated} (a scale-in) a {@code Terminate} from when it
 * was first seen. The Spot interruption, the recommendation and the scale-in are also the graceful
 * end's triggers ({@link MaintenanceEvent#ends()}).
 */
final class MaintenanceWatcher {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** IMDS's scheduled-event times: "21 Jan 2019 09:00:43 GMT". */
    private static final DateTimeFormatter EVENT_TIME = DateTimeFormatter.ofPattern("d MMM yyyy HH:mm:ss z", Locale.ROOT);

    private final InstanceMetadata metadata;
    private final String instanceId;
    private final Clock clock;
    private final Consumer<MaintenanceEvent.Schedule> sink;
    private final AgentLog log;
    private List<MaintenanceEvent> last = List.of();
    private long incarnation;
    private boolean failing;
    /** When the target lifecycle state was first seen Terminated: the scale-in event's time, the same at every poll. */
    private Instant scaleInSeen;

    MaintenanceWatcher(InstanceMetadata metadata, String instanceId, Clock clock, Consumer<MaintenanceEvent.Schedule> sink,
            AgentLog log) {
        this.metadata = metadata;
        this.instanceId = instanceId;
        this.clock = clock;
        this.sink = sink;
        this.log = log;
    }

    /** One reading; when the metadata cannot be read, the last schedule stands. */
    void poll() {
        List<MaintenanceEvent> events = new ArrayList<>();
        try {
            metadata.get(InstanceMetadata.SPOT_INSTANCE_ACTION).map(this::spot).ifPresent(events::add);
            metadata.get(InstanceMetadata.REBALANCE).map(this::rebalance).ifPresent(events::add);
            metadata.get(InstanceMetadata.SCHEDULED_EVENTS).ifPresent(text -> events.addAll(scheduled(text)));
            metadata.get(InstanceMetadata.TARGET_LIFECYCLE_STATE).filter(state -> state.trim().equals("Terminated"))
                    .map(state -> scaleIn()).ifPresent(events::add);
        } catch (RuntimeException e) {
            if (!failing) {
                log.warn("instance metadata unreadable (" + e.getMessage() + "); keeping the last maintenance schedule");
            }
            failing = true;
            return;
        }
        failing = false;
        if (!events.equals(last)) {
            incarnation++;
            last = List.copyOf(events);
        }
        sink.accept(new MaintenanceEvent.Schedule(incarnation, last));
    }

    private MaintenanceEvent spot(String text) {
        JsonNode n = read(text);
        Instant time = Instant.parse(n.path("time").asText());
        String action = n.path("action").asText("terminate");
        return new MaintenanceEvent("spot-" + action + "-" + time.getEpochSecond(), "Preempt", List.of(instanceId),
                "Scheduled", time, "EC2 Spot interruption: the instance will " + action, "EC2 Spot", 0,
                GracefulEnd.Reason.SPOT_INTERRUPTION);
    }

    private MaintenanceEvent rebalance(String text) {
        Instant time = Instant.parse(read(text).path("noticeTime").asText());
        return new MaintenanceEvent("rebalance-" + time.getEpochSecond(), MaintenanceEvent.REBALANCE, List.of(instanceId),
                "Scheduled", time, "EC2 rebalance recommendation: elevated risk of Spot interruption", "EC2 Spot", 0,
                GracefulEnd.Reason.REBALANCE_RECOMMENDATION);
    }

    private MaintenanceEvent scaleIn() {
        if (scaleInSeen == null) {
            scaleInSeen = clock.instant();
        }
        return new MaintenanceEvent("scale-in-" + scaleInSeen.getEpochSecond(), "Terminate", List.of(instanceId), "Scheduled",
                scaleInSeen, "EC2 Auto Scaling terminates the instance (target lifecycle state Terminated)", "EC2 Auto Scaling", 0,
                GracefulEnd.Reason.SCALE_IN);
    }

    private List<MaintenanceEvent> scheduled(String text) {
        List<MaintenanceEvent> events = new ArrayList<>();
        for (JsonNode e : read(text)) {
            if (!e.path("State").asText().equalsIgnoreCase("active")) {
                continue; // completed or canceled
            }
            Instant notBefore = ZonedDateTime.parse(e.path("NotBefore").asText(), EVENT_TIME).toInstant();
            Optional<Instant> notAfter = Optional.of(e.path("NotAfter").asText()).filter(s -> !s.isEmpty())
                    .map(s -> ZonedDateTime.parse(s, EVENT_TIME).toInstant());
            int duration = notAfter.map(a -> (int) Duration.between(notBefore, a).toSeconds()).orElse(0);
            events.add(new MaintenanceEvent(e.path("EventId").asText(), eventType(e.path("Code").asText()),
                    List.of(instanceId), "Scheduled", notBefore, e.path("Description").asText(), "EC2", duration));
        }
        return events;
    }

    /** EC2's event codes as Azure Scheduled Events' types, which the GSDK's callback documents. */
    static String eventType(String code) {
        return switch (code) {
            case "instance-reboot", "system-reboot" -> "Reboot";
            case "system-maintenance" -> "Freeze";
            default -> "Terminate"; // instance-retirement, instance-stop
        };
    }

    private static JsonNode read(String text) {
        try {
            return JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("instance metadata is not JSON: " + e.getMessage(), e);
        }
    }
}

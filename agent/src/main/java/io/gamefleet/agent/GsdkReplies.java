package io.gamefleet.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** The heartbeat reply's JSON, with the keys as the GSDKs read them (nulls left out, as PlayFab's agent does). */
final class GsdkReplies {
    /**
     * The interval answered but to a StandingBy process (timings.standingByHeartbeatSeconds): PlayFab's
     * agent always answers 1000, the C++ GSDK floors what it is told at 1000 and the C# one ignores it.
     */
    static final int HEARTBEAT_INTERVAL_MS = 1000;

    enum Operation { Continue, Active, Terminate }

    private static final ObjectMapper JSON = new ObjectMapper();

    private GsdkReplies() {}

    static ObjectNode reply(Operation operation, long intervalMs, ServerRecord s, String groupName, String instanceId,
            MaintenanceEvent.Schedule maintenance, boolean withSchedule) {
        ObjectNode body = JSON.createObjectNode();
        body.put("operation", operation.name());
        body.put("nextHeartbeatIntervalMs", intervalMs);
        if (operation == Operation.Active) {
            ObjectNode session = body.putObject("sessionConfig");
            session.put("sessionId", s.sessionId);
            // A session's cookie and players; a ClaimGameServer's GameServerData is its cookie.
            Notices.Session claimed = s.claim.session();
            String cookie = claimed != null ? claimed.sessionCookie() : s.claim.gameServerData();
            if (cookie != null) {
                session.put("sessionCookie", cookie);
            }
            ArrayNode players = session.putArray("initialPlayers");
            if (claimed != null) {
                claimed.initialPlayers().forEach(players::add);
            }
            session.putObject("metadata")
                    .put("gameServerId", s.gameServerId)
                    .put("gameServerGroupName", groupName)
                    .put("instanceId", instanceId)
                    .put("claimedAt", time(s.claim.claimedAt()));
        }
        Instant next = maintenance.next();
        if (next != null) {
            body.put("nextScheduledMaintenanceUtc", time(next));
        }
        if (withSchedule) {
            ObjectNode schedule = body.putObject("maintenanceSchedule");
            schedule.put("documentIncarnation", String.valueOf(maintenance.documentIncarnation()));
            ArrayNode events = schedule.putArray("Events");
            for (MaintenanceEvent e : maintenance.events()) {
                ObjectNode event = events.addObject()
                        .put("eventId", e.eventId())
                        .put("eventType", e.eventType())
                        .put("resourceType", MaintenanceEvent.RESOURCE_TYPE);
                ArrayNode resources = event.putArray("Resources");
                e.resources().forEach(resources::add);
                event.put("eventStatus", e.eventStatus())
                        .put("notBefore", time(e.notBefore()))
                        .put("description", e.description())
                        .put("eventSource", e.eventSource())
                        .put("durationInSeconds", e.durationInSeconds());
            }
        }
        return body;
    }

    static String time(Instant t) {
        return t == null ? null : t.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}

package io.gamefleet.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.PushChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The instance's health report over the push channel (catalog {@code PushChannel.HEALTH}): each
 * registered server's health and its process's state (its PlayFab state, connected players, its
 * slot's crashes, start timeouts, last exit code and named ports), and the instance's process
 * events since the last report taken. More servers than one message may list, or more bytes than
 * API Gateway's frame, go in several messages; the process events in the first.
 */
final class HealthReport {
    /** The servers one message may list (the route's limit). */
    static final int MAX_SERVERS = 100;
    /** API Gateway's WebSocket frame is 32 KB: one message stays within one frame. */
    static final int MAX_BYTES = 32 * 1024;
    /**
     * What one server's player ids may take of a message: 100 ids of 128 characters are 13 KB, but
     * a process's ids are its own to choose, and control characters are escaped sixfold; past this
     * the ids are cut (their count stays true), so no process makes a report larger than a frame.
     */
    static final int MAX_PLAYER_ID_BYTES = 16 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private HealthReport() {}

    /** One message of a report, and the servers it lists. */
    record Message(String text, List<ServerRecord> servers) {}

    /** The messages of one report, in order; none when there is no server to report. */
    static List<Message> messages(String groupName, List<ServerRecord> servers, ProcessSlots.Slot[] slots, boolean wrapperMode,
            ProcessEvents.Counts events) {
        List<Message> messages = new ArrayList<>();
        ObjectNode message = null;
        List<ServerRecord> listed = new ArrayList<>();
        int bytes = 0;
        for (ServerRecord s : servers) {
            ObjectNode entry = entry(s, s.slot < slots.length ? slots[s.slot] : null, wrapperMode);
            int entryBytes = entry.toString().getBytes(StandardCharsets.UTF_8).length + 1;
            if (message != null && (listed.size() == MAX_SERVERS || bytes + entryBytes > MAX_BYTES)) {
                messages.add(new Message(message.toString(), listed));
                message = null;
                listed = new ArrayList<>();
            }
            if (message == null) {
                message = JSON.createObjectNode().put("action", PushChannel.HEALTH).put("gameServerGroupName", groupName);
                if (messages.isEmpty() && (events.crashes() > 0 || events.startTimeouts() > 0)) {
                    message.putObject(PushChannel.HEALTH_PROCESS_EVENTS).put(PushChannel.PROCESS_CRASHES, events.crashes())
                            .put(PushChannel.PROCESS_START_TIMEOUTS, events.startTimeouts());
                }
                message.putArray(PushChannel.HEALTH_SERVERS);
                bytes = message.toString().getBytes(StandardCharsets.UTF_8).length;
            }
            message.withArray(PushChannel.HEALTH_SERVERS).add(entry);
            listed.add(s);
            bytes += entryBytes;
        }
        if (message != null) {
            messages.add(new Message(message.toString(), listed));
        }
        return messages;
    }

    private static ObjectNode entry(ServerRecord s, ProcessSlots.Slot slot, boolean wrapperMode) {
        ObjectNode entry = JSON.createObjectNode().put("gameServerId", s.gameServerId)
                .put("healthCheck", s.healthy ? PushChannel.HEALTHY : PushChannel.UNHEALTHY);
        ObjectNode process = entry.putObject(PushChannel.HEALTH_PROCESS);
        // In wrapper mode the agent's own view: ready is StandingBy, a claim's UTILIZED its match.
        GameState state = wrapperMode && s.activeSent ? GameState.Active : s.state;
        if (state != null) {
            process.put(PushChannel.PROCESS_STATE, state.name());
        }
        process.put(PushChannel.PROCESS_CONNECTED_PLAYERS, s.connectedPlayers);
        com.fasterxml.jackson.databind.node.ArrayNode ids = process.putArray(PushChannel.PROCESS_PLAYER_IDS);
        int idBytes = 0;
        for (String id : s.playerIds) {
            idBytes += JSON.getNodeFactory().textNode(id).toString().getBytes(StandardCharsets.UTF_8).length + 1;
            if (idBytes > MAX_PLAYER_ID_BYTES) {
                break;
            }
            ids.add(id);
        }
        process.put(PushChannel.PROCESS_CRASHES, slot == null ? 0 : slot.crashes)
                .put(PushChannel.PROCESS_START_TIMEOUTS, slot == null ? 0 : slot.startTimeouts);
        if (slot != null && slot.lastExitCode != null) {
            process.put(PushChannel.PROCESS_LAST_EXIT_CODE, slot.lastExitCode);
        }
        if (slot != null && !slot.ports.isEmpty()) {
            ObjectNode ports = process.putObject(PushChannel.PROCESS_PORTS);
            slot.ports.forEach(ports::put);
        }
        return entry;
    }
}

package io.gamefleet.push;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2WebSocketEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.HealthReports;
import io.gamefleet.domain.ProcessEvents;
import io.gamefleet.domain.ProcessReport;
import io.gamefleet.domain.ProcessState;
import io.gamefleet.json.Json;
import io.gamefleet.wiring.Services;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code $default}: the agent's messages. A ping (which keeps the connection within API Gateway's
 * 10-minute idle timeout) is answered with a pong, as the route's response. A health report
 * (docs/agent.md, "Health over the push channel") is answered with nothing when it is taken, so a
 * report costs one message, not two; a refused one with its JSON error, with nothing written. A
 * report's processes and process events (issue 28's contract) are optional: an older agent's
 * report without them is taken as before. Nothing else is known.
 * Every message counts against its connection's fair share of the route's throttle, first.
 */
public final class MessageHandler extends WebSocketHandler {
    private static final Pattern PORT_NAME = Pattern.compile(PushChannel.PORT_NAME);

    public MessageHandler() {
        this(Services.shared());
    }

    public MessageHandler(Services services) {
        super(PushChannel.MESSAGE, services);
    }

    @Override
    protected JsonNode handle(APIGatewayV2WebSocketEvent event) {
        services.pushConnections().message(connectionId(event)); // within its fair share, before anything else
        JsonNode message = Json.readObject(event.getBody() == null ? "" : event.getBody());
        String action = message.path("action").asText("");
        switch (action) {
            case PushChannel.PING -> {
                return Json.NODES.objectNode().put("action", PushChannel.PONG);
            }
            case PushChannel.HEALTH -> {
                String group = services.settings().groupName(valid(text(message, "gameServerGroupName"),
                        "GameServerGroupNameOrArn", "gameServerGroupName"));
                services.healthReports().report(connectionId(event), group, reports(message), events(message));
                return null;
            }
            default -> throw GamefleetException.invalidRequest("unknown action \"" + action + "\": the agent sends "
                    + PushChannel.PING + " and " + PushChannel.HEALTH);
        }
    }

    private static List<HealthReports.Report> reports(JsonNode message) {
        JsonNode listed = message.path(PushChannel.HEALTH_SERVERS);
        if (!listed.isArray()) {
            throw GamefleetException.invalidRequest("a health report needs " + PushChannel.HEALTH_SERVERS
                    + ", an array of {gameServerId, healthCheck}");
        }
        List<HealthReports.Report> reports = new ArrayList<>();
        for (JsonNode server : listed) {
            // FleetIQ's game server id, before any read: no other item of the table (a gate, an
            // instance's count) can be named.
            String id = valid(text(server, "gameServerId"), "GameServerId",
                    PushChannel.HEALTH_SERVERS + "[" + reports.size() + "].gameServerId");
            String health = text(server, "healthCheck");
            if (!health.equals(PushChannel.HEALTHY) && !health.equals(PushChannel.UNHEALTHY)) {
                throw GamefleetException.invalidRequest("healthCheck of game server " + id + " must be "
                        + PushChannel.HEALTHY + " or " + PushChannel.UNHEALTHY + ", not " + health);
            }
            String where = PushChannel.HEALTH_SERVERS + "[" + reports.size() + "]." + PushChannel.HEALTH_PROCESS;
            reports.add(new HealthReports.Report(id, health.equals(PushChannel.HEALTHY),
                    present(server, PushChannel.HEALTH_PROCESS, where).map(p -> process(p, where))));
        }
        return reports;
    }

    /**
     * A server's process, held to the catalog's bounds (a process says what it likes of itself):
     * its counts whole numbers from 0, its state one of PlayFab's, at most {@link PushChannel#MAX_PLAYER_IDS}
     * player ids of 1 to {@link PushChannel#MAX_PLAYER_ID_LENGTH} characters and no more than it
     * counts players, its named ports as {@link #ports} holds them. Members the agent adds beside
     * these are left out.
     */
    private static ProcessReport process(JsonNode process, String where) {
        ProcessState state = present(process, PushChannel.PROCESS_STATE, where).map(s -> {
            if (!s.isTextual() || !PushChannel.PROCESS_STATES.contains(s.asText())) {
                throw GamefleetException.invalidRequest(where + "." + PushChannel.PROCESS_STATE + " must be one of "
                        + PushChannel.PROCESS_STATES + ", not " + s);
            }
            return ProcessState.valueOf(s.asText());
        }).orElse(null);
        int players = count(process, PushChannel.PROCESS_CONNECTED_PLAYERS, where, Integer.MAX_VALUE);
        List<String> ids = new ArrayList<>();
        Optional<JsonNode> listed = present(process, PushChannel.PROCESS_PLAYER_IDS, where);
        if (listed.isPresent()) {
            JsonNode array = listed.get();
            String field = where + "." + PushChannel.PROCESS_PLAYER_IDS;
            if (!array.isArray() || array.size() > PushChannel.PROCESS_MAX_PLAYER_IDS) {
                throw GamefleetException.invalidRequest(field + " must be an array of at most " + PushChannel.PROCESS_MAX_PLAYER_IDS
                        + " player ids");
            }
            for (JsonNode id : array) {
                if (!id.isTextual() || id.asText().isEmpty() || id.asText().length() > PushChannel.PROCESS_MAX_PLAYER_ID_LENGTH) {
                    throw GamefleetException.invalidRequest(field + " holds strings of 1 to "
                            + PushChannel.PROCESS_MAX_PLAYER_ID_LENGTH + " characters, not " + abbreviated(id));
                }
                ids.add(id.asText());
            }
        }
        if (ids.size() > players) {
            throw GamefleetException.invalidRequest(where + " names " + ids.size() + " players but counts "
                    + players + " connected");
        }
        int crashes = count(process, PushChannel.PROCESS_CRASHES, where, Integer.MAX_VALUE);
        int timeouts = count(process, PushChannel.PROCESS_START_TIMEOUTS, where, Integer.MAX_VALUE);
        Integer exit = present(process, PushChannel.PROCESS_LAST_EXIT_CODE, where).map(code -> {
            if (!code.isIntegralNumber() || !code.canConvertToInt()) {
                throw GamefleetException.invalidRequest(where + "." + PushChannel.PROCESS_LAST_EXIT_CODE
                        + " must be a whole number, not " + abbreviated(code));
            }
            return code.intValue();
        }).orElse(null);
        return new ProcessReport(state, players, ids, crashes, timeouts, exit, ports(process, where));
    }

    /** Its named ports: at most {@link PushChannel#PROCESS_MAX_PORTS} of a {@link PushChannel#PORT_NAME} each, ports 1 to 65535. */
    private static Map<String, Integer> ports(JsonNode process, String where) {
        Map<String, Integer> ports = new LinkedHashMap<>();
        Optional<JsonNode> listed = present(process, PushChannel.PROCESS_PORTS, where);
        if (listed.isEmpty()) {
            return ports;
        }
        String field = where + "." + PushChannel.PROCESS_PORTS;
        JsonNode object = listed.get();
        if (!object.isObject() || object.size() > PushChannel.PROCESS_MAX_PORTS) {
            throw GamefleetException.invalidRequest(field + " must be an object of at most " + PushChannel.PROCESS_MAX_PORTS
                    + " named ports, not " + abbreviated(object));
        }
        for (var port : (Iterable<Map.Entry<String, JsonNode>>) object::fields) {
            if (!PORT_NAME.matcher(port.getKey()).matches()) {
                throw GamefleetException.invalidRequest(field + " names ports by " + PushChannel.PORT_NAME + ", not "
                        + abbreviated(TextNode.valueOf(port.getKey())));
            }
            JsonNode number = port.getValue();
            if (!number.isIntegralNumber() || !number.canConvertToInt() || number.intValue() < 1 || number.intValue() > 65535) {
                throw GamefleetException.invalidRequest(field + "." + port.getKey() + " must be a port from 1 to 65535, not "
                        + abbreviated(number));
            }
            ports.put(port.getKey(), number.intValue());
        }
        return ports;
    }

    /** The instance's events since its previous report that was taken; none from an older agent. */
    private static ProcessEvents events(JsonNode message) {
        String where = PushChannel.HEALTH_PROCESS_EVENTS;
        return present(message, where, where)
                .map(e -> new ProcessEvents(count(e, PushChannel.PROCESS_CRASHES, where, PushChannel.MAX_PROCESS_EVENTS),
                        count(e, PushChannel.PROCESS_START_TIMEOUTS, where, PushChannel.MAX_PROCESS_EVENTS)))
                .orElse(ProcessEvents.NONE);
    }

    /** The member if it is there (a JSON null is not), an object when {@code field} is one itself. */
    private static Optional<JsonNode> present(JsonNode node, String field, String where) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if ((field.equals(PushChannel.HEALTH_PROCESS) || field.equals(PushChannel.HEALTH_PROCESS_EVENTS))
                && !value.isObject()) {
            throw GamefleetException.invalidRequest(where + " must be an object, not " + abbreviated(value));
        }
        return Optional.of(value);
    }

    /** A whole number from 0 to {@code max}; 0 when absent. */
    private static int count(JsonNode node, String field, String where, int max) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return 0;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() < 0 || value.longValue() > max) {
            throw GamefleetException.invalidRequest(where + "." + field + " must be a whole number from 0 to " + max
                    + ", not " + abbreviated(value));
        }
        return value.intValue();
    }

    /** A refused value as the refusal quotes it: short, so that a flood of bytes is not echoed back. */
    private static String abbreviated(JsonNode value) {
        String text = value.toString();
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        if (!value.isTextual() || value.asText().isEmpty()) {
            throw GamefleetException.invalidRequest("a health report needs " + field + ", a non-empty string");
        }
        return value.asText();
    }
}

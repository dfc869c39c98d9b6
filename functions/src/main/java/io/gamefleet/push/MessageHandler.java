package io.gamefleet.push;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2WebSocketEvent;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.HealthReports;
import io.gamefleet.json.Json;
import io.gamefleet.wiring.Services;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code $default}: the agent's messages. A ping (which keeps the connection within API Gateway's
 * 10-minute idle timeout) is answered with a pong, as the route's response. A health report
 * (docs/agent.md, "Health over the push channel") is answered with nothing when it is taken, so a
 * report costs one message, not two; a refused one with its JSON error. Nothing else is known.
 * Every message counts against its connection's fair share of the route's throttle, first.
 */
public final class MessageHandler extends WebSocketHandler {
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
                services.healthReports().report(connectionId(event), group, reports(message));
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
            reports.add(new HealthReports.Report(id, health.equals(PushChannel.HEALTHY)));
        }
        return reports;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        if (!value.isTextual() || value.asText().isEmpty()) {
            throw GamefleetException.invalidRequest("a health report needs " + field + ", a non-empty string");
        }
        return value.asText();
    }
}

package io.gamefleet.push;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2WebSocketEvent;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.json.Json;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.wiring.Services;

/**
 * {@code $default}: the agent's messages. A ping (which keeps the connection within API Gateway's
 * 10-minute idle timeout) is answered with a pong, as the route's response; nothing else is known.
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
        String action = Json.readObject(event.getBody() == null ? "" : event.getBody()).path("action").asText("");
        if (!action.equals(PushChannel.PING)) {
            throw GamefleetException.invalidRequest("unknown action \"" + action + "\": the agent sends only "
                    + PushChannel.PING);
        }
        return Json.NODES.objectNode().put("action", PushChannel.PONG);
    }
}

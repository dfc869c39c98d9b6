package io.gamefleet.push;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2WebSocketEvent;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.wiring.Services;

/** {@code $disconnect}: the connection is cleared from its instance, unless a newer one replaced it. */
public final class DisconnectHandler extends WebSocketHandler {
    public DisconnectHandler() {
        this(Services.shared());
    }

    public DisconnectHandler(Services services) {
        super(PushChannel.DISCONNECT, services);
    }

    @Override
    protected JsonNode handle(APIGatewayV2WebSocketEvent event) {
        services.pushConnections().disconnect(connectionId(event));
        return null;
    }
}

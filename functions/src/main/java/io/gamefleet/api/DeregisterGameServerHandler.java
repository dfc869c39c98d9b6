package io.gamefleet.api;

import io.gamefleet.catalog.Operation;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.json.Json;
import io.gamefleet.wiring.Services;

/** DeregisterGameServer: Removes a game server when its game has ended. */
public final class DeregisterGameServerHandler extends ApiHandler {
    public DeregisterGameServerHandler() {
        this(Services.shared());
    }

    public DeregisterGameServerHandler(Services services) {
        super(Operation.DEREGISTER_GAME_SERVER, services);
    }

    @Override
    protected JsonNode handle(ApiRequest request) {
        services.gameServers().deregister(request.string("GameServerGroupName"), request.string("GameServerId"),
                request.caller());
        return Json.NODES.objectNode();
    }
}

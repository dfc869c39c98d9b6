package io.gamefleet.api;

import io.gamefleet.catalog.Operation;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.domain.GameServerService.Update;
import io.gamefleet.domain.UtilizationStatus;
import io.gamefleet.wiring.Services;

/** UpdateGameServer: Heartbeat, game data, and AVAILABLE to UTILIZED. */
public final class UpdateGameServerHandler extends ApiHandler {
    public UpdateGameServerHandler() {
        this(Services.shared());
    }

    public UpdateGameServerHandler(Services services) {
        super(Operation.UPDATE_GAME_SERVER, services);
    }

    @Override
    protected JsonNode handle(ApiRequest request) {
        Update update = new Update(request.string("GameServerGroupName"), request.string("GameServerId"),
                request.optionalString("GameServerData"),
                request.optionalEnum("UtilizationStatus", UtilizationStatus.class),
                request.optionalString("HealthCheck").isPresent());
        return Outputs.serverResponse(services, services.gameServers().update(update, request.caller()));
    }
}

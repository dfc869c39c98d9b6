package io.gamefleet.api;

import io.gamefleet.catalog.Operation;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.domain.GameServerService.Registration;
import io.gamefleet.wiring.Services;

/** RegisterGameServer: Registers a game server process (AVAILABLE) on an instance of the group. */
public final class RegisterGameServerHandler extends ApiHandler {
    public RegisterGameServerHandler() {
        this(Services.shared());
    }

    public RegisterGameServerHandler(Services services) {
        super(Operation.REGISTER_GAME_SERVER, services);
    }

    @Override
    protected JsonNode handle(ApiRequest request) {
        Registration registration = new Registration(request.string("GameServerGroupName"),
                request.string("GameServerId"), request.string("InstanceId"),
                request.optionalString("ConnectionInfo"), request.optionalString("GameServerData"));
        return Outputs.serverResponse(services, services.gameServers().register(registration, request.caller()));
    }
}

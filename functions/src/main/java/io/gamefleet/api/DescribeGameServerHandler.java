package io.gamefleet.api;

import io.gamefleet.catalog.Operation;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.wiring.Services;

/** DescribeGameServer: Describes one game server. */
public final class DescribeGameServerHandler extends ApiHandler {
    public DescribeGameServerHandler() {
        this(Services.shared());
    }

    public DescribeGameServerHandler(Services services) {
        super(Operation.DESCRIBE_GAME_SERVER, services);
    }

    @Override
    protected JsonNode handle(ApiRequest request) {
        return Outputs.serverResponse(services, services.gameServers().describe(
                request.string("GameServerGroupName"), request.string("GameServerId"), request.caller()));
    }
}

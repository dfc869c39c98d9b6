package io.gamefleet.api;

import io.gamefleet.catalog.Operation;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.domain.GameServerService.Claim;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.wiring.Services;
import java.util.Optional;
import java.util.Set;

/** ClaimGameServer: Claims an AVAILABLE game server for ClaimTtlSeconds: the chosen one, or the best the group has. */
public final class ClaimGameServerHandler extends ApiHandler {
    public ClaimGameServerHandler() {
        this(Services.shared());
    }

    public ClaimGameServerHandler(Services services) {
        super(Operation.CLAIM_GAME_SERVER, services);
    }

    @Override
    protected JsonNode handle(ApiRequest request) {
        Optional<Set<InstanceStatus>> statuses = Optional.ofNullable(request.input().get("FilterOption"))
                .map(filter -> filter.get("InstanceStatuses"))
                .map(Inputs::instanceStatuses);
        Claim claim = new Claim(request.string("GameServerGroupName"), request.optionalString("GameServerId"),
                request.optionalString("GameServerData"), statuses);
        return Outputs.serverResponse(services, services.gameServers().claim(claim));
    }
}

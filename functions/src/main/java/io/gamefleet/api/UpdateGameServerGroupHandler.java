package io.gamefleet.api;

import io.gamefleet.catalog.Operation;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.GameServerProtectionPolicy;
import io.gamefleet.domain.GroupService.GroupUpdate;
import io.gamefleet.wiring.Services;

/** UpdateGameServerGroup: Changes the role, instance definitions, protection policy or balancing strategy. */
public final class UpdateGameServerGroupHandler extends ApiHandler {
    public UpdateGameServerGroupHandler() {
        this(Services.shared());
    }

    public UpdateGameServerGroupHandler(Services services) {
        super(Operation.UPDATE_GAME_SERVER_GROUP, services);
    }

    @Override
    protected JsonNode handle(ApiRequest request) {
        GroupUpdate update = new GroupUpdate(request.optionalString("RoleArn"),
                request.optionalList("InstanceDefinitions", Inputs::instanceDefinition),
                request.optionalEnum("GameServerProtectionPolicy", GameServerProtectionPolicy.class),
                request.optionalEnum("BalancingStrategy", BalancingStrategy.class));
        return Outputs.wrap("GameServerGroup",
                Outputs.group(services.groups().update(request.string("GameServerGroupName"), update)));
    }
}

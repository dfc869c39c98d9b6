package io.gamefleet.api;

import io.gamefleet.catalog.Operation;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.domain.DeleteOption;
import io.gamefleet.wiring.Services;

/** DeleteGameServerGroup: Schedules deletion (SAFE_DELETE by default) and starts the deletion workflow. */
public final class DeleteGameServerGroupHandler extends ApiHandler {
    public DeleteGameServerGroupHandler() {
        this(Services.shared());
    }

    public DeleteGameServerGroupHandler(Services services) {
        super(Operation.DELETE_GAME_SERVER_GROUP, services);
    }

    @Override
    protected JsonNode handle(ApiRequest request) {
        DeleteOption option = request.optionalEnum("DeleteOption", DeleteOption.class).orElse(DeleteOption.SAFE_DELETE);
        return Outputs.wrap("GameServerGroup",
                Outputs.group(services.groups().delete(request.string("GameServerGroupName"), option)));
    }
}

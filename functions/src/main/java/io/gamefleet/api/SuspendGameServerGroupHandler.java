package io.gamefleet.api;

import io.gamefleet.catalog.Operation;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.wiring.Services;

/** SuspendGameServerGroup: Suspends group activities (REPLACE_INSTANCE_TYPES). */
public final class SuspendGameServerGroupHandler extends ApiHandler {
    public SuspendGameServerGroupHandler() {
        this(Services.shared());
    }

    public SuspendGameServerGroupHandler(Services services) {
        super(Operation.SUSPEND_GAME_SERVER_GROUP, services);
    }

    @Override
    protected JsonNode handle(ApiRequest request) {
        return Outputs.wrap("GameServerGroup", Outputs.group(services.groups().suspend(
                request.string("GameServerGroupName"), Inputs.actions(request, "SuspendActions"))));
    }
}

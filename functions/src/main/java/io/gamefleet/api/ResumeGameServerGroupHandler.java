package io.gamefleet.api;

import io.gamefleet.catalog.Operation;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.wiring.Services;

/** ResumeGameServerGroup: Resumes suspended group activities. */
public final class ResumeGameServerGroupHandler extends ApiHandler {
    public ResumeGameServerGroupHandler() {
        this(Services.shared());
    }

    public ResumeGameServerGroupHandler(Services services) {
        super(Operation.RESUME_GAME_SERVER_GROUP, services);
    }

    @Override
    protected JsonNode handle(ApiRequest request) {
        return Outputs.wrap("GameServerGroup", Outputs.group(services.groups().resume(
                request.string("GameServerGroupName"), Inputs.actions(request, "ResumeActions"))));
    }
}

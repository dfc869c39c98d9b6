package io.gamefleet.api;

import io.gamefleet.catalog.Operation;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.wiring.Services;

/** ListGameServerGroups: Lists the account's groups, oldest first. */
public final class ListGameServerGroupsHandler extends ApiHandler {
    public ListGameServerGroupsHandler() {
        this(Services.shared());
    }

    public ListGameServerGroupsHandler(Services services) {
        super(Operation.LIST_GAME_SERVER_GROUPS, services);
    }

    @Override
    protected JsonNode handle(ApiRequest request) {
        return Outputs.page("GameServerGroups",
                services.groups().list(request.limit(), request.optionalString("NextToken")), Outputs::group);
    }
}

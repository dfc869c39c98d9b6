package io.gamefleet.api;

import io.gamefleet.catalog.Operation;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.domain.SortOrder;
import io.gamefleet.wiring.Services;
import java.time.Instant;

/** ListGameServers: Lists the group's registered game servers by registration time. */
public final class ListGameServersHandler extends ApiHandler {
    public ListGameServersHandler() {
        this(Services.shared());
    }

    public ListGameServersHandler(Services services) {
        super(Operation.LIST_GAME_SERVERS, services);
    }

    @Override
    protected JsonNode handle(ApiRequest request) {
        var page = services.gameServers().list(request.string("GameServerGroupName"),
                request.optionalEnum("SortOrder", SortOrder.class), request.limit(), request.optionalString("NextToken"));
        Instant now = services.clock().instant();
        return Outputs.page("GameServers", page,
                s -> Outputs.server(s, services.settings().groupArn(s.gameServerGroupName()), now));
    }
}

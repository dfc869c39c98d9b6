package io.gamefleet.api;

import io.gamefleet.catalog.Operation;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.wiring.Services;

/** DescribeGameServerGroup: Describes one group (by name or ARN). */
public final class DescribeGameServerGroupHandler extends ApiHandler {
    public DescribeGameServerGroupHandler() {
        this(Services.shared());
    }

    public DescribeGameServerGroupHandler(Services services) {
        super(Operation.DESCRIBE_GAME_SERVER_GROUP, services);
    }

    @Override
    protected JsonNode handle(ApiRequest request) {
        return Outputs.wrap("GameServerGroup",
                Outputs.group(services.groups().describe(request.string("GameServerGroupName"))));
    }
}

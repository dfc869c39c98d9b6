package io.gamefleet.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.wiring.Services;

/** DescribeGameServerGroup: Describes one group (by name or ARN). */
public final class DescribeGameServerGroupHandler extends ApiHandler {
    public DescribeGameServerGroupHandler() {
        this(Services.shared());
    }

    public DescribeGameServerGroupHandler(Services services) {
        super("DescribeGameServerGroup", services);
    }

    @Override
    protected JsonNode handle(ApiRequest request) {
        return Json.wrap("GameServerGroup",
                Json.group(services.groups().describe(request.string("GameServerGroupName"))));
    }
}

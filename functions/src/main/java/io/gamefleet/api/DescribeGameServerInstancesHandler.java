package io.gamefleet.api;

import io.gamefleet.catalog.Operation;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.wiring.Services;

/** DescribeGameServerInstances: Lists the group's instances, or the named ones, with their status. */
public final class DescribeGameServerInstancesHandler extends ApiHandler {
    public DescribeGameServerInstancesHandler() {
        this(Services.shared());
    }

    public DescribeGameServerInstancesHandler(Services services) {
        super(Operation.DESCRIBE_GAME_SERVER_INSTANCES, services);
    }

    @Override
    protected JsonNode handle(ApiRequest request) {
        var page = services.groups().describeInstances(request.string("GameServerGroupName"),
                request.optionalStrings("InstanceIds"), request.limit(), request.optionalString("NextToken"));
        return Outputs.page("GameServerInstances", page,
                i -> Outputs.instance(i, services.settings().groupArn(i.gameServerGroupName())));
    }
}

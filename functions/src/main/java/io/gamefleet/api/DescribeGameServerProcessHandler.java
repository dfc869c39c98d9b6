package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.Caller;
import io.gamefleet.logging.JsonLog;
import io.gamefleet.wiring.Services;
import java.util.Map;
import java.util.Optional;

/**
 * DescribeGameServerProcess ({@link Routes#DESCRIBE_GAME_SERVER_PROCESS}): an ADMIN reads a game
 * server's process as its agent last reported it. It takes no query and no body.
 */
public final class DescribeGameServerProcessHandler extends ExtensionHandler {
    public DescribeGameServerProcessHandler() {
        this(Services.shared());
    }

    public DescribeGameServerProcessHandler(Services services) {
        super(Routes.DESCRIBE_GAME_SERVER_PROCESS, services);
    }

    @Override
    protected APIGatewayV2HTTPResponse serve(APIGatewayV2HTTPEvent event, Map<String, String> path, Caller caller,
            Optional<Role> role) {
        noBody(event);
        String group = member(path, "GameServerGroupName", "GameServerGroupNameOrArn");
        String id = member(path, "GameServerId", "GameServerId");
        JsonLog.with("group", group);
        return RestJsonProtocol.respond(200, Outputs.processResponse(services,
                services.gameServers().describeProcess(group, id, caller)));
    }
}

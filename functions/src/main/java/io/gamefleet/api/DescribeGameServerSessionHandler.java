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
 * DescribeGameServerSession ({@link Routes#DESCRIBE_GAME_SERVER_SESSION}): the game server process
 * on the server's own instance (or an ADMIN) reads the session whose claim the server's current
 * claim is, as the claimed notice would have handed it. It takes no query and no body.
 */
public final class DescribeGameServerSessionHandler extends ExtensionHandler {
    public DescribeGameServerSessionHandler() {
        this(Services.shared());
    }

    public DescribeGameServerSessionHandler(Services services) {
        super(Routes.DESCRIBE_GAME_SERVER_SESSION, services);
    }

    @Override
    protected APIGatewayV2HTTPResponse serve(APIGatewayV2HTTPEvent event, Map<String, String> path, Caller caller,
            Optional<Role> role) {
        noBody(event);
        String group = member(path, "GameServerGroupName", "GameServerGroupNameOrArn");
        String id = member(path, "GameServerId", "GameServerId");
        JsonLog.with("group", group);
        return RestJsonProtocol.respond(200, Outputs.serverSessionResponse(services.sessions().ofServer(group, id, caller)));
    }
}

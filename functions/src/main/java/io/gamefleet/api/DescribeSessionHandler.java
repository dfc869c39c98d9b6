package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.Caller;
import io.gamefleet.json.Json;
import io.gamefleet.logging.JsonLog;
import io.gamefleet.wiring.Services;
import java.util.Map;
import java.util.Optional;

/**
 * DescribeSession ({@link Routes#DESCRIBE_SESSION}): a session's state, its server while it is the
 * session's, and the players its agent last reported on it. It takes no query and no body.
 */
public final class DescribeSessionHandler extends ExtensionHandler {
    public DescribeSessionHandler() {
        this(Services.shared());
    }

    public DescribeSessionHandler(Services services) {
        super(Routes.DESCRIBE_SESSION, services);
    }

    @Override
    protected APIGatewayV2HTTPResponse serve(APIGatewayV2HTTPEvent event, Map<String, String> path, Caller caller,
            Optional<Role> role) {
        CreateSessionHandler.refuseGameServers(role);
        noBody(event);
        String group = member(path, "GameServerGroupName", "GameServerGroupNameOrArn");
        String sessionId = CreateSessionHandler.sessionId(Json.NODES.textNode(required(path, "SessionId")));
        JsonLog.with("group", group);
        return RestJsonProtocol.respond(200, Outputs.sessionResponse(services, services.sessions().describe(group, sessionId)));
    }
}

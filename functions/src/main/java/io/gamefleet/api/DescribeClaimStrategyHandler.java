package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.logging.JsonLog;
import io.gamefleet.wiring.Services;
import java.util.Map;
import java.util.Optional;

/**
 * DescribeClaimStrategy ({@link Routes#DESCRIBE_CLAIM_STRATEGY}): the order in which the group's
 * claims take its servers, FLEETIQ unless one was put. It takes no query and no body.
 */
public final class DescribeClaimStrategyHandler extends ExtensionHandler {
    public DescribeClaimStrategyHandler() {
        this(Services.shared());
    }

    public DescribeClaimStrategyHandler(Services services) {
        super(Routes.DESCRIBE_CLAIM_STRATEGY, services);
    }

    @Override
    protected APIGatewayV2HTTPResponse serve(APIGatewayV2HTTPEvent event, Map<String, String> path, Caller caller,
            Optional<Role> role) {
        if (role.equals(Optional.of(Role.GAME_SERVER))) { // IAM lets only a matchmaker or an ADMIN in
            throw GamefleetException.unauthorized("a game server does not read its group's claim strategy");
        }
        noBody(event);
        String group = member(path, "GameServerGroupName", "GameServerGroupNameOrArn");
        JsonLog.with("group", group);
        return RestJsonProtocol.respond(200, PutClaimStrategyHandler.answer(services.groups().describe(group)));
    }
}

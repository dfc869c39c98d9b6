package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.json.Json;
import io.gamefleet.logging.JsonLog;
import io.gamefleet.wiring.Services;
import java.util.Map;
import java.util.Optional;

/**
 * ListSessions ({@link Routes#LIST_SESSIONS}): a page of the group's sessions, newest first, each
 * as DescribeSession answers it, in {@code {"Sessions": [...], "NextToken": ...}}. Its query's
 * {@code Limit} and {@code NextToken} are held to what the operations' listings take.
 */
public final class ListSessionsHandler extends ExtensionHandler {
    public ListSessionsHandler() {
        this(Services.shared());
    }

    public ListSessionsHandler(Services services) {
        super(Routes.LIST_SESSIONS, services);
    }

    @Override
    protected APIGatewayV2HTTPResponse serve(APIGatewayV2HTTPEvent event, Map<String, String> path, Caller caller,
            Optional<Role> role) {
        CreateSessionHandler.refuseGameServers(role);
        noBody(event);
        String group = member(path, "GameServerGroupName", "GameServerGroupNameOrArn");
        Map<String, String> query = query(event);
        int limit = limit(query.get("Limit"));
        Optional<String> nextToken = Optional.ofNullable(query.get("NextToken"));
        nextToken.ifPresent(token -> MODEL.validateValue("NonZeroAndMaxString", Json.NODES.textNode(token), "NextToken"));
        JsonLog.with("group", group);
        var page = services.sessions().list(group, limit, nextToken);
        return RestJsonProtocol.respond(200, Outputs.page("Sessions", page, view -> Outputs.session(services, view)));
    }

    /** As the operations' listings: 1 to {@link ApiRequest#MAX_LIMIT}, {@link ApiRequest#DEFAULT_LIMIT} when none is given. */
    private static int limit(String value) {
        if (value == null) {
            return ApiRequest.DEFAULT_LIMIT;
        }
        int limit;
        try {
            limit = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw GamefleetException.invalidRequest("Limit: must be an integer, got \"" + value + "\"");
        }
        if (limit < 1 || limit > ApiRequest.MAX_LIMIT) {
            throw GamefleetException.invalidRequest("Limit: must be 1 to " + ApiRequest.MAX_LIMIT + ", got " + limit);
        }
        return limit;
    }
}

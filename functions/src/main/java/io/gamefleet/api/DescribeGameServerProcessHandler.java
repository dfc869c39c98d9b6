package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.ExtensionRoute;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.json.Json;
import io.gamefleet.logging.ErrorLog;
import io.gamefleet.logging.JsonLog;
import io.gamefleet.wiring.Services;
import java.util.Map;

/**
 * DescribeGameServerProcess, a Gamefleet route of its own ({@link Routes#DESCRIBE_GAME_SERVER_PROCESS},
 * docs/api.md, "Gamefleet extensions"): an ADMIN reads a game server's process as its agent last
 * reported it. FleetIQ has no such operation, so there is no CBOR path and no JSON door target; the
 * path's members are held to FleetIQ's shapes of the same names, and it takes no query and no body.
 * Its answers and errors are the REST routes' JSON.
 */
public final class DescribeGameServerProcessHandler
        implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {
    private static final ExtensionRoute ROUTE = Routes.DESCRIBE_GAME_SERVER_PROCESS;
    private static final ModelValidator MODEL = ModelValidator.load();
    private static final RestJsonProtocol REST = new RestJsonProtocol(MODEL);

    private final Services services;

    public DescribeGameServerProcessHandler() {
        this(Services.shared());
    }

    public DescribeGameServerProcessHandler(Services services) {
        this.services = services;
    }

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        try (JsonLog.Invocation invocation = JsonLog.invocation(context == null ? null : context.getAwsRequestId(),
                ROUTE.functionName())) {
            String requestId = RequestIds.log(event);
            return RequestIds.tag(requestId, serve(event));
        }
    }

    private APIGatewayV2HTTPResponse serve(APIGatewayV2HTTPEvent event) {
        IamCaller caller = IamCaller.of(event);
        JsonLog.with("operation", ROUTE.name());
        JsonLog.with("callerRole", caller.roleName().orElse(null));
        try {
            Caller domainCaller = caller.domainCaller(caller.roleIn(services.callerRoles()));
            if (event.getQueryStringParameters() != null && !event.getQueryStringParameters().isEmpty()) {
                throw GamefleetException.invalidRequest(ROUTE.name() + " takes no query parameter");
            }
            if (!Bodies.text(event).isBlank()) {
                throw GamefleetException.invalidRequest(ROUTE.name() + " takes no body");
            }
            Map<String, String> path = event.getPathParameters() == null ? Map.of() : event.getPathParameters();
            String group = member(path, "GameServerGroupName", "GameServerGroupNameOrArn");
            String id = member(path, "GameServerId", "GameServerId");
            JsonLog.with("group", group);
            return RestJsonProtocol.respond(200, Outputs.processResponse(services,
                    services.gameServers().describeProcess(group, id, domainCaller)));
        } catch (GamefleetException e) {
            return REST.error(e);
        } catch (RuntimeException e) {
            ErrorLog.SHARED.report(ROUTE.name() + " failed unexpectedly", e);
            return REST.error(GamefleetException.internal("the request could not be completed; it is safe to retry"));
        }
    }

    /** A path member, held to its FleetIQ shape before anything is read. */
    private static String member(Map<String, String> path, String name, String shape) {
        String value = path.get(name);
        if (value == null) {
            throw GamefleetException.invalidRequest(name + ": is required");
        }
        JsonNode node = Json.NODES.textNode(value);
        MODEL.validateValue(shape, node, name);
        return value;
    }
}

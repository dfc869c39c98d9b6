package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.ExtensionRoute;
import io.gamefleet.catalog.Role;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.json.Json;
import io.gamefleet.logging.ErrorLog;
import io.gamefleet.logging.JsonLog;
import io.gamefleet.wiring.Services;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A Gamefleet route of its own ({@link io.gamefleet.catalog.Routes#EXTENSIONS}, docs/api.md,
 * "Gamefleet extensions"): FleetIQ has no such operation, so there is no CBOR path and no JSON
 * door target; the path's members that FleetIQ has shapes for are held to them. Its answers and
 * errors are the REST routes' JSON; it takes only the query parameters its route names (most, none).
 */
abstract class ExtensionHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {
    static final ModelValidator MODEL = ModelValidator.load();
    private static final RestJsonProtocol REST = new RestJsonProtocol(MODEL);

    private final ExtensionRoute route;
    protected final Services services;

    ExtensionHandler(ExtensionRoute route, Services services) {
        this.route = route;
        this.services = services;
    }

    /**
     * The answer, once the caller is known ({@code role}: the deployment's caller role whose session
     * it is, if any) and the query names only the route's query members ({@link #query}).
     */
    protected abstract APIGatewayV2HTTPResponse serve(APIGatewayV2HTTPEvent event, Map<String, String> path,
            Caller caller, Optional<Role> role);

    @Override
    public final APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        try (JsonLog.Invocation invocation = JsonLog.invocation(context == null ? null : context.getAwsRequestId(),
                route.functionName())) {
            String requestId = RequestIds.log(event);
            return RequestIds.tag(requestId, answer(event));
        }
    }

    private APIGatewayV2HTTPResponse answer(APIGatewayV2HTTPEvent event) {
        IamCaller caller = IamCaller.of(event);
        JsonLog.with("operation", route.name());
        JsonLog.with("callerRole", caller.roleName().orElse(null));
        try {
            Optional<Role> role = caller.roleIn(services.callerRoles());
            Caller domainCaller = caller.domainCaller(role);
            for (String name : query(event).keySet()) {
                if (!route.queryMembers().contains(name)) {
                    throw GamefleetException.invalidRequest(route.queryMembers().isEmpty()
                            ? route.name() + " takes no query parameter"
                            : name + ": is not a query parameter of " + route.name() + "; it takes "
                                    + new TreeSet<>(route.queryMembers()));
                }
            }
            Map<String, String> path = event.getPathParameters() == null ? Map.of() : event.getPathParameters();
            return serve(event, path, domainCaller, role);
        } catch (GamefleetException e) {
            return REST.error(e);
        } catch (RuntimeException e) {
            ErrorLog.SHARED.report(route.name() + " failed unexpectedly", e);
            return REST.error(GamefleetException.internal("the request could not be completed; it is safe to retry"));
        }
    }

    /** The query's parameters as API Gateway hands them over (decoded). */
    protected static Map<String, String> query(APIGatewayV2HTTPEvent event) {
        return event.getQueryStringParameters() == null ? Map.of() : event.getQueryStringParameters();
    }

    /** Refuses a body on a route that takes none. */
    protected final void noBody(APIGatewayV2HTTPEvent event) {
        if (!Bodies.text(event).isBlank()) {
            throw GamefleetException.invalidRequest(route.name() + " takes no body");
        }
    }

    /**
     * The group of a read that takes no body and that a game server's role may not make (a
     * matchmaker's or an ADMIN's): its name from the path, held to its shape, and logged.
     */
    protected final String groupRead(APIGatewayV2HTTPEvent event, Map<String, String> path, Optional<Role> role) {
        if (role.equals(Optional.of(Role.GAME_SERVER))) {
            throw GamefleetException.unauthorized("a game server does not call " + route.name());
        }
        noBody(event);
        String group = member(path, "GameServerGroupName", "GameServerGroupNameOrArn");
        JsonLog.with("group", group);
        return group;
    }

    /** A path member, held to its FleetIQ shape before anything is read. */
    protected static String member(Map<String, String> path, String name, String shape) {
        String value = required(path, name);
        JsonNode node = Json.NODES.textNode(value);
        MODEL.validateValue(shape, node, name);
        return value;
    }

    protected static String required(Map<String, String> path, String name) {
        String value = path.get(name);
        if (value == null) {
            throw GamefleetException.invalidRequest(name + ": is required");
        }
        return value;
    }
}

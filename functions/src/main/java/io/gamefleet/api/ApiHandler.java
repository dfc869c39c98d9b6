package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.logging.ErrorLog;
import io.gamefleet.logging.JsonLog;
import io.gamefleet.wiring.Services;

/**
 * One API operation behind API Gateway (HTTP API, payload 2.0): decode the request as its door's
 * wire protocol says, validate it against the FleetIQ model, call the domain, encode the FleetIQ
 * output shape or the error. No business rule lives here.
 */
public abstract class ApiHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {
    private static final ModelValidator MODEL = ModelValidator.load();
    private static final WireProtocol REST = new RestJsonProtocol(MODEL);
    private static final WireProtocol CBOR = new RpcV2CborProtocol(MODEL);

    private final Route route;
    protected final Services services;
    /** Held so the CRaC context, which keeps resources weakly, does not lose it. */
    Object priming;

    protected ApiHandler(Operation operation, Services services) {
        this.route = Routes.of(operation);
        this.services = services;
        SnapStartPriming.register(this);
    }

    /** The REST route or the CBOR path of this operation (the JSON door calls {@link #serve}). */
    @Override
    public final APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        try (JsonLog.Invocation invocation = JsonLog.invocation(context == null ? null : context.getAwsRequestId(),
                route.functionName())) {
            String requestId = RequestIds.log(event);
            return RequestIds.tag(requestId, serve(RpcV2CborProtocol.carries(event) ? CBOR : REST, event));
        }
    }

    /** Decodes, validates, runs and encodes the operation as the door's protocol says. */
    public final APIGatewayV2HTTPResponse serve(WireProtocol protocol, APIGatewayV2HTTPEvent event) {
        IamCaller caller = IamCaller.of(event);
        JsonLog.with("operation", route.operation().fleetIqName());
        JsonLog.with("callerRole", caller.roleName().orElse(null));
        try {
            Caller domainCaller = caller.domainCaller(caller.roleIn(services.callerRoles()));
            ObjectNode input = protocol.input(event, route);
            JsonLog.with("group", input.path("GameServerGroupName").textValue());
            ApiRequest request = ApiRequest.validate(route.operation(), input, domainCaller, MODEL);
            requireBoundOnGameServerOperations(domainCaller);
            return protocol.output(route.operation(), handle(request));
        } catch (GamefleetException e) {
            return protocol.error(e);
        } catch (RuntimeException e) {
            // Unexpected: logged for the operator (once with its stack, then counted: a dependency
            // that is down fails every request alike), never shown to the caller.
            ErrorLog.SHARED.report(route.operation() + " failed unexpectedly", e);
            return protocol.error(GamefleetException.internal("the request could not be completed; it is safe to retry"));
        }
    }

    /**
     * The operations of a game server process (those GAME_SERVER has and MATCHMAKER has not:
     * register, update, deregister) admit only the process on its own instance, a session of the
     * deployment's GameServer instance role, or an ADMIN session. A caller given the GameServer
     * policy on a role of its own would be bound to no instance, free to act on every one.
     */
    private void requireBoundOnGameServerOperations(Caller caller) {
        if (route.roles().contains(Role.GAME_SERVER) && !route.roles().contains(Role.MATCHMAKER)
                && !caller.administrator() && !caller.instanceVerified()) {
            throw GamefleetException.unauthorized(route.operation().fleetIqName() + " is for the game server process"
                    + " on its own instance (a session of this deployment's GameServer instance role) or an ADMIN;"
                    + " this caller is bound to no instance");
        }
    }

    public final Operation operation() {
        return route.operation();
    }

    protected abstract JsonNode handle(ApiRequest request);
}

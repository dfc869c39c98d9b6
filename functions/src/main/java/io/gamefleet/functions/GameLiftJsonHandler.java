package io.gamefleet.functions;

import io.gamefleet.wiring.CallerRole;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.gamefleet.api.ApiHandler;
import io.gamefleet.api.AwsJsonProtocol;
import io.gamefleet.api.IamCaller;
import io.gamefleet.api.RequestIds;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.ConsoleAccess;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.logging.JsonLog;
import io.gamefleet.wiring.Services;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * The AWS JSON 1.1 door ({@code POST /} with {@code X-Amz-Target: GameLift.<Operation>}). An HTTP
 * API cannot route on a header, so one function serves every operation, in-process, with the same
 * handler classes as the per-operation functions. IAM lets every caller role reach this door, so it
 * authorizes the caller itself, as the per-operation routes' policies would: the caller must be a
 * session of one of the roles this deployment names, and that role must be allowed the operation.
 */
public final class GameLiftJsonHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {
    private static final String TARGET_HEADER = "x-amz-target";

    private final Map<Operation, ApiHandler> handlers = new EnumMap<>(Operation.class);
    private final Map<Role, CallerRole> roles;
    private final Optional<CallerRole> viewerRole;

    public GameLiftJsonHandler() {
        this(Services.shared());
    }

    public GameLiftJsonHandler(Services services) {
        FunctionRegistry registry = new FunctionRegistry(services);
        for (Operation operation : Operation.values()) {
            handlers.put(operation, registry.api(operation));
        }
        this.roles = services.callerRoles();
        this.viewerRole = services.viewerRole();
    }

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        try (JsonLog.Invocation invocation = JsonLog.invocation(context == null ? null : context.getAwsRequestId(),
                Routes.JSON_DOOR.functionName())) {
            String requestId = RequestIds.log(event);
            return RequestIds.tag(requestId, dispatch(event));
        }
    }

    private APIGatewayV2HTTPResponse dispatch(APIGatewayV2HTTPEvent event) {
        String target = header(event, TARGET_HEADER).orElse("");
        Optional<Operation> operation = Operation.byJsonTarget(target);
        if (operation.isEmpty()) {
            return AwsJsonProtocol.INSTANCE.error(GamefleetException.invalidRequest(
                    "X-Amz-Target " + (target.isEmpty() ? "is missing" : "\"" + target + "\" names no GameLift operation"
                            + " that Gamefleet serves")));
        }
        IamCaller caller = IamCaller.of(event);
        Optional<Role> role = caller.roleIn(roles);
        if (role.isEmpty() && viewerRole.filter(caller::isSessionOf).isPresent()) {
            // A console viewer (ConsoleAccess): a MATCHMAKER's reads, which IAM cannot tell apart on this door.
            if (!ConsoleAccess.viewerReads(Routes.of(operation.get()))) {
                return AwsJsonProtocol.INSTANCE.error(GamefleetException.unauthorized(
                        "a console viewer may only read; " + operation.get() + " is not a read"));
            }
            return handlers.get(operation.get()).serve(AwsJsonProtocol.INSTANCE, event);
        }
        if (role.isEmpty()) {
            return AwsJsonProtocol.INSTANCE.error(GamefleetException.unauthorized(
                    "the caller is not a session of one of this deployment's ADMIN, MATCHMAKER or GAME_SERVER roles"));
        }
        if (!Routes.of(operation.get()).roles().contains(role.get())) {
            return AwsJsonProtocol.INSTANCE.error(GamefleetException.unauthorized(
                    "a " + role.get() + " caller may not call " + operation.get()));
        }
        return handlers.get(operation.get()).serve(AwsJsonProtocol.INSTANCE, event);
    }

    private static Optional<String> header(APIGatewayV2HTTPEvent event, String name) {
        if (event.getHeaders() == null) {
            return Optional.empty();
        }
        return event.getHeaders().entrySet().stream().filter(h -> h.getKey().equalsIgnoreCase(name))
                .map(Map.Entry::getValue).findFirst();
    }
}

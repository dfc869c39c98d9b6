package io.gamefleet.push;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2WebSocketEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2WebSocketResponse;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.json.Json;
import io.gamefleet.api.ModelValidator;
import io.gamefleet.api.RestJsonProtocol;
import io.gamefleet.catalog.PushChannel.WebSocketRoute;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.logging.ErrorLog;
import io.gamefleet.logging.JsonLog;
import io.gamefleet.wiring.Services;
import java.util.Map;

/**
 * One route of the push channel's WebSocket API (API Gateway's WebSocket event): a refusal is a
 * JSON error with its 4xx (on {@code $connect}, API Gateway then refuses the upgrade), an
 * unexpected fault a 500; both logged as the REST API's are.
 */
abstract class WebSocketHandler implements RequestHandler<APIGatewayV2WebSocketEvent, APIGatewayV2WebSocketResponse> {
    private static final Map<String, String> HEADERS = Map.of("Content-Type", "application/json");
    /** FleetIQ's model: what the routes take (ids, names) is held to its shapes, as the API's input is. */
    static final ModelValidator MODEL = ModelValidator.load();

    protected final Services services;
    private final WebSocketRoute route;

    WebSocketHandler(WebSocketRoute route, Services services) {
        this.route = route;
        this.services = services;
    }

    @Override
    public final APIGatewayV2WebSocketResponse handleRequest(APIGatewayV2WebSocketEvent event, Context context) {
        try (JsonLog.Invocation invocation = JsonLog.invocation(context == null ? null : context.getAwsRequestId(),
                route.functionName())) {
            JsonLog.with("connectionId", connectionId(event));
            return respond(200, handle(event));
        } catch (GamefleetException e) {
            JsonLog.info(route.routeKey() + " refused: " + e.getMessage());
            return respond(RestJsonProtocol.httpStatus(e.kind()),
                    Json.NODES.objectNode().put("__type", e.errorType()).put("Message", e.getMessage()));
        } catch (RuntimeException e) {
            ErrorLog.SHARED.report(route.routeKey() + " failed unexpectedly", e);
            GamefleetException internal = GamefleetException.internal("the request could not be completed; try again");
            return respond(500, Json.NODES.objectNode().put("__type", internal.errorType())
                    .put("Message", internal.getMessage()));
        }
    }

    /** The answer's body (null: none). */
    protected abstract JsonNode handle(APIGatewayV2WebSocketEvent event);

    /** A text value held to a shape of FleetIQ's model; refused InvalidRequestException naming {@code what}. */
    static String valid(String value, String shape, String what) {
        MODEL.validateValue(shape, Json.NODES.textNode(value), what);
        return value;
    }

    static String connectionId(APIGatewayV2WebSocketEvent event) {
        return event.getRequestContext() == null ? null : event.getRequestContext().getConnectionId();
    }

    private static APIGatewayV2WebSocketResponse respond(int status, JsonNode body) {
        APIGatewayV2WebSocketResponse response = new APIGatewayV2WebSocketResponse();
        response.setStatusCode(status);
        response.setHeaders(HEADERS);
        response.setBody(body == null ? null : Json.text(body));
        return response;
    }
}

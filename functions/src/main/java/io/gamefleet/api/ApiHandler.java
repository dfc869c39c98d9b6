package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.ErrorKind;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.wiring.Services;
import java.util.Map;

/**
 * One API operation behind API Gateway (HTTP API, payload 2.0): decode and validate the request
 * against the FleetIQ model, call the domain, encode the FleetIQ output shape or the error.
 * No business rule lives here.
 */
public abstract class ApiHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {
    private static final ModelValidator VALIDATOR = ModelValidator.load();
    private static final Map<String, String> JSON_HEADERS = Map.of("Content-Type", "application/json");

    private final Route route;
    protected final Services services;
    /** Held so the CRaC context, which keeps resources weakly, does not lose it. */
    Object priming;

    protected ApiHandler(Operation operation, Services services) {
        this.route = Routes.of(operation);
        this.services = services;
        SnapStartPriming.register(this);
    }

    @Override
    public final APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        try {
            ApiRequest request = ApiRequest.decode(route, event, VALIDATOR);
            return respond(200, handle(request));
        } catch (GamefleetException e) {
            return error(e);
        } catch (RuntimeException e) {
            // Unexpected: logged for the operator, never shown to the caller.
            System.err.println(route.operation() + " failed unexpectedly: " + e);
            e.printStackTrace();
            return error(GamefleetException.internal("the request could not be completed; it is safe to retry"));
        }
    }

    protected abstract JsonNode handle(ApiRequest request);

    private static APIGatewayV2HTTPResponse error(GamefleetException e) {
        var body = Json.MAPPER.createObjectNode().put("__type", e.errorType()).put("Message", e.getMessage());
        return respond(httpStatus(e.kind()), body);
    }

    /** The status API Gateway's REST routes answer each error kind with. */
    static int httpStatus(ErrorKind kind) {
        return switch (kind) {
            case INVALID_REQUEST -> 400;
            case UNAUTHORIZED -> 403;
            case NOT_FOUND -> 404;
            case CONFLICT, OUT_OF_CAPACITY -> 409;
            case INTERNAL -> 500;
        };
    }

    private static APIGatewayV2HTTPResponse respond(int status, JsonNode body) {
        return APIGatewayV2HTTPResponse.builder()
                .withStatusCode(status)
                .withHeaders(JSON_HEADERS)
                .withBody(body.toString())
                .build();
    }
}

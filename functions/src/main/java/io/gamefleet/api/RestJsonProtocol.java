package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.Route;
import io.gamefleet.domain.ErrorKind;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.json.Json;
import java.util.Map;
import java.util.TreeSet;

/**
 * The REST routes: the input is the JSON body with the path and query members merged in (query
 * values converted to the member's model type); errors carry their own HTTP status.
 */
public final class RestJsonProtocol implements WireProtocol {
    private static final Map<String, String> HEADERS = Map.of("Content-Type", "application/json");

    private final ModelValidator model;

    RestJsonProtocol(ModelValidator model) {
        this.model = model;
    }

    @Override
    public ObjectNode input(APIGatewayV2HTTPEvent event, Route route) {
        String operation = route.operation().fleetIqName();
        String path = event.getRawPath();
        if (path != null && path.length() > 1 && path.endsWith("/")) {
            // GET .../game-servers/ is no game server: a route with an empty last segment would
            // pass an IAM pattern for one, and may reach another operation.
            throw GamefleetException.invalidRequest("the path " + path + " ends in '/'; no route of " + operation
                    + " does");
        }
        ObjectNode input = Json.readObject(Bodies.text(event));
        merge(input, event.getPathParameters(), "path", operation);
        Map<String, String> query = event.getQueryStringParameters();
        if (query != null) {
            for (String name : query.keySet()) {
                if (!route.queryMembers().contains(name)) {
                    // Only what the route puts in the query may come from it: a body member sent
                    // there would otherwise skip the body's own rules.
                    throw GamefleetException.invalidRequest(name + ": is not a query parameter of " + operation
                            + (route.queryMembers().isEmpty() ? ", which takes none"
                                    : "; it takes " + new TreeSet<>(route.queryMembers())));
                }
            }
        }
        merge(input, query, "query string", operation);
        return input;
    }

    @Override
    public APIGatewayV2HTTPResponse output(Operation operation, JsonNode output) {
        return respond(200, output);
    }

    @Override
    public APIGatewayV2HTTPResponse error(GamefleetException e) {
        return respond(httpStatus(e.kind()),
                Json.NODES.objectNode().put("__type", e.errorType()).put("Message", e.getMessage()));
    }

    /** The status the REST routes answer each error kind with. */
    public static int httpStatus(ErrorKind kind) {
        return switch (kind) {
            case INVALID_REQUEST, LIMIT_EXCEEDED -> 400;
            case UNAUTHORIZED -> 403;
            case NOT_FOUND -> 404;
            case CONFLICT, OUT_OF_CAPACITY -> 409;
            case THROTTLED -> 429;
            case INTERNAL -> 500;
        };
    }

    /** An answer of the REST routes (and of Gamefleet's own): the status and the JSON body. */
    static APIGatewayV2HTTPResponse respond(int status, JsonNode body) {
        return APIGatewayV2HTTPResponse.builder().withStatusCode(status).withHeaders(HEADERS)
                .withBody(Json.text(body)).build();
    }

    private void merge(ObjectNode input, Map<String, String> parameters, String where, String operation) {
        if (parameters == null) {
            return;
        }
        // API Gateway hands over path and query values decoded: decoding again would give one
        // resource two spellings (b%2561d would name "bad").
        parameters.forEach((name, value) -> {
            JsonNode node = convert(name, value, model.memberType(operation, name).orElse("string"));
            JsonNode existing = input.get(name);
            if (existing != null && !existing.equals(node)) {
                throw GamefleetException.invalidRequest(name + ": the body says " + existing
                        + " but the " + where + " says " + node);
            }
            input.set(name, node);
        });
    }

    private static JsonNode convert(String name, String value, String type) {
        switch (type) {
            case "integer":
                try {
                    return Json.NODES.numberNode(Integer.parseInt(value));
                } catch (NumberFormatException e) {
                    throw GamefleetException.invalidRequest(name + ": must be an integer, got \"" + value + "\"");
                }
            case "list":
                ArrayNode list = Json.NODES.arrayNode();
                for (String item : value.split(",", -1)) {
                    list.add(item);
                }
                return list;
            default:
                return Json.NODES.textNode(value);
        }
    }
}

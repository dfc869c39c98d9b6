package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.functions.GameLiftJsonHandler;
import io.gamefleet.json.Json;
import io.gamefleet.wiring.Services;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The API's three doors as API Gateway hands a request to the functions (payload 2.0, the IAM
 * caller it verified): an operation's REST route, the AWS JSON 1.1 door and its Smithy RPC v2
 * CBOR path, each reading its answer as that protocol writes it. For tests that check a rule at
 * every door.
 */
public final class Doors {
    private Doors() {}

    /** One door: a request of an operation by a caller, and how its answer reads. */
    public interface Door {
        APIGatewayV2HTTPResponse call(Operation operation, String callerArn, ObjectNode input);

        /** The answer's body as JSON (an empty object for none). */
        JsonNode body(APIGatewayV2HTTPResponse response);

        /** The error's FleetIQ name. */
        String errorType(APIGatewayV2HTTPResponse response);

        /** The error's message. */
        default String message(APIGatewayV2HTTPResponse response) {
            return body(response).path("message").asText();
        }
    }

    /** Each door's name and how to open it on a deployment's services. */
    public static final Map<String, Function<Services, Door>> ALL = Map.of("REST", Doors::rest, "AWS JSON 1.1", Doors::json,
            "RPC v2 CBOR", Doors::cbor);

    /** The operation's REST route: path members in the path, the rest in the body. */
    public static Door rest(Services services) {
        FunctionRegistry functions = new FunctionRegistry(services);
        return new Door() {
            @Override
            public APIGatewayV2HTTPResponse call(Operation operation, String callerArn, ObjectNode input) {
                Route route = Routes.of(operation);
                ObjectNode body = input.deepCopy();
                Map<String, String> pathParameters = new HashMap<>();
                String path = route.path();
                java.util.List<String> members = new java.util.ArrayList<>();
                body.fieldNames().forEachRemaining(members::add);
                for (String member : members) {
                    if (path.contains("{" + member + "}")) {
                        pathParameters.put(member, body.remove(member).asText());
                        path = path.replace("{" + member + "}", pathParameters.get(member));
                    }
                }
                return functions.api(operation).handleRequest(RestEvents.event(route.method(), path, pathParameters,
                        null, body.toString(), callerArn), null);
            }

            @Override
            public JsonNode body(APIGatewayV2HTTPResponse response) {
                return Json.readObject(response.getBody());
            }

            @Override
            public String errorType(APIGatewayV2HTTPResponse response) {
                return body(response).path("__type").asText();
            }

            @Override
            public String message(APIGatewayV2HTTPResponse response) {
                return body(response).path("Message").asText();
            }
        };
    }

    /** {@code POST /} with {@code X-Amz-Target: GameLift.<Operation>}. */
    public static Door json(Services services) {
        GameLiftJsonHandler door = new GameLiftJsonHandler(services);
        return new Door() {
            @Override
            public APIGatewayV2HTTPResponse call(Operation operation, String callerArn, ObjectNode input) {
                return door.handleRequest(event(Map.of("x-amz-target", "GameLift." + operation.fleetIqName(),
                        "content-type", "application/x-amz-json-1.1"), "POST /", callerArn, input.toString(), false), null);
            }

            @Override
            public JsonNode body(APIGatewayV2HTTPResponse response) {
                return response.getBody() == null || response.getBody().isEmpty() ? Json.NODES.objectNode()
                        : Json.readObject(response.getBody());
            }

            @Override
            public String errorType(APIGatewayV2HTTPResponse response) {
                return response.getHeaders().get("x-amzn-ErrorType");
            }
        };
    }

    /** {@code POST /service/GameLift/operation/<Operation>}, CBOR both ways. */
    public static Door cbor(Services services) {
        FunctionRegistry functions = new FunctionRegistry(services);
        CBORMapper cbor = new CBORMapper();
        return new Door() {
            @Override
            public APIGatewayV2HTTPResponse call(Operation operation, String callerArn, ObjectNode input) {
                try {
                    String body = Base64.getEncoder().encodeToString(cbor.writeValueAsBytes(input));
                    return functions.api(operation).handleRequest(event(Map.of(RpcV2CborProtocol.HEADER,
                            RpcV2CborProtocol.PROTOCOL, "content-type", RpcV2CborProtocol.CONTENT_TYPE),
                            "POST /service/GameLift/operation/" + operation.fleetIqName(), callerArn, body, true), null);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            @Override
            public JsonNode body(APIGatewayV2HTTPResponse response) {
                try {
                    return response.getBody() == null ? Json.NODES.objectNode()
                            : cbor.readTree(Base64.getDecoder().decode(response.getBody()));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            @Override
            public String errorType(APIGatewayV2HTTPResponse response) {
                return body(response).path("__type").asText().replace(RpcV2CborProtocol.SHAPE_NAMESPACE, "");
            }
        };
    }

    private static APIGatewayV2HTTPEvent event(Map<String, String> headers, String routeKey, String callerArn,
            String body, boolean base64) {
        var iam = APIGatewayV2HTTPEvent.RequestContext.IAM.builder().withUserArn(callerArn)
                .withUserId(RestEvents.userId(callerArn)).withAccountId(LocalAccount.ACCOUNT_ID).build();
        return APIGatewayV2HTTPEvent.builder().withVersion("2.0").withRouteKey(routeKey).withHeaders(headers)
                .withBody(body).withIsBase64Encoded(base64)
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                        .withAuthorizer(APIGatewayV2HTTPEvent.RequestContext.Authorizer.builder().withIam(iam).build())
                        .build())
                .build();
    }
}

package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.Route;
import io.gamefleet.domain.ErrorKind;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.json.Json;
import java.util.Map;

/**
 * AWS JSON 1.1, as boto3, the AWS CLI, the JavaScript v3 SDK and older Java v2 SDKs speak it to
 * GameLift: {@code POST /} with {@code X-Amz-Target: GameLift.<Operation>}, the whole input in the
 * JSON body, timestamps as epoch seconds, and every error a 400 (a 500 for an internal one) with
 * its name in {@code __type} and in the {@code x-amzn-ErrorType} header.
 */
public final class AwsJsonProtocol implements WireProtocol {
    public static final AwsJsonProtocol INSTANCE = new AwsJsonProtocol();
    public static final String CONTENT_TYPE = "application/x-amz-json-1.1";

    private AwsJsonProtocol() {}

    @Override
    public ObjectNode input(APIGatewayV2HTTPEvent event, Route route) {
        return Json.readObject(Bodies.text(event));
    }

    @Override
    public APIGatewayV2HTTPResponse output(Operation operation, JsonNode output) {
        return APIGatewayV2HTTPResponse.builder().withStatusCode(200)
                .withHeaders(Map.of("Content-Type", CONTENT_TYPE)).withBody(Json.text(output)).build();
    }

    @Override
    public APIGatewayV2HTTPResponse error(GamefleetException e) {
        ObjectNode body = Json.NODES.objectNode().put("__type", e.errorType()).put("message", e.getMessage());
        return APIGatewayV2HTTPResponse.builder().withStatusCode(rpcStatus(e.kind()))
                .withHeaders(Map.of("Content-Type", CONTENT_TYPE, "x-amzn-ErrorType", e.errorType()))
                .withBody(Json.text(body)).build();
    }

    /**
     * The RPC protocols tell errors apart by name: a client's fault is a 400, ours a 500, and a
     * caller past its fair share 429, as API Gateway's own throttle answers at every door.
     */
    static int rpcStatus(ErrorKind kind) {
        return switch (kind) {
            case INTERNAL -> 500;
            case THROTTLED -> 429;
            default -> 400;
        };
    }
}

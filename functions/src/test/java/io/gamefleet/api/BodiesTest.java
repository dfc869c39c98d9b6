package io.gamefleet.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Bodies as API Gateway hands them over, and the RPC protocols' framing around them. */
class BodiesTest {
    private static APIGatewayV2HTTPEvent body(String body, boolean base64) {
        return APIGatewayV2HTTPEvent.builder().withBody(body).withIsBase64Encoded(base64).build();
    }

    @Test
    void noBodyIsEmpty() {
        assertThat(Bodies.bytes(body(null, false))).isEmpty();
        assertThat(Bodies.bytes(body(null, true))).isEmpty();
        assertThat(Bodies.text(body(null, false))).isEmpty();
    }

    @Test
    void textAndBase64BodiesAreDecoded() {
        assertThat(Bodies.bytes(body("é", false))).isEqualTo("é".getBytes(StandardCharsets.UTF_8));
        String encoded = Base64.getEncoder().encodeToString("{\"a\":\"é\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(Bodies.text(body(encoded, true))).isEqualTo("{\"a\":\"é\"}");
        assertThat(Bodies.text(body("plain", false))).isEqualTo("plain");
        assertThatThrownBy(() -> Bodies.bytes(body("not base64!", true))).isInstanceOf(GamefleetException.class)
                .hasMessage("the request body is not valid base64");
    }

    @Test
    void theAwsJsonDoorReadsTheWholeBody() {
        assertThat(AwsJsonProtocol.INSTANCE.input(body("{\"Limit\": 2}", false), Routes.of(Operation.LIST_GAME_SERVER_GROUPS)))
                .hasToString("{\"Limit\":2}");
        APIGatewayV2HTTPResponse out = AwsJsonProtocol.INSTANCE.output(Operation.LIST_GAME_SERVER_GROUPS,
                Json.NODES.objectNode().put("a", 1));
        assertThat(out.getStatusCode()).isEqualTo(200);
        assertThat(out.getHeaders()).isEqualTo(Map.of("Content-Type", "application/x-amz-json-1.1"));
        assertThat(out.getBody()).isEqualTo("{\"a\":1}");
        APIGatewayV2HTTPResponse internal = AwsJsonProtocol.INSTANCE.error(GamefleetException.internal("oops"));
        assertThat(internal.getStatusCode()).isEqualTo(500);
        assertThat(internal.getBody()).isEqualTo("{\"__type\":\"InternalServiceException\",\"message\":\"oops\"}");
    }

    @Test
    void anEmptyCborBodyIsAnEmptyInput() {
        RpcV2CborProtocol cbor = new RpcV2CborProtocol(ModelValidator.load());
        assertThat(cbor.input(body(null, true), Routes.of(Operation.LIST_GAME_SERVER_GROUPS))).isEmpty();
        assertThat(cbor.input(body("", true), Routes.of(Operation.LIST_GAME_SERVER_GROUPS))).isEmpty();
    }

    @Test
    void onlyTheRpcV2CborHeaderValueMarksACborRequest() {
        assertThat(RpcV2CborProtocol.carries(APIGatewayV2HTTPEvent.builder()
                .withHeaders(Map.of("smithy-protocol", "rpc-v2-json")).build())).isFalse();
        assertThat(RpcV2CborProtocol.carries(APIGatewayV2HTTPEvent.builder()
                .withHeaders(Map.of("other", "rpc-v2-cbor")).build())).isFalse();
        assertThat(RpcV2CborProtocol.carries(APIGatewayV2HTTPEvent.builder()
                .withHeaders(Map.of("Smithy-Protocol", "rpc-v2-cbor")).build())).isTrue();
        assertThat(RpcV2CborProtocol.carries(APIGatewayV2HTTPEvent.builder().withRouteKey("GET /game-server-groups")
                .build())).isFalse();
    }
}

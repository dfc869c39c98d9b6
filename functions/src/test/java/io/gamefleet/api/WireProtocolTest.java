package io.gamefleet.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import io.gamefleet.catalog.Operation;
import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerProtectionPolicy;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.InstanceDefinition;
import io.gamefleet.domain.LaunchTemplate;
import io.gamefleet.json.Json;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The RPC doors' encodings, checked against what AWS JSON 1.1 and Smithy RPC v2 CBOR require. */
class WireProtocolTest {
    private static final ModelValidator MODEL = ModelValidator.load();
    private final RpcV2CborProtocol cbor = new RpcV2CborProtocol(MODEL);

    @Test
    void jsonErrorsAre400WithTheNameInTypeAndHeader() {
        APIGatewayV2HTTPResponse response = AwsJsonProtocol.INSTANCE.error(GamefleetException.notFound("no group x"));
        assertThat(response.getStatusCode()).isEqualTo(400);
        assertThat(response.getHeaders()).containsEntry("x-amzn-ErrorType", "NotFoundException")
                .containsEntry("Content-Type", "application/x-amz-json-1.1");
        assertThat(response.getBody()).isEqualTo("{\"__type\":\"NotFoundException\",\"message\":\"no group x\"}");
        assertThat(AwsJsonProtocol.INSTANCE.error(GamefleetException.internal("x")).getStatusCode()).isEqualTo(500);
    }

    @Test
    void cborRequestsAreRecognisedByTheirRouteOrHeader() {
        assertThat(RpcV2CborProtocol.carries(APIGatewayV2HTTPEvent.builder()
                .withRouteKey("POST /service/GameLift/operation/ClaimGameServer").build())).isTrue();
        assertThat(RpcV2CborProtocol.carries(APIGatewayV2HTTPEvent.builder()
                .withHeaders(Map.of("smithy-protocol", "rpc-v2-cbor")).build())).isTrue();
        assertThat(RpcV2CborProtocol.carries(APIGatewayV2HTTPEvent.builder()
                .withRouteKey("POST /game-server-groups/{GameServerGroupName}/claim").build())).isFalse();
    }

    @Test
    void aCborRequestBodyIsTheInput() throws Exception {
        // {"GameServerGroupName": "arena"} as the spec encodes it: a map of one text key to a text value.
        byte[] body = HexFormat.of().parseHex("a1" + "73" + hex("GameServerGroupName") + "65" + hex("arena"));
        APIGatewayV2HTTPEvent event = APIGatewayV2HTTPEvent.builder().withIsBase64Encoded(true)
                .withBody(Base64.getEncoder().encodeToString(body)).build();
        assertThat(cbor.input(event, null).toString()).isEqualTo("{\"GameServerGroupName\":\"arena\"}");
        APIGatewayV2HTTPEvent empty = APIGatewayV2HTTPEvent.builder().withIsBase64Encoded(true).withBody("").build();
        assertThat(cbor.input(empty, null).size()).isZero();
    }

    @Test
    void cborBodiesThatAreNotAMapAreRefused() {
        for (String hex : List.of("83010203", "ff", "a1")) {
            APIGatewayV2HTTPEvent event = APIGatewayV2HTTPEvent.builder().withIsBase64Encoded(true)
                    .withBody(Base64.getEncoder().encodeToString(HexFormat.of().parseHex(hex))).build();
            try {
                cbor.input(event, null);
                throw new AssertionError(hex + " was accepted");
            } catch (GamefleetException e) {
                assertThat(e.errorType()).isEqualTo("InvalidRequestException");
            }
        }
    }

    @Test
    void cborOutputTagsTimestampsAsEpochSeconds() throws Exception {
        Instant created = Instant.parse("2030-01-02T03:04:05.250Z");
        GameServerGroup group = GameServerGroup.builder().name("arena")
                .arn("arn:aws:gamelift:us-east-1:000000000000:gameservergroup/arena")
                .roleArn("arn:aws:iam::000000000000:role/r").instanceDefinitions(List.of(new InstanceDefinition("c5.large", null)))
                .balancingStrategy(BalancingStrategy.SPOT_PREFERRED).protectionPolicy(GameServerProtectionPolicy.NO_PROTECTION)
                .status(GameServerGroupStatus.ACTIVE).creationTime(created).lastUpdatedTime(created)
                .minSize(1).maxSize(2).launchTemplate(new LaunchTemplate(null, "lt", null)).build();
        APIGatewayV2HTTPResponse response = cbor.output(Operation.DESCRIBE_GAME_SERVER_GROUP,
                Outputs.wrap("GameServerGroup", Outputs.group(group)));

        assertThat(response.getIsBase64Encoded()).isTrue();
        assertThat(response.getHeaders()).containsEntry("smithy-protocol", "rpc-v2-cbor")
                .containsEntry("Content-Type", "application/cbor");
        byte[] body = Base64.getDecoder().decode(response.getBody());
        // "CreationTime" (text of 12), then tag 1 (0xc1) and a float64 (0xfb) of the epoch seconds.
        String expected = "6c" + hex("CreationTime") + "c1" + "fb"
                + String.format("%016x", Double.doubleToLongBits(created.toEpochMilli() / 1000.0));
        assertThat(HexFormat.of().formatHex(body)).contains(expected);
        JsonNode decoded = new CBORMapper().readTree(body);
        assertThat(decoded.at("/GameServerGroup/GameServerGroupName").asText()).isEqualTo("arena");
        assertThat(decoded.at("/GameServerGroup/Status").asText()).isEqualTo("ACTIVE");
    }

    @Test
    void cborErrorsCarryTheirShapeIdInTypeOnly() throws Exception {
        APIGatewayV2HTTPResponse response = cbor.error(GamefleetException.conflict("taken"));
        assertThat(response.getStatusCode()).isEqualTo(400);
        // "Responses SHOULD NOT contain the X-Amzn-ErrorType header": the type is in the payload.
        assertThat(response.getHeaders()).containsEntry("smithy-protocol", "rpc-v2-cbor")
                .doesNotContainKey("x-amzn-ErrorType");
        JsonNode body = new CBORMapper().readTree(Base64.getDecoder().decode(response.getBody()));
        // "This value of this component MUST contain the error's absolute shape ID."
        assertThat(body.get("__type").asText()).isEqualTo("com.amazonaws.gamelift#ConflictException");
        assertThat(body.get("message").asText()).isEqualTo("taken");
    }

    @Test
    void aCborOperationWithoutAnOutputShapeAnswersWithoutABody() {
        // "Responses for operations with no defined output type ... MUST NOT contain bodies ... The
        // Content-Type for the serialization format MUST NOT be set."
        APIGatewayV2HTTPResponse response = cbor.output(Operation.DEREGISTER_GAME_SERVER, Json.NODES.objectNode());
        assertThat(response.getStatusCode()).isEqualTo(200);
        assertThat(response.getBody()).isNull();
        assertThat(response.getHeaders()).containsEntry("smithy-protocol", "rpc-v2-cbor").doesNotContainKey("Content-Type");
    }

    @Test
    void aCborRequestWithAnAmzTargetHeaderIsRefused() {
        // "Server-side implementations MUST reject such requests for security reasons."
        for (String header : List.of("X-Amz-Target", "x-amzn-target")) {
            APIGatewayV2HTTPEvent event = APIGatewayV2HTTPEvent.builder()
                    .withHeaders(Map.of(header, "GameLift.ListGameServerGroups")).build();
            try {
                cbor.input(event, null);
                throw new AssertionError(header + " was accepted");
            } catch (GamefleetException e) {
                assertThat(e.errorType()).isEqualTo("InvalidRequestException");
            }
        }
    }

    private static String hex(String text) {
        return HexFormat.of().formatHex(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}

package io.gamefleet.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import com.fasterxml.jackson.dataformat.cbor.CBORParser;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import io.gamefleet.catalog.Operation;
import io.gamefleet.json.Json;
import io.gamefleet.logging.JsonLog;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.functions.GameLiftJsonHandler;
import io.gamefleet.wiring.AwsServices;
import io.gamefleet.wiring.Services;
import io.gamefleet.wiring.TestServices;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/** What the handlers do off the main path: unexpected failures, the CBOR encoder's other values, priming. */
class EdgeCasesTest {
    @Test
    void anUnexpectedFailureIsLoggedForTheOperatorAndA500ForTheCaller() {
        ApiHandler handler = new FunctionRegistry(TestServices.unreachableStore(Map.of()))
                .api(Operation.DESCRIBE_GAME_SERVER_GROUP);
        assertThat(handler.operation()).isEqualTo(Operation.DESCRIBE_GAME_SERVER_GROUP);
        List<ObjectNode> records = new ArrayList<>();
        APIGatewayV2HTTPResponse response;
        JsonLog.sink(records::add, java.time.Clock.systemUTC());
        try {
            response = handler.handleRequest(RestEvents.event("GET", "/game-server-groups/arena",
                    Map.of("GameServerGroupName", "arena"), null, null), null);
        } finally {
            JsonLog.sink(record -> System.out.println(record.toString()), java.time.Clock.systemUTC());
        }
        assertThat(response.getStatusCode()).isEqualTo(500);
        assertThat(response.getBody()).contains("InternalServiceException").doesNotContain("127.0.0.1");
        // Once with its stack trace, then counted (an earlier test may have met the same failure).
        assertThat(records).anySatisfy(r -> {
            assertThat(r.path("message").asText()).startsWith("DescribeGameServerGroup failed unexpectedly");
            assertThat(r.path("operation").asText()).isEqualTo("DescribeGameServerGroup");
            assertThat(r.path("group").asText()).isEqualTo("arena");
        });
    }

    @Test
    void cborWritesEveryKindOfValueAndTagsTimestampsInsideLists() throws Exception {
        RpcV2CborProtocol cbor = new RpcV2CborProtocol(ModelValidator.load());
        ObjectNode server = Json.NODES.objectNode().put("GameServerId", "gs-1").put("RegistrationTime", 12.5);
        ObjectNode output = Json.NODES.objectNode();
        output.putArray("GameServers").add(server);
        output.put("Flag", true).put("Count", 7L).put("Ratio", 0.25).putNull("Nothing");
        APIGatewayV2HTTPResponse response = cbor.output(Operation.LIST_GAME_SERVERS, output);
        byte[] body = Base64.getDecoder().decode(response.getBody());

        JsonNode decoded = new CBORMapper().readTree(body);
        assertThat(decoded.get("Flag").isBoolean()).isTrue();
        assertThat(decoded.get("Flag").booleanValue()).isTrue();
        assertThat(decoded.get("Count").isIntegralNumber()).isTrue();
        assertThat(decoded.get("Count").longValue()).isEqualTo(7);
        assertThat(decoded.get("Ratio").doubleValue()).isEqualTo(0.25);
        assertThat(decoded.get("Nothing").isNull()).isTrue();
        assertThat(decoded.at("/GameServers/0/GameServerId").asText()).isEqualTo("gs-1");

        List<Integer> tags = new ArrayList<>();
        try (CBORParser parser = new CBORFactory().createParser(body)) {
            for (JsonToken t = parser.nextToken(); t != null; t = parser.nextToken()) {
                if (t == JsonToken.VALUE_NUMBER_FLOAT && "RegistrationTime".equals(parser.currentName())) {
                    tags.add(parser.getCurrentTag());
                }
            }
        }
        assertThat(tags).as("the timestamp of a list's item is tagged too").containsExactly(1);
    }

    @Test
    void theJsonDoorReadsItsTargetFromTheRightHeader() {
        GameLiftJsonHandler door = new GameLiftJsonHandler(TestServices.unreachableStore(Map.of(
                "GAMEFLEET_ADMIN_ROLE_ARN", "arn:aws:iam::123456789012:role/gamefleet-admin")));
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("content-type", "application/x-amz-json-1.1");
        headers.put("X-Amz-Target", "GameLift.ListGameServerGroups");
        APIGatewayV2HTTPEvent event = RestEvents.event("POST", "/", null, null, "{\"Limit\": 0}",
                "arn:aws:sts::123456789012:assumed-role/gamefleet-admin/ops");
        event.getRequestContext().getAuthorizer().getIam().setAccountId("123456789012");
        event.setHeaders(headers);
        APIGatewayV2HTTPResponse response = door.handleRequest(event, null);
        assertThat(response.getBody()).contains("Limit: must be at least 1");
    }

    @Test
    void primingBeforeACheckpointRunsTheHandlersPaths() {
        List<String> calls = new ArrayList<>();
        ExecutionInterceptor counter = new ExecutionInterceptor() {
            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                calls.add(context.request().getClass().getSimpleName());
            }
        };
        Services services = AwsServices.fromEnvironment(Map.of("AWS_REGION", "us-east-1", "GAMEFLEET_PAGE_TOKEN_KEY", "a-test-pagination-key",
                "AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:1"))
                .credentials(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .interceptors(List.of(counter)).build();
        ApiHandler handler = new DescribeGameServerGroupHandler(services);
        ((SnapStartPriming) handler.priming).beforeCheckpoint(null);
        assertThat(calls).contains("GetItemRequest");
    }
}

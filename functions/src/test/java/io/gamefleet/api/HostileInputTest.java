package io.gamefleet.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.gamefleet.catalog.Operation;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.wiring.TestServices;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Input the store cannot hold or the API must not read half of is refused with a 400 before any
 * store call: DynamoDB here is unreachable, so a request that got past decoding and validation
 * would answer 500.
 */
class HostileInputTest {
    private static final String SERVER = "/game-server-groups/arena/game-servers/gs-1";
    private final FunctionRegistry functions = new FunctionRegistry(TestServices.unreachableStore(Map.of()));

    @ParameterizedTest
    @ValueSource(strings = {"{\"GameServerData\":\"z\"} xyz", "{\"GameServerData\":\"z\"}{\"HealthCheck\":\"HEALTHY\"}",
            "{\"GameServerData\":\"z\"} {"})
    void contentAfterTheJsonDocumentIsRefused(String body) {
        APIGatewayV2HTTPResponse response = updateServer(body, null);
        assertRefused(response, "not valid JSON");
    }

    @Test
    void aLoneSurrogateIsRefused() {
        assertRefused(updateServer("{\"GameServerData\":\"a\\ud800b\"}", null), "unpaired surrogate");
        assertRefused(updateServer("{\"GameServerData\":\"\\udc00\"}", null), "unpaired surrogate");
    }

    @Test
    void aSurrogatePairIsText() {
        // An emoji is a valid pair: it reaches the store (unreachable here: 500), not a 400.
        assertThat(updateServer("{\"GameServerData\":\"\\ud83d\\ude00\"}", null).getStatusCode()).isEqualTo(500);
    }

    @ParameterizedTest
    @ValueSource(strings = {"61ff62", "c0af", "eda080edb080", "e282"})
    void bodiesThatAreNotUtf8AreRefused(String hex) {
        byte[] prefix = "{\"GameServerData\":\"".getBytes();
        byte[] bad = java.util.HexFormat.of().parseHex(hex);
        byte[] suffix = "\"}".getBytes();
        byte[] body = new byte[prefix.length + bad.length + suffix.length];
        System.arraycopy(prefix, 0, body, 0, prefix.length);
        System.arraycopy(bad, 0, body, prefix.length, bad.length);
        System.arraycopy(suffix, 0, body, prefix.length + bad.length, suffix.length);
        APIGatewayV2HTTPEvent event = serverEvent(Base64.getEncoder().encodeToString(body), null);
        event.setIsBase64Encoded(true);
        assertRefused(functions.api(Operation.UPDATE_GAME_SERVER).handleRequest(event, null), "not valid UTF-8");
    }

    @Test
    void numbersBeyondTheDoubleRangeAreRefused() {
        String body = """
                {"GameServerGroupName": "arena", "RoleArn": "arn:aws:iam::123456789012:role/fleetiq",
                 "MinSize": 1, "MaxSize": 2, "LaunchTemplate": {"LaunchTemplateName": "arena-lt"},
                 "InstanceDefinitions": [{"InstanceType": "c5.large"}, {"InstanceType": "m5.large"}],
                 "AutoScalingPolicy": {"TargetTrackingConfiguration": {"TargetValue": 1e309}}}""";
        APIGatewayV2HTTPEvent event = event("POST", "/game-server-groups", body, Map.of(), null);
        assertRefused(functions.api(Operation.CREATE_GAME_SERVER_GROUP).handleRequest(event, null),
                "TargetValue: must be within the range of a double");
    }

    @Test
    void onlyTheRoutesQueryMembersMayComeFromTheQueryString() {
        assertRefused(updateServer("{}", Map.of("UtilizationStatus", "UTILIZED")),
                "UtilizationStatus: is not a query parameter of UpdateGameServer");
        APIGatewayV2HTTPEvent list = event("GET", "/game-server-groups/arena/game-servers", null,
                Map.of("GameServerGroupName", "arena"), Map.of("GameServerGroupName", "other"));
        assertRefused(functions.api(Operation.LIST_GAME_SERVERS).handleRequest(list, null),
                "GameServerGroupName: is not a query parameter of ListGameServers");
    }

    @Test
    void pathValuesAreNotDecodedAgain() {
        // API Gateway decodes the path once: b%61d is the name "b%61d" (not a valid name), never "bad".
        APIGatewayV2HTTPEvent event = event("GET", "/game-server-groups/b%2561d", null,
                Map.of("GameServerGroupName", "b%61d"), null);
        assertRefused(functions.api(Operation.DESCRIBE_GAME_SERVER_GROUP).handleRequest(event, null),
                "GameServerGroupName: must match");
    }

    private APIGatewayV2HTTPResponse updateServer(String body, Map<String, String> query) {
        return functions.api(Operation.UPDATE_GAME_SERVER).handleRequest(serverEvent(body, query), null);
    }

    private static APIGatewayV2HTTPEvent serverEvent(String body, Map<String, String> query) {
        return event("PATCH", SERVER, body, Map.of("GameServerGroupName", "arena", "GameServerId", "gs-1"), query);
    }

    private static APIGatewayV2HTTPEvent event(String method, String path, String body, Map<String, String> pathParameters,
            Map<String, String> query) {
        return APIGatewayV2HTTPEvent.builder().withVersion("2.0").withRawPath(path)
                .withPathParameters(pathParameters.isEmpty() ? null : pathParameters)
                .withQueryStringParameters(query).withBody(body).withIsBase64Encoded(false)
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder().withMethod(method).withPath(path)
                                .build())
                        // An ADMIN session, which every operation admits.
                        .withAuthorizer(APIGatewayV2HTTPEvent.RequestContext.Authorizer.builder()
                                .withIam(APIGatewayV2HTTPEvent.RequestContext.IAM.builder().withUserArn(HandlersTest.ADMIN)
                                        .withUserId(RestEvents.userId(HandlersTest.ADMIN))
                                        .withAccountId(io.gamefleet.catalog.LocalAccount.ACCOUNT_ID).build())
                                .build())
                        .build())
                .build();
    }

    private static void assertRefused(APIGatewayV2HTTPResponse response, String message) {
        assertThat(response.getStatusCode()).as(response.getBody()).isEqualTo(400);
        assertThat(response.getBody()).contains("InvalidRequestException").contains(message);
    }
}

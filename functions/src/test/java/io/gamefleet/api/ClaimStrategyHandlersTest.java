package io.gamefleet.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.ClaimStrategy;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.wiring.TestServices;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A group's claim strategy through its two routes: set by an ADMIN, read by a matchmaker too, bad input refused. */
class ClaimStrategyHandlersTest {
    private static final String ADMIN = RestEvents.session(Role.ADMIN, "alice");
    private static final String MATCHMAKER = RestEvents.session(Role.MATCHMAKER, "mm");

    private final TestServices test = new TestServices();
    private final FunctionRegistry registry = new FunctionRegistry(test.services);
    private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> put =
            registry.extension(Routes.PUT_CLAIM_STRATEGY);
    private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> describe =
            registry.extension(Routes.DESCRIBE_CLAIM_STRATEGY);

    @BeforeEach
    void aGroup() {
        test.groups.create(GameServerGroup.builder().name("arena").arn(test.services.settings().groupArn("arena"))
                .status(GameServerGroupStatus.ACTIVE).minSize(1).maxSize(4)
                .creationTime(test.clock.instant()).lastUpdatedTime(test.clock.instant()).build());
    }

    private APIGatewayV2HTTPResponse put(String group, String body, String caller) {
        return put.handleRequest(RestEvents.event("PUT", "/game-server-groups/" + group + "/claim-strategy",
                Map.of("GameServerGroupName", group), null, body, caller), null);
    }

    private APIGatewayV2HTTPResponse get(String group, String caller) {
        return describe.handleRequest(RestEvents.event("GET", "/game-server-groups/" + group + "/claim-strategy",
                Map.of("GameServerGroupName", group), null, null, caller), null);
    }

    private ClaimStrategy stored() {
        return test.groups.find("arena").orElseThrow().claimStrategy();
    }

    @Test
    void anAdminSetsTheStrategyAndAMatchmakerReadsIt() {
        assertThat(RestEvents.ok(get("arena", MATCHMAKER)).toString())
                .isEqualTo("{\"GameServerGroupName\":\"arena\",\"ClaimStrategy\":\"FLEETIQ\"}");
        JsonNode answer = RestEvents.ok(put("arena", "{\"ClaimStrategy\":\"PACKED\"}", ADMIN));
        assertThat(answer.toString()).isEqualTo("{\"GameServerGroupName\":\"arena\",\"ClaimStrategy\":\"PACKED\"}");
        assertThat(stored()).isEqualTo(ClaimStrategy.PACKED);
        String arn = test.services.settings().groupArn("arena");
        assertThat(RestEvents.ok(get(arn, MATCHMAKER)).get("ClaimStrategy").asText()).as("by ARN too")
                .isEqualTo("PACKED");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{}", "{\"ClaimStrategy\":null}", "{\"ClaimStrategy\":\"packed\"}",
            "{\"ClaimStrategy\":\"BEST_FIT\"}", "{\"ClaimStrategy\":1}", "{\"ClaimStrategy\":[\"PACKED\"]}",
            "{\"ClaimStrategy\":\"PACKED\",\"Spread\":2}", "[\"PACKED\"]", "not json"})
    void badInputIsRefusedNamingTheMemberAndNothingIsStored(String body) {
        APIGatewayV2HTTPResponse refused = put("arena", body, ADMIN);
        assertThat(refused.getStatusCode()).isEqualTo(400);
        assertThat(RestEvents.json(refused).get("__type").asText()).isEqualTo("InvalidRequestException");
        if (body.startsWith("{")) {
            assertThat(RestEvents.json(refused).get("Message").asText()).containsAnyOf("ClaimStrategy:", "Spread:");
        }
        assertThat(stored()).isEqualTo(ClaimStrategy.FLEETIQ);
    }

    @Test
    void anUnknownGroupIsNotFoundAndABadNameIsRefused() {
        assertThat(put("nowhere", "{\"ClaimStrategy\":\"PACKED\"}", ADMIN).getStatusCode()).isEqualTo(404);
        assertThat(get("nowhere", MATCHMAKER).getStatusCode()).isEqualTo(404);
        assertThat(get("bad name!", MATCHMAKER).getStatusCode()).isEqualTo(400);
    }

    @Test
    void onlyAnAdminSetsItAndAGameServerDoesNotReadIt() {
        APIGatewayV2HTTPResponse refused = put("arena", "{\"ClaimStrategy\":\"DISTRIBUTED\"}", MATCHMAKER);
        assertThat(refused.getStatusCode()).isEqualTo(403);
        assertThat(refused.getBody()).contains("UnauthorizedException");
        assertThat(get("arena", RestEvents.session(Role.GAME_SERVER, "i-0aaaaaaaaaaaaaaaa")).getStatusCode())
                .isEqualTo(403);
        assertThat(stored()).isEqualTo(ClaimStrategy.FLEETIQ);
    }

    @Test
    void aGroupBeingDeletedTakesNoStrategy() {
        GameServerGroup g = test.groups.find("arena").orElseThrow();
        test.groups.update(g.toBuilder().status(GameServerGroupStatus.DELETE_SCHEDULED).build());
        APIGatewayV2HTTPResponse refused = put("arena", "{\"ClaimStrategy\":\"PACKED\"}", ADMIN);
        assertThat(refused.getStatusCode()).isEqualTo(409);
        assertThat(stored()).isEqualTo(ClaimStrategy.FLEETIQ);
    }
}

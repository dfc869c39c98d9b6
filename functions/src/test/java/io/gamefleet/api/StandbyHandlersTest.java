package io.gamefleet.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.wiring.TestServices;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Standby buffers through their handlers: put and read back, refusals naming their member with nothing stored. */
class StandbyHandlersTest {
    private static final String ADMIN = RestEvents.session(Role.ADMIN, "alice");
    private static final String MATCHMAKER = RestEvents.session(Role.MATCHMAKER, "mm");

    private final TestServices test = new TestServices();
    private final FunctionRegistry registry = new FunctionRegistry(test.services);
    private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> put =
            registry.extension(Routes.PUT_STANDBY_POLICY);
    private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> describe =
            registry.extension(Routes.DESCRIBE_STANDBY_POLICY);

    @BeforeEach
    void aGroup() {
        test.groups.create(GameServerGroup.builder().name("arena").arn(test.services.settings().groupArn("arena"))
                .status(GameServerGroupStatus.ACTIVE).minSize(1).maxSize(4)
                .creationTime(test.clock.instant()).lastUpdatedTime(test.clock.instant()).build());
    }

    private APIGatewayV2HTTPResponse put(String group, String body, String caller) {
        return put.handleRequest(RestEvents.event("PUT", "/game-server-groups/" + group + "/standby",
                Map.of("GameServerGroupName", group), null, body, caller), null);
    }

    private APIGatewayV2HTTPResponse get(String group, String caller) {
        return describe.handleRequest(RestEvents.event("GET", "/game-server-groups/" + group + "/standby",
                Map.of("GameServerGroupName", group), null, null, caller), null);
    }

    @Test
    void aPolicyIsPutAndReadBackWithItsDefaults() {
        String body = """
                {"StandingBy": 10,
                 "Dynamic": [{"BelowPercent": 50, "Multiplier": 2}, {"BelowPercent": 20, "Multiplier": 4}],
                 "Schedule": [{"Start": "2100-01-02T18:00:00Z", "End": 4102603200, "StandingBy": "25%"}]}""";
        JsonNode answer = RestEvents.ok(put("arena", body, ADMIN)).get("StandbyPolicy");

        assertThat(answer.get("GameServerGroupName").asText()).isEqualTo("arena");
        assertThat(answer.get("StandingBy").asInt()).isEqualTo(10);
        assertThat(answer.get("Dynamic").toString())
                .isEqualTo("[{\"BelowPercent\":50.0,\"Multiplier\":2.0},{\"BelowPercent\":20.0,\"Multiplier\":4.0}]");
        assertThat(answer.get("Schedule").get(0).get("Start").asDouble()).isEqualTo(4102596000.0);
        assertThat(answer.get("Schedule").get(0).get("End").asDouble()).isEqualTo(4102603200.0);
        assertThat(answer.get("Schedule").get(0).get("StandingBy").asText()).isEqualTo("25%");
        assertThat(answer.get("RampDownSeconds").asInt()).isEqualTo(1800);
        assertThat(answer.get("ScaleInCooldownSeconds").asInt()).isEqualTo(300);
        assertThat(answer.has("LastEvaluation")).isFalse();

        JsonNode read = RestEvents.ok(get("arena", MATCHMAKER)).get("StandbyPolicy");
        assertThat(read).isEqualTo(answer);
    }

    @Test
    void aGroupWithoutAPolicyHasNoBuffer() {
        JsonNode read = RestEvents.ok(get("arena", ADMIN)).get("StandbyPolicy");
        assertThat(read.get("StandingBy").asInt()).isZero();
        assertThat(read.get("Dynamic")).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{}                                                              | StandingBy: is required",
        "{\"StandingBy\": -1}                                            | StandingBy must be from 0",
        "{\"StandingBy\": 2.5}                                           | StandingBy: must be a whole number",
        "{\"StandingBy\": \"120%\"}                                      | StandingBy as a percentage must be from 1%",
        "{\"StandingBy\": \"lots\"}                                      | StandingBy: must be a count or a percentage",
        "{\"StandingBy\": 1, \"Spare\": 2}                               | Spare: is not a member",
        "{\"StandingBy\": 1, \"Dynamic\": {}}                            | Dynamic: must be a list",
        "{\"StandingBy\": 1, \"Dynamic\": [{\"BelowPercent\": 50}]}      | Dynamic[0].Multiplier: is required",
        "{\"StandingBy\": 1, \"Dynamic\": [{\"BelowPercent\": 50, \"Multiplier\": 3}, {\"BelowPercent\": 10, \"Multiplier\": 2}]} | Dynamic[1].Multiplier must be above the 3.0",
        "{\"StandingBy\": 1, \"Schedule\": [{\"Start\": \"tomorrow\", \"End\": 1, \"StandingBy\": 1}]} | Schedule[0].Start: must be epoch seconds or an ISO-8601",
        "{\"StandingBy\": 1, \"Schedule\": [{\"Start\": 100, \"End\": 200, \"StandingBy\": 1}, {\"Start\": 150, \"End\": 300, \"StandingBy\": 2}]} | Schedule[1] overlaps Schedule[0]",
        "{\"StandingBy\": 1, \"RampDownSeconds\": -5}                    | RampDownSeconds must be from 0",
    })
    void badInputIsA400NamingTheMemberWithNothingStored(String body, String message) {
        APIGatewayV2HTTPResponse refused = put("arena", body, ADMIN);

        assertThat(refused.getStatusCode()).isEqualTo(400);
        assertThat(RestEvents.json(refused).get("__type").asText()).isEqualTo("InvalidRequestException");
        assertThat(RestEvents.json(refused).get("Message").asText()).startsWith(message);
        assertThat(test.standby.find("arena")).isEmpty();
    }

    @Test
    void onlyAnAdministratorPutsAndAnUnknownGroupIsNotFound() {
        assertThat(put("arena", "{\"StandingBy\": 3}", MATCHMAKER).getStatusCode()).isEqualTo(403);
        assertThat(get("arena", RestEvents.session(Role.GAME_SERVER, "i-0aaaaaaaaaaaaaaaa")).getStatusCode()).isEqualTo(403);
        assertThat(test.standby.find("arena")).isEmpty();

        APIGatewayV2HTTPResponse unknown = put("nowhere", "{\"StandingBy\": 3}", ADMIN);
        assertThat(unknown.getStatusCode()).isEqualTo(404);
        assertThat(get("nowhere", ADMIN).getStatusCode()).isEqualTo(404);
        assertThat(test.standby.find("nowhere")).isEmpty();
    }
}

package io.gamefleet.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.PeerRegions;
import io.gamefleet.domain.QosServers.QosServer;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.wiring.TestServices;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code GET /qos-servers} through its handler: PlayFab's shape, any Gamefleet role, no query or body. */
class ListQosServersHandlerTest {
    private static final String INSTANCE = "i-0aaaaaaaaaaaaaaaa";

    private final TestServices test = new TestServices();
    private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> list =
            new FunctionRegistry(test.services).extension(Routes.LIST_QOS_SERVERS);

    @BeforeEach
    void anInstanceWhoseAgentIsConnectedWithABeacon() {
        test.groups.create(GameServerGroup.builder().name("arena").arn(test.services.settings().groupArn("arena"))
                .status(GameServerGroupStatus.ACTIVE).minSize(1).maxSize(4)
                .creationTime(test.clock.instant()).lastUpdatedTime(test.clock.instant()).build());
        test.instances.save(new GameServerInstance("arena", INSTANCE, InstanceStatus.ACTIVE, "c5.large", "us-east-1a",
                test.clock.instant(), false, null, null, List.of("10.0.0.1", "54.1.2.3", "ip-10-0-0-1.ec2.internal")));
        test.services.pushConnections().connect(Caller.onInstance(INSTANCE), "arena", INSTANCE, "conn-1",
                OptionalInt.of(3075));
    }

    private APIGatewayV2HTTPResponse get(Map<String, String> query, String body, Role role) {
        return list.handleRequest(RestEvents.event("GET", "/qos-servers", null, query, body,
                RestEvents.session(role, role == Role.GAME_SERVER ? INSTANCE : "caller")), null);
    }

    @Test
    void anyRoleGetsThisRegionsBeaconsInPlayFabsShape() {
        for (Role role : Role.values()) {
            JsonNode answer = RestEvents.ok(get(null, null, role));
            assertThat(answer.toString()).as(role.name()).isEqualTo("{\"QosServers\":[{\"Region\":\""
                    + test.services.settings().region() + "\",\"ServerUrl\":\"54.1.2.3\",\"Port\":3075}]}");
        }
    }

    @Test
    void noBeaconListsNone() {
        test.services.pushConnections().disconnect("conn-1");
        assertThat(RestEvents.ok(get(null, null, Role.MATCHMAKER)).toString()).isEqualTo("{\"QosServers\":[]}");
    }

    @Test
    void anotherQueryARegionOfNoPeerOrABodyIsRefused400() {
        for (APIGatewayV2HTTPResponse refused : List.of(get(Map.of("Region", "eu-west-1"), null, Role.MATCHMAKER),
                get(Map.of("Limit", "3"), null, Role.MATCHMAKER), get(null, "{}", Role.MATCHMAKER))) {
            assertThat(refused.getStatusCode()).as(refused.getBody()).isEqualTo(400);
            assertThat(RestEvents.json(refused).get("__type").asText()).isEqualTo("InvalidRequestException");
            assertThat(refused.getBody()).containsAnyOf("Region: eu-west-1 is not a region of this deployment",
                    "Limit: is not a query parameter of ListQosServers", "ListQosServers takes no body");
        }
    }

    @Test
    void eachPeersBeaconsFollowThisRegionsAndARegionsQueryListsThatRegionAlone() {
        test.peers.add("eu-west-1", request -> new PeerRegions.Answer.Refused("unused"));
        test.peers.beacons("eu-west-1", List.of(new QosServer("63.1.2.3", 3075)));

        assertThat(RestEvents.ok(get(null, null, Role.MATCHMAKER)).toString()).isEqualTo("{\"QosServers\":["
                + "{\"Region\":\"us-east-1\",\"ServerUrl\":\"54.1.2.3\",\"Port\":3075},"
                + "{\"Region\":\"eu-west-1\",\"ServerUrl\":\"63.1.2.3\",\"Port\":3075}]}");
        assertThat(RestEvents.ok(get(Map.of("Region", "eu-west-1"), null, Role.GAME_SERVER)).toString())
                .isEqualTo("{\"QosServers\":[{\"Region\":\"eu-west-1\",\"ServerUrl\":\"63.1.2.3\",\"Port\":3075}]}");
        assertThat(RestEvents.ok(get(Map.of("Region", "us-east-1"), null, Role.ADMIN)).toString())
                .isEqualTo("{\"QosServers\":[{\"Region\":\"us-east-1\",\"ServerUrl\":\"54.1.2.3\",\"Port\":3075}]}");
    }

    @Test
    void theRegionsAreHomeThenEachPeerWithItsApi() {
        test.peers.add("eu-west-1", request -> new PeerRegions.Answer.Refused("unused"));
        var regions = new FunctionRegistry(test.services).extension(Routes.LIST_REGIONS).handleRequest(
                RestEvents.event("GET", "/regions", null, null, null, RestEvents.session(Role.GAME_SERVER, INSTANCE)), null);
        assertThat(RestEvents.ok(regions).toString()).isEqualTo("{\"Regions\":[{\"Region\":\"us-east-1\",\"Home\":true},"
                + "{\"Region\":\"eu-west-1\",\"ApiUrl\":\"https://api.eu-west-1.example\"}]}");
    }
}

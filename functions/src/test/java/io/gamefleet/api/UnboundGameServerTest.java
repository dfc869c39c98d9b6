package io.gamefleet.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.Role;
import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.Compute.ScalingGroupState;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.json.Json;
import io.gamefleet.wiring.TestServices;
import java.util.List;
import java.util.Optional;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * A session of the GameServer role not named after an instance is bound to none: at the AWS JSON
 * 1.1 door and through Smithy RPC v2 CBOR, as on the REST routes, it may not register, update or
 * deregister a game server, and nothing changes; the instance's own session may.
 */
class UnboundGameServerTest {
    private static final String INSTANCE = "i-0aaaaaaaaaaaaaaaa";
    private static final String BOUND = session(INSTANCE);
    private static final String UNBOUND = session("game-server-process");

    private final TestServices test = new TestServices();

    @Test
    void theJsonDoorRefusesAnUnboundGameServerAndAdmitsTheInstancesOwn() {
        refusesUnboundAndAdmitsBound(Doors.json(test.services));
    }

    @Test
    void theCborProtocolRefusesAnUnboundGameServerAndAdmitsTheInstancesOwn() {
        refusesUnboundAndAdmitsBound(Doors.cbor(test.services));
    }

    private void refusesUnboundAndAdmitsBound(Doors.Door door) {
        anActiveGroupWithOneInstance();
        assertThat(door.call(Operation.REGISTER_GAME_SERVER, BOUND, register("gs-1")).getStatusCode())
                .as("the instance's own process registers").isEqualTo(200);
        Optional<GameServer> registered = test.servers.find("gs-1");
        assertThat(registered).isPresent();

        // Softly, so a failure names every operation that let the unbound caller through.
        SoftAssertions.assertSoftly(softly -> {
            refused(softly, door, door.call(Operation.REGISTER_GAME_SERVER, UNBOUND, register("gs-2")));
            refused(softly, door, door.call(Operation.UPDATE_GAME_SERVER, UNBOUND,
                    server("gs-1").put("UtilizationStatus", "UTILIZED")));
            refused(softly, door, door.call(Operation.DEREGISTER_GAME_SERVER, UNBOUND, server("gs-1")));
            softly.assertThat(test.servers.find("gs-2")).isEmpty();
            softly.assertThat(test.servers.find("gs-1")).isEqualTo(registered);
        });

        APIGatewayV2HTTPResponse updated = door.call(Operation.UPDATE_GAME_SERVER, BOUND,
                server("gs-1").put("UtilizationStatus", "UTILIZED"));
        assertThat(updated.getStatusCode()).as("%s", door.body(updated)).isEqualTo(200);
        assertThat(door.body(updated).at("/GameServer/UtilizationStatus").asText()).isEqualTo("UTILIZED");
        APIGatewayV2HTTPResponse deregistered = door.call(Operation.DEREGISTER_GAME_SERVER, BOUND, server("gs-1"));
        assertThat(deregistered.getStatusCode()).as("%s", door.body(deregistered)).isEqualTo(200);
        assertThat(test.servers.find("gs-1")).isEmpty();
    }

    /** The RPC protocols answer a client's fault with 400 and name it (the REST routes say 403). */
    private static void refused(SoftAssertions softly, Doors.Door door, APIGatewayV2HTTPResponse response) {
        softly.assertThat(response.getStatusCode()).as("%s", door.body(response)).isEqualTo(400);
        softly.assertThat(door.errorType(response)).isEqualTo("UnauthorizedException");
        softly.assertThat(door.message(response)).contains("this caller is bound to no instance");
    }

    private void anActiveGroupWithOneInstance() {
        test.groups.create(GameServerGroup.builder().name("arena").arn(test.services.settings().groupArn("arena"))
                .status(GameServerGroupStatus.ACTIVE).minSize(1).maxSize(4)
                .creationTime(test.clock.instant()).lastUpdatedTime(test.clock.instant()).build());
        test.compute.putScalingGroup("gamefleet-arena", new ScalingGroupState(1, 1, 4, List.of(), false,
                List.of(new ComputeInstance(INSTANCE, "c5.large", "us-east-1a", true, false))));
    }

    private static ObjectNode server(String gameServerId) {
        return Json.NODES.objectNode().put("GameServerGroupName", "arena").put("GameServerId", gameServerId);
    }

    private static ObjectNode register(String gameServerId) {
        return server(gameServerId).put("InstanceId", INSTANCE);
    }

    /** A session of the local account's GameServer role, as EC2 names it after the instance. */
    private static String session(String name) {
        return RestEvents.session(Role.GAME_SERVER, name);
    }
}

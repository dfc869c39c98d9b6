package io.gamefleet.api;

import static io.gamefleet.api.RestEvents.session;
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
import io.gamefleet.wiring.Services;
import io.gamefleet.wiring.TestServices;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What one instance's credentials can do to its group, refused at each of the API's doors with
 * the error's own status and name, nothing stored: the server past the cap (LimitExceededException),
 * a ConnectionInfo naming another host (InvalidRequestException), registrations past the
 * instance's fair share (ThrottlingException, 429). The rules themselves are core's InstanceLimitsTest.
 */
class InstanceLimitsDoorsTest {
    private static final String MINE = "i-0aaaaaaaaaaaaaaaa";
    private static final String OTHER = "i-0bbbbbbbbbbbbbbbb";
    /** The stage's defaults: 16 game servers per instance, 16 registrations at once. */
    private static final int CAP = 16;

    private final TestServices test = new TestServices();
    private int serial;

    static Stream<Arguments> doors() {
        return Doors.ALL.entrySet().stream().map(e -> Arguments.of(e.getKey(), e.getValue()));
    }

    private Doors.Door open(Function<Services, Doors.Door> door) {
        test.groups.create(GameServerGroup.builder().name("arena").arn(test.services.settings().groupArn("arena"))
                .status(GameServerGroupStatus.ACTIVE).minSize(1).maxSize(4)
                .creationTime(test.clock.instant()).lastUpdatedTime(test.clock.instant()).build());
        test.compute.putScalingGroup("gamefleet-arena", new ScalingGroupState(2, 1, 4, List.of(), false, List.of(
                new ComputeInstance(MINE, "c5.large", "us-east-1a", true, false),
                new ComputeInstance(OTHER, "c5.large", "us-east-1a", true, false))));
        test.compute.setAddresses(MINE, List.of("10.0.3.7", "ip-10-0-3-7.ec2.internal"));
        test.compute.setAddresses(OTHER, List.of("10.0.3.8"));
        return door.apply(test.services);
    }

    private ObjectNode registration(String instanceId, String connectionInfo) {
        return Json.NODES.objectNode().put("GameServerGroupName", "arena").put("GameServerId", "gs-" + serial++)
                .put("InstanceId", instanceId).put("ConnectionInfo", connectionInfo);
    }

    private ObjectNode deregistration(String gameServerId) {
        return Json.NODES.objectNode().put("GameServerGroupName", "arena").put("GameServerId", gameServerId);
    }

    private static void ok(Doors.Door door, APIGatewayV2HTTPResponse response) {
        assertThat(response.getStatusCode()).as("%s", door.body(response)).isEqualTo(200);
    }

    private List<String> stored() {
        return test.servers.listAll("arena").stream().map(GameServer::gameServerId).sorted().toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("doors")
    void theServerPastTheCapIsRefusedLimitExceeded(String name, Function<Services, Doors.Door> opening) {
        Doors.Door door = open(opening);
        for (int n = 0; n < CAP; n++) {
            ok(door, door.call(Operation.REGISTER_GAME_SERVER, session(Role.ADMIN, "ops"), registration(MINE, "10.0.3.7:7777")));
        }
        List<String> before = stored();

        APIGatewayV2HTTPResponse refused = door.call(Operation.REGISTER_GAME_SERVER, session(Role.GAME_SERVER, MINE),
                registration(MINE, "10.0.3.7:7777"));
        assertThat(refused.getStatusCode()).isEqualTo(400);
        assertThat(door.errorType(refused)).isEqualTo("LimitExceededException");
        assertThat(door.message(refused)).isEqualTo("instance " + MINE + " has 16 game servers registered, the most one"
                + " instance may have; deregister one first");
        assertThat(stored()).isEqualTo(before);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("doors")
    void aConnectionInfoNamingAnotherHostIsRefusedInvalidRequest(String name, Function<Services, Doors.Door> opening) {
        Doors.Door door = open(opening);
        ok(door, door.call(Operation.REGISTER_GAME_SERVER, session(Role.GAME_SERVER, MINE),
                registration(MINE, "ip-10-0-3-7.ec2.internal:7777")));
        List<String> before = stored();

        for (String foreign : List.of("203.0.113.9:7777", "10.0.3.8:7777", "10.0.3.7")) {
            APIGatewayV2HTTPResponse refused = door.call(Operation.REGISTER_GAME_SERVER, session(Role.GAME_SERVER, MINE),
                    registration(MINE, foreign));
            assertThat(refused.getStatusCode()).as(foreign).isEqualTo(400);
            assertThat(door.errorType(refused)).isEqualTo("InvalidRequestException");
            assertThat(door.message(refused)).startsWith("ConnectionInfo " + foreign + " names no address of instance "
                    + MINE + ": it must be one of 10.0.3.7, ip-10-0-3-7.ec2.internal and a port");
        }
        assertThat(stored()).isEqualTo(before);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("doors")
    void registrationsPastTheInstancesFairShareAreRefusedThrottled(String name, Function<Services, Doors.Door> opening) {
        Doors.Door door = open(opening);
        String mine = session(Role.GAME_SERVER, MINE);
        for (int n = 0; n < CAP; n++) { // register, deregister, again: the share's burst
            ObjectNode registration = registration(MINE, "10.0.3.7:7777");
            ok(door, door.call(Operation.REGISTER_GAME_SERVER, mine, registration));
            ok(door, door.call(Operation.DEREGISTER_GAME_SERVER, mine,
                    deregistration(registration.get("GameServerId").asText())));
        }

        APIGatewayV2HTTPResponse refused = door.call(Operation.REGISTER_GAME_SERVER, mine, registration(MINE, "10.0.3.7:7777"));
        assertThat(refused.getStatusCode()).isEqualTo(429);
        assertThat(door.errorType(refused)).isEqualTo("ThrottlingException");
        assertThat(door.message(refused)).startsWith("instance " + MINE + " sent more registrations than its fair share"
                + " of the stage's throttle (16 at once, then ");
        assertThat(stored()).isEmpty();
        // The other instance, and an administrator, are not held by this one's share.
        ok(door, door.call(Operation.REGISTER_GAME_SERVER, session(Role.GAME_SERVER, OTHER), registration(OTHER, "10.0.3.8:7777")));
        ok(door, door.call(Operation.REGISTER_GAME_SERVER, session(Role.ADMIN, "ops"), registration(MINE, "10.0.3.7:7777")));
    }
}

package io.gamefleet.local;

import static io.gamefleet.local.GamefleetClient.groupBody;
import static io.gamefleet.local.GamefleetClient.obj;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.local.GamefleetClient.Response;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A standby buffer end to end (HTTP with SigV4, the functions on dynoxide, the simulated fleet):
 * put and read over the routes, then kept through a burst of sessions by balancer runs, each new
 * instance's servers registered as its agent would register them.
 */
class StandbyOnLocalProfileTest {
    private static final String GROUP = "standby";
    private static final int SERVERS_PER_INSTANCE = 4;

    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension()
            .localOnly("balancer runs on demand on the simulated fleet, whose instances' servers the test registers");

    private final GamefleetClient admin = LOCAL.admin();
    private final GamefleetClient matchmaker = LOCAL.matchmaker();
    private final Set<String> served = new HashSet<>();

    private static String standby() {
        return GamefleetClient.groupPath(GROUP) + "/standby";
    }

    /** What each new instance's agent does: registers its servers. */
    private void agentsRegister() {
        for (String instance : instances()) {
            if (served.add(instance)) {
                for (int n = 0; n < SERVERS_PER_INSTANCE; n++) {
                    admin.register(GROUP, instance + "-" + n, instance).ok();
                }
            }
        }
    }

    /** The scaling group's instances (Gamefleet records a new one at its first registration). */
    private List<String> instances() {
        return instances(GROUP);
    }

    private static List<String> instances(String group) {
        return LOCAL.profile().fleet().describeScalingGroup("gamefleet-" + group).orElseThrow().instances().stream()
                .map(ComputeInstance::instanceId).toList();
    }

    private void balance() {
        awaitStandbyRequests();
        LOCAL.profile().services().balancer().runAll();
    }

    /** The evaluations the sessions asked for (asynchronous invocations of the balancer), run. */
    private static void awaitStandbyRequests() {
        try {
            assertThat(LOCAL.profile().awaitLambdaEvents(Duration.ofSeconds(30))).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private int desiredCapacity(String group) {
        return LOCAL.profile().fleet().describeScalingGroup("gamefleet-" + group).orElseThrow().desiredCapacity();
    }

    private long standingBy() {
        return admin.listAll(GamefleetClient.groupPath(GROUP) + "/game-servers", "GameServers", 100).stream()
                .filter(s -> s.get("UtilizationStatus").asText().equals("AVAILABLE") && !s.has("ClaimStatus"))
                .count();
    }

    @Test
    void aBufferOfTenIsKeptThroughABurstOfSessions() {
        admin.createActive(groupBody(GROUP, 1, 10));
        agentsRegister();
        JsonNode put = admin.call("PUT", standby(), obj().put("StandingBy", 10)).ok().body().get("StandbyPolicy");
        assertThat(put.get("StandingBy").asInt()).isEqualTo(10);

        balance();
        agentsRegister();
        assertThat(instances()).hasSize(3); // ceil(10 / 4)
        assertThat(standingBy()).isEqualTo(12);

        for (int burst = 0; burst < 3; burst++) {
            for (int n = 0; n < 8; n++) {
                matchmaker.call("POST", GamefleetClient.groupPath(GROUP) + "/sessions",
                        obj().put("SessionId", UUID.randomUUID().toString())).ok();
            }
            assertThat(standingBy()).isLessThan(10);
            // One balancer run and one instance launch (instances are in service at once here) refill it.
            balance();
            agentsRegister();
            assertThat(standingBy()).as("after burst %d", burst).isGreaterThanOrEqualTo(10);
        }
        JsonNode last = matchmaker.call("GET", standby()).ok().body().get("StandbyPolicy").get("LastEvaluation");
        assertThat(last.get("InUse").asInt()).isEqualTo(24);
        assertThat(last.get("TargetStandingBy").asInt()).isEqualTo(10);
        assertThat(last.get("ServersPerInstance").asInt()).isEqualTo(SERVERS_PER_INSTANCE);
        assertThat(last.get("DesiredCapacity").asInt()).isEqualTo(9); // ceil((24 + 10) / 4)
    }

    @Test
    void aBurstOfSessionsRaisesCapacityBeforeTheBalancersNextRun() {
        String group = GROUP + "-early";
        admin.createActive(groupBody(group, 1, 10));
        String instance = instances(group).get(0);
        for (int n = 0; n < SERVERS_PER_INSTANCE; n++) {
            admin.register(group, instance + "-" + n, instance).ok();
        }
        admin.call("PUT", GamefleetClient.groupPath(group) + "/standby", obj().put("StandingBy", 2)).ok();
        assertThat(desiredCapacity(group)).isEqualTo(1);

        // A session every 5 s: each asks, and each request's evaluation is made (one in 5 s at most).
        for (int n = 0; n < 3; n++) {
            LOCAL.clock().advance(Duration.ofSeconds(5));
            matchmaker.call("POST", GamefleetClient.groupPath(group) + "/sessions",
                    obj().put("SessionId", UUID.randomUUID().toString())).ok();
            awaitStandbyRequests();
        }

        // (3 in use + 2) / 4: the sessions' own request raised it, with no balancer run.
        assertThat(desiredCapacity(group)).isEqualTo(2);
    }

    @Test
    void badInputIsA400NamingTheMemberAndAMatchmakerMayOnlyRead() {
        admin.createActive(groupBody(GROUP + "-refusals", 1, 2));
        String path = GamefleetClient.groupPath(GROUP + "-refusals") + "/standby";
        ObjectNode body = obj().put("StandingBy", 2);
        ArrayNode schedule = body.putArray("Schedule");
        schedule.addObject().put("Start", 100).put("End", 200).put("StandingBy", 1);
        schedule.addObject().put("Start", 150).put("End", 300).put("StandingBy", 1);
        Response overlapping = admin.call("PUT", path, body);
        assertThat(overlapping.status()).isEqualTo(400);
        assertThat(overlapping.body().get("Message").asText()).isEqualTo("Schedule[1] overlaps Schedule[0]");
        assertThat(matchmaker.call("PUT", path, obj().put("StandingBy", 2)).status()).isEqualTo(403);
        assertThat(matchmaker.call("GET", path).ok().body().get("StandbyPolicy").get("StandingBy").asInt()).isZero();
        assertThat(admin.call("GET", path).ok().body().get("StandbyPolicy").get("Dynamic")).isEmpty();
    }
}

package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.catalog.Lifetimes;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.catalog.Triggers;
import io.gamefleet.domain.Compute;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.InstanceStatus;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code local/run --max-instance-lifetime 4m --guaranteed-server-lifetime 2m} on the profile's
 * movable clock: an instance is DRAINING two minutes after its launch and takes no claim, its
 * push connection gets the retiring notice at each balancer run, and it is replaced at four
 * minutes, by the simulated fleet (Auto Scaling's MaxInstanceLifetime) or, protected, by the
 * balancer. And the processes a health report carries: the ADMIN's route, and the metrics.
 */
class InstanceLifetimeOnLocalProfileTest {
    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension()
            .withLifetime(new Lifetimes(Duration.ofMinutes(4), Duration.ofMinutes(2)))
            .localOnly("a clock the test moves through an instance's lifetime, and its simulated fleet");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WITHIN = Duration.ofSeconds(5);

    private final GamefleetClient admin = LOCAL.admin();
    private final GamefleetClient matchmaker = LOCAL.matchmaker();

    private static GameServerInstance recorded(String group, String instanceId) {
        return LOCAL.profile().services().groups().describeInstances(group, Optional.of(List.of(instanceId)), 10,
                Optional.empty()).items().get(0);
    }

    private String status(String group, String instanceId) {
        return admin.describeInstances(group, GamefleetClient.query("InstanceIds", instanceId)).ok().body()
                .findValue("InstanceStatus").asText();
    }

    private static void balance() {
        LOCAL.profile().runSchedule(Triggers.BALANCER.name());
    }

    private static PushClient agentOf(String group, String instanceId) throws Exception {
        return PushClient.connect(LOCAL.profile().endpoint(), LocalProfileExtension.ADMIN, LOCAL.signingClock(), group,
                instanceId).client();
    }

    /** Health for the servers, with a 10-minute lease, and a ping whose pong says the report was taken. */
    private static void reportHealth(PushClient agent, String group, String... ids) throws Exception {
        StringBuilder servers = new StringBuilder();
        for (String id : ids) {
            servers.append(servers.isEmpty() ? "" : ",").append("{\"gameServerId\":\"").append(id)
                    .append("\",\"healthCheck\":\"HEALTHY\"}");
        }
        agent.send("{\"action\":\"health\",\"gameServerGroupName\":\"" + group + "\",\"gameServers\":[" + servers + "]}");
        agent.send("{\"action\":\"ping\"}");
        assertThat(agent.next(WITHIN)).isEqualTo("{\"action\":\"pong\"}");
    }

    @Test
    void anInstanceRetiresAtTwoMinutesTakesNoClaimIsToldSoAtEachRunAndIsReplacedAtFour() throws Exception {
        String group = "aging";
        admin.createActive(GamefleetClient.groupBody(group, 1, 2));
        String old = admin.firstInstance(group);
        Instant launched = recorded(group, old).launchTime();
        admin.register(group, "aging-1", old).ok();
        admin.register(group, "aging-2", old).ok();
        try (PushClient agent = agentOf(group, old)) {
            reportHealth(agent, group, "aging-1", "aging-2");

            LOCAL.clock().set(launched.plus(Duration.ofMinutes(2)).minusSeconds(1));
            assertThat(status(group, old)).isEqualTo("ACTIVE");
            LOCAL.clock().set(launched.plus(Duration.ofMinutes(2)));
            assertThat(status(group, old)).as("before any balancer run").isEqualTo("DRAINING");
            matchmaker.claim(group, GamefleetClient.obj().put("GameServerId", "aging-1")).error(409, "ConflictException");
            matchmaker.claim(group).error(409, "OutOfCapacityException");

            balance();
            assertThat(recorded(group, old).instanceStatus()).isEqualTo(InstanceStatus.DRAINING);
            JsonNode notice = JSON.readTree(agent.next(WITHIN));
            assertThat(notice.path("action").asText()).isEqualTo(PushChannel.RETIRING);
            assertThat(notice.path("gameServerGroupName").asText()).isEqualTo(group);
            assertThat(notice.path(PushChannel.INSTANCE_ID).asText()).isEqualTo(old);
            assertThat(Instant.parse(notice.path(PushChannel.RETIRES_AT).asText()))
                    .isEqualTo(launched.plus(Duration.ofMinutes(4)));
            assertThat(notice.path(PushChannel.REASON).asText()).isEqualTo(PushChannel.MAX_INSTANCE_LIFETIME);
            matchmaker.claim(group).error(409, "OutOfCapacityException");

            LOCAL.clock().advance(Duration.ofMinutes(1));
            balance();
            assertThat(JSON.readTree(agent.next(WITHIN)).path("action").asText()).as("again, at the next run")
                    .isEqualTo(PushChannel.RETIRING);

            // Unprotected, it is Auto Scaling's (here the simulated fleet's) to replace at its end.
            LOCAL.clock().set(launched.plus(Duration.ofMinutes(4)));
            LOCAL.profile().fleet().tick();
        }
        assertThat(LOCAL.profile().fleet().instance(old)).isEmpty();
        List<String> now = LOCAL.profile().fleet().instancesOf(group).stream()
                .map(Compute.ComputeInstance::instanceId).toList();
        assertThat(now).as("replaced: desired capacity kept").hasSize(1).doesNotContain(old);
        balance();
        assertThat(admin.instanceIds(group)).containsExactly(now.get(0));
        assertThat(status(group, now.get(0))).isEqualTo("ACTIVE");
        assertThat(admin.describeServer(group, "aging-1").status()).as("its servers went with it").isEqualTo(404);
    }

    /** Auto Scaling passes over a protected instance at its end: the balancer ends it, its match with it. */
    @Test
    void aProtectedInstanceWithAMatchIsEndedByTheBalancerAtItsEnd() throws Exception {
        String group = "kept";
        admin.createActive(GamefleetClient.groupBody(group, 1, 2).put("GameServerProtectionPolicy", "FULL_PROTECTION"));
        String old = admin.firstInstance(group);
        Instant launched = recorded(group, old).launchTime();
        admin.register(group, "kept-1", old).ok();
        try (PushClient agent = agentOf(group, old)) {
            reportHealth(agent, group, "kept-1");
            matchmaker.claim(group, GamefleetClient.obj().put("GameServerId", "kept-1")).ok();
            admin.setUtilized(group, "kept-1").ok();
            balance();
            assertThat(LOCAL.profile().fleet().instancesOf(group)).singleElement()
                    .extracting(Compute.ComputeInstance::protectedFromScaleIn).isEqualTo(true);

            LOCAL.clock().set(launched.plus(Duration.ofMinutes(4)));
            LOCAL.profile().fleet().tick();
            assertThat(LOCAL.profile().fleet().instance(old)).as("protected: the fleet passes it over").isPresent();
            balance();
        }
        assertThat(LOCAL.profile().fleet().instance(old)).as("ended by the balancer").isEmpty();
        assertThat(LOCAL.profile().fleet().instancesOf(group)).as("and replaced").hasSize(1);
    }

    /** A report's processes: stored, read by an ADMIN through Gamefleet's own route, counted in the metrics. */
    @Test
    void aReportedProcessIsReadThroughTheAdminsRouteAndCountedInTheMetrics() throws Exception {
        String group = "watched";
        admin.createActive(GamefleetClient.groupBody(group, 1, 1));
        String instance = admin.firstInstance(group);
        admin.register(group, "watched-1", instance).ok();
        try (PushClient agent = agentOf(group, instance)) {
            agent.send("{\"action\":\"health\",\"gameServerGroupName\":\"" + group + "\",\"gameServers\":["
                    + "{\"gameServerId\":\"watched-1\",\"healthCheck\":\"HEALTHY\",\"process\":{\"state\":\"Active\","
                    + "\"connectedPlayers\":3,\"playerIds\":[\"p1\",\"p2\"],\"crashes\":1,\"startTimeouts\":0,"
                    + "\"lastExitCode\":139}}],\"processEvents\":{\"crashes\":1,\"startTimeouts\":2}}");
            agent.send("{\"action\":\"ping\"}");
            assertThat(agent.next(WITHIN)).as("the report was taken").isEqualTo("{\"action\":\"pong\"}");
        }
        String route = GamefleetClient.serverPath(group, "watched-1") + "/process";
        JsonNode process = admin.call("GET", route).ok().body().get("GameServerProcess");
        assertThat(process.path("InstanceId").asText()).isEqualTo(instance);
        assertThat(process.path("State").asText()).isEqualTo("Active");
        assertThat(process.path("ConnectedPlayers").asInt()).isEqualTo(3);
        assertThat(process.path("PlayerIds").toString()).isEqualTo("[\"p1\",\"p2\"]");
        assertThat(process.path("LastExitCode").asInt()).isEqualTo(139);
        matchmaker.call("GET", route).error(403, "UnauthorizedException");
        admin.call("GET", GamefleetClient.serverPath(group, "watched-404") + "/process").error(404, "NotFoundException");

        balance();
        List<JsonNode> lines = Files.readAllLines(LOCAL.profile().logsDirectory().resolve("metrics.log")).stream()
                .map(GamefleetClient::parse).map(JsonNode.class::cast).toList();
        assertThat(lines).anySatisfy(l -> {
            assertThat(l.path("GameServerGroup").asText()).isEqualTo(group);
            assertThat(l.path("ActiveGameServers").asDouble()).isEqualTo(1);
            assertThat(l.path("ConnectedPlayers").asDouble()).isEqualTo(3);
        });
        assertThat(lines).anySatisfy(l -> {
            assertThat(l.path("GameServerGroup").asText()).isEqualTo(group);
            assertThat(l.path("CrashedProcesses").asDouble()).isEqualTo(1);
            assertThat(l.path("StartTimeouts").asDouble()).isEqualTo(2);
        });
    }
}

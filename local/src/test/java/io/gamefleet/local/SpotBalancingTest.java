package io.gamefleet.local;

import static io.gamefleet.local.GamefleetClient.WORKFLOW;
import static io.gamefleet.local.GamefleetClient.obj;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.Compute.ScalingGroupState;
import io.gamefleet.domain.InstanceDefinition;
import io.gamefleet.domain.SpotBalancer.GroupReport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The spot balancer on the local profile, driven by moving the clock and running the schedule
 * by hand: FleetIQ's worked example (m4.large, c4.large, c5.large), claims around DRAINING and
 * SPOT_TERMINATING instances, suspension, the health sweep and the metrics' counts.
 */
class SpotBalancingTest {
    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension()
            .localOnly("Spot interruptions of its simulated fleet, a clock the test moves and balancer runs on demand");

    private final GamefleetClient admin = LOCAL.admin();
    private final GamefleetClient matchmaker = LOCAL.matchmaker();

    /** A group over c4, m4 and c5 (launched in that rotation), with protection, ACTIVE. */
    private String activeGroup(String name, int instances, String protection) {
        ObjectNode body = GamefleetClient.groupBody(name, instances, 12);
        ArrayNode defs = body.putArray("InstanceDefinitions");
        defs.addObject().put("InstanceType", "c4.large");
        defs.addObject().put("InstanceType", "m4.large");
        defs.addObject().put("InstanceType", "c5.large");
        body.put("GameServerProtectionPolicy", protection);
        admin.createActive(body);
        return name;
    }

    private ScalingGroupState scaling(String group) {
        return LOCAL.profile().fleet().describeScalingGroup("gamefleet-" + group).orElseThrow();
    }

    private static List<String> types(ScalingGroupState scaling) {
        return scaling.instanceTypes().stream().map(InstanceDefinition::instanceType).toList();
    }

    /** Instance ids by type, in launch order. */
    private Map<String, List<String>> byType(String group) {
        return scaling(group).instances().stream().collect(Collectors.groupingBy(ComputeInstance::instanceType,
                LinkedHashMap::new, Collectors.mapping(ComputeInstance::instanceId, Collectors.toList())));
    }

    private Map<String, String> instanceStatuses(String group) {
        Map<String, String> statuses = new LinkedHashMap<>();
        for (JsonNode i : admin.describeInstances(group, "").ok().body().get("GameServerInstances")) {
            statuses.put(i.get("InstanceId").asText(), i.get("InstanceStatus").asText());
        }
        return statuses;
    }

    private GroupReport balance(String group) {
        return LOCAL.profile().services().balancer().runAll().stream()
                .filter(r -> r.group().equals(group)).findFirst().orElseThrow();
    }

    /**
     * Desired capacity less the instances leaving: draining ones, and interrupted ones, whose
     * replacement started at their warning (MaxSize is far off here).
     */
    private static int servingCapacity(ScalingGroupState s, Map<String, String> statuses) {
        long leaving = statuses.values().stream().filter(st -> st.equals("DRAINING") || st.equals("SPOT_TERMINATING")).count();
        return s.desiredCapacity() - (int) leaving;
    }

    @Test
    void theWorkedExample() {
        String g = activeGroup("worked", 7, "FULL_PROTECTION");
        Map<String, List<String>> types = byType(g);
        assertThat(types.get("c4.large")).hasSize(3);
        String c4Playing = types.get("c4.large").get(0);
        String c4Idle = types.get("c4.large").get(1);
        String c4Interrupted = types.get("c4.large").get(2);
        String m4Playing = types.get("m4.large").get(0);
        String m4Idle = types.get("m4.large").get(1);
        String c5a = types.get("c5.large").get(0);
        String c5b = types.get("c5.large").get(1);

        // Step 1: a game server on each instance of the balanced set; four of them in play.
        Map<String, String> serverOn = new LinkedHashMap<>();
        for (String instance : List.of(m4Playing, m4Idle, c4Playing, c4Idle, c5a, c5b)) {
            String id = "w-" + instance;
            admin.register(g, id, instance).ok();
            serverOn.put(instance, id);
        }
        for (String instance : List.of(m4Playing, c4Playing, c5a, c5b)) {
            admin.setUtilized(g, serverOn.get(instance)).ok();
        }
        GroupReport first = balance(g);
        assertThat(first.drained()).isEmpty();
        assertThat(first.counts().utilized()).isEqualTo(4);
        assertThat(first.counts().available()).isEqualTo(2);
        assertThat(first.counts().percentUtilized()).isCloseTo(66.7, org.assertj.core.data.Offset.offset(0.1));
        assertThat(scaling(g).instances()).filteredOn(ComputeInstance::protectedFromScaleIn)
                .extracting(ComputeInstance::instanceId).containsExactlyInAnyOrder(m4Playing, c4Playing, c5a, c5b);
        int serving = servingCapacity(scaling(g), instanceStatuses(g));
        assertThat(serving).isEqualTo(7);

        // A Spot interruption of a c4.large: its instance becomes SPOT_TERMINATING at once.
        LOCAL.profile().fleet().interrupt(c4Interrupted);
        assertThat(instanceStatuses(g)).containsEntry(c4Interrupted, "SPOT_TERMINATING");

        // Step 2 and 3: c4.large is not viable: it leaves the instance types, its instances drain,
        // replacements launch.
        GroupReport drained = balance(g);
        assertThat(drained.nonViableTypes()).containsExactly("c4.large");
        assertThat(types(scaling(g))).containsExactly("m4.large", "c5.large");
        assertThat(drained.drained()).containsExactlyInAnyOrder(c4Playing, c4Idle);
        assertThat(instanceStatuses(g)).containsEntry(c4Playing, "DRAINING").containsEntry(c4Idle, "DRAINING");
        assertThat(admin.describeServer(g, serverOn.get(c4Idle)).ok().server().get("InstanceStatus").asText())
                .isEqualTo("DRAINING");
        assertThat(drained.counts().drainingUtilized()).isEqualTo(1);
        assertThat(drained.counts().drainingAvailable()).isEqualTo(1);
        assertThat(servingCapacity(scaling(g), instanceStatuses(g))).isEqualTo(serving);
        assertThat(scaling(g).instances()).filteredOn(i -> i.instanceType().equals("c4.large")).hasSize(3);

        // The interrupted instance ends two minutes later; nothing of c4.large is launched again.
        LOCAL.clock().advance(Duration.ofMinutes(2));
        LOCAL.profile().fleet().tick();
        assertThat(instanceStatuses(g)).doesNotContainKey(c4Interrupted);

        // Step 4: replacements are in service: the idle, unprotected c4 is terminated first.
        GroupReport step4 = balance(g);
        assertThat(step4.terminated()).containsExactly(c4Idle);
        assertThat(instanceStatuses(g)).doesNotContainKey(c4Idle).containsEntry(c4Playing, "DRAINING");
        admin.describeServer(g, serverOn.get(c4Idle)).error(404, "NotFoundException");
        assertThat(servingCapacity(scaling(g), instanceStatuses(g))).isEqualTo(serving);

        // Step 5: the protected c4 runs while its game goes on...
        assertThat(balance(g).terminated()).isEmpty();
        assertThat(scaling(g).instances()).extracting(ComputeInstance::instanceId).contains(c4Playing);
        // ...and ends once the game is over.
        admin.deregister(g, serverOn.get(c4Playing)).ok();
        GroupReport step5 = balance(g);
        assertThat(step5.terminated()).containsExactly(c4Playing);
        assertThat(scaling(g).instances()).noneMatch(i -> i.instanceType().equals("c4.large"));
        assertThat(servingCapacity(scaling(g), instanceStatuses(g))).isEqualTo(serving);
        assertThat(scaling(g).instances()).hasSize(serving);

        // c4.large returns once its interruption has left the viability window (an hour).
        LOCAL.clock().advance(Duration.ofMinutes(61));
        for (String instance : List.of(m4Playing, m4Idle, c5a, c5b)) { // the servers left: c4's went with it
            admin.updateServer(g, serverOn.get(instance), obj().put("HealthCheck", "HEALTHY")).ok();
        }
        GroupReport viableAgain = balance(g);
        assertThat(viableAgain.nonViableTypes()).isEmpty();
        assertThat(viableAgain.swept()).isZero();
        assertThat(types(scaling(g))).containsExactly("c4.large", "m4.large", "c5.large");
    }

    @Test
    void claimsPreferActiveInstancesFallBackToDrainingAndNeverUseSpotTerminating() {
        String g = activeGroup("claims", 4, "NO_PROTECTION");
        Map<String, List<String>> types = byType(g);
        String c4 = types.get("c4.large").get(0);
        String c4Second = types.get("c4.large").get(1);
        String m4 = types.get("m4.large").get(0);
        String c5 = types.get("c5.large").get(0);
        admin.register(g, "on-c4", c4).ok();
        admin.register(g, "on-m4", m4).ok();
        admin.register(g, "on-c5", c5).ok();

        LOCAL.profile().fleet().interrupt(c5);
        assertThat(admin.describeServer(g, "on-c5").ok().server().get("InstanceStatus").asText())
                .isEqualTo("SPOT_TERMINATING");
        // c4.large is interrupted too, the event sent over HTTP as EventBridge would: its other instance drains.
        postEvent(interruptionWarning(c4Second));
        balance(g);
        assertThat(instanceStatuses(g)).containsEntry(c4, "DRAINING").containsEntry(m4, "ACTIVE");

        // The ACTIVE instance's server comes first...
        assertThat(matchmaker.claim(g).ok().serverId()).isEqualTo("on-m4");
        // ...then the DRAINING one as a last resort, unless the filter asks for ACTIVE only.
        matchmaker.claim(g, obj().set("FilterOption", obj().set("InstanceStatuses",
                GamefleetClient.JSON.createArrayNode().add("ACTIVE")))).error(409, "OutOfCapacityException");
        assertThat(matchmaker.claim(g).ok().serverId()).isEqualTo("on-c4");
        // Never the SPOT_TERMINATING one, named or not.
        matchmaker.claim(g).error(409, "OutOfCapacityException");
        matchmaker.claim(g, obj().put("GameServerId", "on-c5")).error(409, "ConflictException");
    }

    @Test
    void suspensionStopsTypeReplacementButNotProtectionOrMetrics() {
        String g = activeGroup("suspended", 3, "FULL_PROTECTION");
        Map<String, List<String>> types = byType(g);
        String c4 = types.get("c4.large").get(0);
        String m4 = types.get("m4.large").get(0);
        admin.register(g, "s-m4", m4).ok();
        admin.setUtilized(g, "s-m4").ok();
        admin.suspend(g, "REPLACE_INSTANCE_TYPES").ok();
        LOCAL.profile().fleet().interrupt(types.get("c5.large").get(0));
        GroupReport report = balance(g);
        assertThat(report.nonViableTypes()).isEmpty();
        assertThat(report.drained()).isEmpty();
        assertThat(types(scaling(g))).containsExactly("c4.large", "m4.large", "c5.large");
        assertThat(scaling(g).instances()).filteredOn(ComputeInstance::protectedFromScaleIn)
                .extracting(ComputeInstance::instanceId).containsExactly(m4);
        assertThat(report.counts().utilized()).isEqualTo(1);
        assertThat(instanceStatuses(g)).containsEntry(c4, "ACTIVE");

        admin.resume(g, "REPLACE_INSTANCE_TYPES").ok();
        assertThat(balance(g).nonViableTypes()).containsExactly("c5.large");
    }

    @Test
    void anUpdateOfTheDefinitionsReachesTheScalingGroupAtTheNextRun() {
        String g = activeGroup("reweighted", 1, "NO_PROTECTION");
        ObjectNode change = GamefleetClient.obj();
        change.putArray("InstanceDefinitions").add(GamefleetClient.obj().put("InstanceType", "c4.large").put("WeightedCapacity", "2"))
                .add(GamefleetClient.obj().put("InstanceType", "r5.large"));
        admin.updateGroup(g, change).ok();
        balance(g);
        assertThat(scaling(g).instanceTypes()).containsExactly(new InstanceDefinition("c4.large", "2"),
                new InstanceDefinition("r5.large", null));
    }

    @Test
    void aServerRegistersOnAnInstanceLaunchedSinceActivation() {
        String g = activeGroup("grown", 1, "NO_PROTECTION");
        LOCAL.profile().fleet().setDesiredCapacity("gamefleet-" + g, 2); // as target tracking would
        String launched = scaling(g).instances().get(1).instanceId();
        assertThat(instanceStatuses(g)).doesNotContainKey(launched);
        admin.register(g, "on-new", launched).ok();
        assertThat(instanceStatuses(g)).containsEntry(launched, "ACTIVE");
        admin.register(g, "nowhere", "i-0123456789abcdef0").error(400, "InvalidRequestException");
    }

    @Test
    void aSafeDeleteEndsProtectedInstancesOnceTheirGamesAreOver() {
        String g = activeGroup("protected-delete", 2, "FULL_PROTECTION");
        String instance = scaling(g).instances().get(0).instanceId();
        admin.register(g, "pd-1", instance).ok();
        admin.setUtilized(g, "pd-1").ok();
        balance(g);
        assertThat(scaling(g).instances()).filteredOn(ComputeInstance::protectedFromScaleIn).hasSize(1);
        admin.deleteGroup(g, "SAFE_DELETE").ok();
        admin.deregister(g, "pd-1").ok(); // the game ends
        assertThat(admin.awaitGroup(g, Set.of("DELETED", "ERROR"), WORKFLOW).get("Status").asText()).isEqualTo("DELETED");
        assertThat(LOCAL.profile().fleet().describeScalingGroup("gamefleet-" + g)).isEmpty();
    }

    @Test
    void theFleetFollowsTargetTrackingOnPercentUtilized() {
        ObjectNode body = GamefleetClient.groupBody("tracked", 2, 6);
        body.putObject("AutoScalingPolicy").putObject("TargetTrackingConfiguration").put("TargetValue", 50);
        admin.createActive(body);
        List<ComputeInstance> two = scaling("tracked").instances();
        for (int i = 0; i < 4; i++) {
            admin.register("tracked", "t-" + i, two.get(i % 2).instanceId()).ok();
            admin.setUtilized("tracked", "t-" + i).ok();
        }
        // 100 % utilized against a 50 % target: twice the capacity.
        assertThat(balance("tracked").counts().percentUtilized()).isEqualTo(100.0);
        assertThat(scaling("tracked").desiredCapacity()).isEqualTo(4);
        assertThat(scaling("tracked").instances()).hasSize(4);

        // The games end: back to MinSize. The instances scaled in are gone from Gamefleet's records
        // in the same run, by their EC2 termination events, not one run later.
        for (int i = 0; i < 4; i++) {
            admin.deregister("tracked", "t-" + i).ok();
        }
        balance("tracked");
        assertThat(scaling("tracked").instances()).hasSize(2);
        assertThat(instanceStatuses("tracked").keySet()).containsExactlyInAnyOrderElementsOf(
                scaling("tracked").instances().stream().map(ComputeInstance::instanceId).toList());
    }

    @Test
    void theSweepDeregistersServersWithoutHeartbeat() {
        String g = activeGroup("sweep", 1, "NO_PROTECTION");
        String instance = scaling(g).instances().get(0).instanceId();
        admin.register(g, "quiet", instance).ok();
        admin.register(g, "beating", instance).ok();
        LOCAL.clock().advance(Duration.ofSeconds(120));
        admin.updateServer(g, "beating", obj().put("HealthCheck", "HEALTHY")).ok();
        LOCAL.clock().advance(Duration.ofSeconds(61)); // quiet: 181 s without heartbeat; beating: 61 s
        GroupReport report = balance(g);
        assertThat(report.swept()).isEqualTo(1);
        admin.describeServer(g, "quiet").error(404, "NotFoundException");
        admin.describeServer(g, "beating").ok();
        assertThat(report.counts().available()).isEqualTo(1);
    }

    @Test
    void theScheduledFunctionAndTheEventPathRunOverHttp() throws Exception {
        String g = activeGroup("wired", 1, "NO_PROTECTION");
        String instance = scaling(g).instances().get(0).instanceId();
        HttpResponse<String> run = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(LOCAL.profile().endpoint() + "/_local/schedules/RunBalancer"))
                .header("X-Gamefleet-Local-Token", LOCAL.profile().localToken())
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(run.statusCode()).isEqualTo(200);
        assertThat(GamefleetClient.JSON.readTree(run.body()).get("Groups").asInt()).isPositive();
        HttpResponse<String> unknown = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(LOCAL.profile().endpoint() + "/_local/schedules/RunNothing"))
                .header("X-Gamefleet-Local-Token", LOCAL.profile().localToken())
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(404);
        assertThat(unknown.body()).contains("RunBalancer");
        HttpResponse<String> notAnEvent = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(LOCAL.profile().endpoint() + "/_local/events"))
                .header("X-Gamefleet-Local-Token", LOCAL.profile().localToken())
                .POST(HttpRequest.BodyPublishers.ofString("[1]")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(notAnEvent.statusCode()).as(notAnEvent.body()).isEqualTo(400);

        JsonNode matched = postEvent(stateChange(instance, "terminated"));
        assertThat(matched.get("Matched").asInt()).isEqualTo(1);
        assertThat(instanceStatuses(g)).doesNotContainKey(instance);
        JsonNode unrelated = postEvent(obj().put("source", "aws.s3").put("detail-type", "Object Created"));
        assertThat(unrelated.get("Matched").asInt()).isZero();
        // The rule takes only the state changes the function acts on, and every interruption warning.
        for (String state : List.of("pending", "running", "stopping", "stopped")) {
            assertThat(postEvent(stateChange(instance, state)).get("Matched").asInt()).as(state).isZero();
        }
        assertThat(postEvent(stateChange(instance, "shutting-down")).get("Matched").asInt()).isEqualTo(1);
        assertThat(postEvent(interruptionWarning("i-0123456789abcdef0")).get("Matched").asInt()).isEqualTo(1);
    }

    private static ObjectNode interruptionWarning(String instanceId) {
        ObjectNode e = obj().put("source", "aws.ec2").put("detail-type", "EC2 Spot Instance Interruption Warning");
        e.putObject("detail").put("instance-id", instanceId).put("instance-action", "terminate");
        return e;
    }

    private static ObjectNode stateChange(String instanceId, String state) {
        ObjectNode e = obj().put("source", "aws.ec2").put("detail-type", "EC2 Instance State-change Notification");
        e.putObject("detail").put("instance-id", instanceId).put("state", state);
        return e;
    }

    private static JsonNode postEvent(ObjectNode event) {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create(LOCAL.profile().endpoint() + "/_local/events"))
                .header("X-Gamefleet-Local-Token", LOCAL.profile().localToken())
                    .POST(HttpRequest.BodyPublishers.ofString(event.toString())).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            return GamefleetClient.JSON.readTree(r.body());
        } catch (java.io.IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}

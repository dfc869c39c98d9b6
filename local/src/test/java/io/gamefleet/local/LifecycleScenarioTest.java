package io.gamefleet.local;

import static io.gamefleet.local.GamefleetClient.groupBody;
import static io.gamefleet.local.GamefleetClient.WORKFLOW;
import static io.gamefleet.local.GamefleetClient.obj;
import static io.gamefleet.local.GamefleetClient.query;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.fakes.MutableClock;
import io.gamefleet.local.GamefleetClient.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * The source documents' scenario end to end, through the HTTP API of the local profile: a group
 * comes up, game servers register, get utilized, claimed, released by claim expiry, deregister,
 * and a SAFE_DELETE waits for the last game in progress.
 */
class LifecycleScenarioTest {

    /** Counts the deletion workflow's "any UTILIZED game server left?" queries. */
    private static final RequestGate UTILIZED_COUNTS = new RequestGate(r -> r instanceof QueryRequest q
            && q.select() == Select.COUNT && q.hasExpressionAttributeValues()
            && q.expressionAttributeValues().containsKey(":utilized"));

    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension().withInterceptor(UTILIZED_COUNTS);

    @Test
    void scenario() {
        GamefleetClient admin = LOCAL.admin();
        GamefleetClient matchmaker = LOCAL.matchmaker();
        // The game servers' calls, for instances of random ids: an ADMIN, since a GAME_SERVER caller
        // bound to no instance may not register, update or deregister.
        GamefleetClient gameServer = LOCAL.admin();
        MutableClock clock = LOCAL.clock();
        String g = "arena-eu";
        String arn = "arn:aws:gamelift:us-east-1:000000000000:gameservergroup/" + g;

        // --- the group comes up
        JsonNode created = admin.createGroup(groupBody(g, 2, 4)).ok().group();
        assertThat(created.get("GameServerGroupName").asText()).isEqualTo(g);
        assertThat(created.get("GameServerGroupArn").asText()).isEqualTo(arn);
        assertThat(created.get("Status").asText()).isEqualTo("NEW");
        assertThat(created.get("BalancingStrategy").asText()).isEqualTo("SPOT_PREFERRED");
        assertThat(created.get("GameServerProtectionPolicy").asText()).isEqualTo("NO_PROTECTION");
        assertThat(created.get("SuspendedActions").size()).isZero();
        assertThat(created.get("CreationTime").isNumber()).isTrue();
        assertThat(created.get("CreationTime").decimalValue().movePointRight(3).longValueExact())
                .isEqualTo(clock.instant().toEpochMilli());
        assertThat(created.has("AutoScalingGroupArn")).isFalse();

        JsonNode active = admin.awaitActive(g);
        assertThat(active.has("StatusReason")).isFalse();
        assertThat(active.get("AutoScalingGroupArn").asText()).contains("autoScalingGroupName/gamefleet-" + g);

        // --- its instances: MinSize 2, so two, both in the simulated scaling group
        JsonNode instances = matchmaker.describeInstances(g, "").ok().body().get("GameServerInstances");
        assertThat(instances.size()).isEqualTo(2);
        Set<String> fleetIds = LOCAL.profile().fleet().describeInstances("gamefleet-" + g).stream()
                .map(ComputeInstance::instanceId).collect(Collectors.toSet());
        List<String> instanceIds = new ArrayList<>();
        for (JsonNode i : instances) {
            assertThat(i.get("InstanceId").asText()).matches("^i-[0-9a-f]{17}$");
            assertThat(i.get("InstanceStatus").asText()).isEqualTo("ACTIVE");
            assertThat(i.get("InstanceType").asText()).isIn("c5.large", "m5.large");
            assertThat(i.get("LaunchTime").isNumber()).isTrue();
            assertThat(i.get("GameServerGroupName").asText()).isEqualTo(g);
            assertThat(i.get("GameServerGroupArn").asText()).isEqualTo(arn);
            instanceIds.add(i.get("InstanceId").asText());
        }
        assertThat(new HashSet<>(instanceIds)).isEqualTo(fleetIds);
        // Instance types rotate through the definitions.
        assertThat(instances.findValuesAsText("InstanceType")).containsExactlyInAnyOrder("c5.large", "m5.large");
        String i1 = instanceIds.get(0);
        String i2 = instanceIds.get(1);
        List<JsonNode> paged = admin.listAll(GamefleetClient.groupPath(g) + "/instances", "GameServerInstances", 1);
        assertThat(paged).extracting(i -> i.get("InstanceId").asText()).containsExactlyInAnyOrderElementsOf(instanceIds);
        JsonNode one = admin.describeInstances(g, query("InstanceIds", i2)).ok().body().get("GameServerInstances");
        assertThat(one.findValuesAsText("InstanceId")).containsExactly(i2);

        // --- six game servers register (an instance-unbound GAME_SERVER may use any instance)
        Map<String, String> on = Map.of("A", i1, "B", i2, "C", i1, "D", i2, "E", i1, "F", i2);
        for (String s : List.of("A", "B", "C", "D", "E", "F")) {
            JsonNode server = gameServer.register(g, id(s), on.get(s)).ok().server();
            assertThat(server.get("GameServerId").asText()).isEqualTo(id(s));
            assertThat(server.get("InstanceId").asText()).isEqualTo(on.get(s));
            assertThat(server.get("UtilizationStatus").asText()).isEqualTo("AVAILABLE");
            assertThat(server.get("InstanceStatus").asText()).isEqualTo("ACTIVE");
            assertThat(server.get("ConnectionInfo").asText()).isEqualTo("127.0.0.1:7777");
            assertThat(server.get("GameServerGroupArn").asText()).isEqualTo(arn);
            assertThat(server.has("ClaimStatus")).isFalse();
            assertThat(server.get("LastHealthCheckTime")).isEqualTo(server.get("RegistrationTime"));
        }
        admin.register(g, id("A"), i2).error(409, "ConflictException");
        assertThat(admin.listServers(g, "").ok().body().get("GameServers").size()).isEqualTo(6);

        // --- E and F are in play
        for (String s : List.of("E", "F")) {
            assertThat(gameServer.setUtilized(g, id(s)).ok().server().get("UtilizationStatus").asText())
                    .isEqualTo("UTILIZED");
        }

        // --- four claims get A to D, each once; the fifth finds nothing
        Instant claimedAt = clock.instant();
        Set<String> claimed = claimAll(matchmaker, g, 4);
        assertThat(claimed).containsExactlyInAnyOrder(id("A"), id("B"), id("C"), id("D"));
        matchmaker.claim(g).error(409, "OutOfCapacityException");
        JsonNode a = matchmaker.describeServer(g, id("A")).ok().server();
        assertThat(a.get("ClaimStatus").asText()).isEqualTo("CLAIMED");
        assertThat(a.get("LastClaimTime").decimalValue().movePointRight(3).longValueExact())
                .isEqualTo(claimedAt.toEpochMilli());
        // Named claims say why not.
        matchmaker.claim(g, obj().put("GameServerId", id("A"))).error(409, "ConflictException");
        matchmaker.claim(g, obj().put("GameServerId", id("E"))).error(409, "ConflictException");

        // --- D's game starts: UTILIZED clears the claim
        JsonNode d = gameServer.setUtilized(g, id("D")).ok().server();
        assertThat(d.get("UtilizationStatus").asText()).isEqualTo("UTILIZED");
        assertThat(d.has("ClaimStatus")).as("%s", d).isFalse();
        assertThat(admin.describeServer(g, id("D")).ok().server().has("ClaimStatus")).isFalse();

        // --- the claims on A, B and C lapse after ClaimTtlSeconds (60); health (180 s) still holds
        clock.advance(Duration.ofSeconds(59));
        matchmaker.claim(g).error(409, "OutOfCapacityException");
        clock.advance(Duration.ofSeconds(2));
        JsonNode lapsed = admin.describeServer(g, id("A")).ok().server();
        assertThat(lapsed.has("ClaimStatus")).as("%s", lapsed).isFalse();
        assertThat(lapsed.get("UtilizationStatus").asText()).isEqualTo("AVAILABLE");
        Set<String> reclaimed = claimAll(matchmaker, g, 3);
        assertThat(reclaimed).containsExactlyInAnyOrder(id("A"), id("B"), id("C"));
        matchmaker.claim(g).error(409, "OutOfCapacityException");

        // --- games end: servers deregister and are gone
        for (String s : List.of("A", "B", "C", "D", "F")) {
            Response gone = gameServer.deregister(g, id(s)).ok();
            assertThat(gone.body()).isEqualTo(obj());
            assertThat(gone.raw().strip()).isEqualTo("{}");
            admin.describeServer(g, id(s)).error(404, "NotFoundException");
        }
        admin.deregister(g, id("A")).error(404, "NotFoundException");
        JsonNode left = admin.listServers(g, "").ok().body().get("GameServers");
        assertThat(left.findValuesAsText("GameServerId")).containsExactly(id("E"));

        // --- SAFE_DELETE waits while E is UTILIZED
        int checksBefore = UTILIZED_COUNTS.seen();
        JsonNode scheduled = admin.deleteGroup(g, null).ok().group();
        assertThat(scheduled.get("Status").asText()).isEqualTo("DELETE_SCHEDULED");
        awaitChecks(checksBefore + 3);
        assertThat(admin.describeGroup(g).ok().group().get("Status").asText()).isEqualTo("DELETE_SCHEDULED");
        admin.register(g, id("G"), i1).error(409, "ConflictException");
        matchmaker.claim(g).error(409, "ConflictException");
        admin.updateGroup(g, obj().put("BalancingStrategy", "ON_DEMAND_ONLY")).error(409, "ConflictException");
        admin.deleteGroup(g, "SAFE_DELETE").error(409, "ConflictException"); // FORCE_DELETE would overtake it
        assertThat(admin.describeGroup(g).ok().group().get("Status").asText()).isEqualTo("DELETE_SCHEDULED");

        // --- E's game ends; the deletion goes through
        assertThat(gameServer.deregister(g, id("E")).ok().body()).isEqualTo(obj());
        JsonNode deleted = admin.awaitGroup(g, Set.of("DELETED", "ERROR"), WORKFLOW);
        assertThat(deleted.get("Status").asText()).as("%s", deleted).isEqualTo("DELETED");
        assertThat(admin.describeGroup(arn).ok().group().get("Status").asText()).isEqualTo("DELETED");
        assertThat(LOCAL.profile().fleet().describeInstances("gamefleet-" + g)).isEmpty();
        admin.describeServer(g, id("E")).error(404, "NotFoundException");
        matchmaker.claim(g).error(409, "ConflictException");
    }

    @Test
    void listGameServersSortsAndPages() {
        GamefleetClient admin = LOCAL.admin();
        String g = "sorted";
        String other = "sorted-other";
        admin.createGroup(groupBody(g, 1, 1)).ok();
        admin.createGroup(groupBody(other, 1, 1)).ok();
        admin.awaitActive(g);
        admin.awaitActive(other);
        String instance = admin.firstInstance(g);
        String otherInstance = admin.firstInstance(other);

        List<String> registered = new ArrayList<>();
        for (int n = 1; n <= 7; n++) {
            LOCAL.passTime(Duration.ofSeconds(1));
            admin.register(g, "sorted-" + n, instance).ok();
            registered.add("sorted-" + n);
        }
        admin.register(other, "other-1", otherInstance).ok();
        List<String> descending = new ArrayList<>(registered);
        java.util.Collections.reverse(descending);

        String base = GamefleetClient.groupPath(g) + "/game-servers";
        assertThat(ids(admin.listServers(g, "").ok().body().get("GameServers"))).isEqualTo(registered);
        assertThat(ids(admin.listServers(g, query("SortOrder", "ASCENDING")).ok().body().get("GameServers")))
                .isEqualTo(registered);
        JsonNode desc = admin.listServers(g, query("SortOrder", "DESCENDING")).ok().body().get("GameServers");
        assertThat(ids(desc)).isEqualTo(descending);
        assertThat(desc.findValues("RegistrationTime")).extracting(JsonNode::decimalValue)
                .isSortedAccordingTo(java.util.Comparator.reverseOrder()).doesNotHaveDuplicates();

        for (int limit : List.of(1, 2, 3, 7)) {
            assertThat(ids(admin.listAll(base + "?SortOrder=ASCENDING", "GameServers", limit)))
                    .as("ascending, Limit %d", limit).isEqualTo(registered);
            assertThat(ids(admin.listAll(base + "?SortOrder=DESCENDING", "GameServers", limit)))
                    .as("descending, Limit %d", limit).isEqualTo(descending);
        }

        // NextToken: only a token this very listing issued.
        JsonNode firstAsc = admin.listServers(g, query("SortOrder", "ASCENDING", "Limit", "2")).ok().body();
        String ascToken = firstAsc.get("NextToken").asText();
        JsonNode second = admin.listServers(g, query("SortOrder", "ASCENDING", "Limit", "2", "NextToken", ascToken))
                .ok().body();
        assertThat(ids(second.get("GameServers"))).isEqualTo(registered.subList(2, 4));
        String groupsToken = admin.listGroups(query("Limit", "1")).ok().body().get("NextToken").asText();
        for (String forged : List.of("forged", "Zm9yZ2Vk.Zm9yZ2Vk", "." , tamper(ascToken), groupsToken)) {
            admin.listServers(g, query("SortOrder", "ASCENDING", "NextToken", forged))
                    .error(400, "InvalidRequestException");
        }
        // Replayed against another sort order or another group's listing.
        admin.listServers(g, query("SortOrder", "DESCENDING", "NextToken", ascToken)).error(400, "InvalidRequestException");
        admin.listServers(other, query("SortOrder", "ASCENDING", "NextToken", ascToken))
                .error(400, "InvalidRequestException");
        admin.listGroups(query("NextToken", ascToken)).error(400, "InvalidRequestException");
        assertThat(ids(admin.listServers(other, "").ok().body().get("GameServers"))).containsExactly("other-1");
    }

    @Test
    void serversWithoutHeartbeatAreNotClaimable() {
        GamefleetClient admin = LOCAL.admin();
        GamefleetClient matchmaker = LOCAL.matchmaker();
        MutableClock clock = LOCAL.clock();
        String g = "heartbeats";
        admin.createActive(groupBody(g, 1, 1));
        String instance = admin.firstInstance(g);
        admin.register(g, "beating", instance).ok();
        admin.register(g, "silent", instance).ok();

        // HealthTimeoutSeconds is 180: "beating" reports at +170 s, "silent" never does.
        clock.advance(Duration.ofSeconds(170));
        JsonNode beat = admin.updateServer(g, "beating", obj().put("HealthCheck", "HEALTHY")).ok().server();
        assertThat(beat.get("LastHealthCheckTime").decimalValue().movePointRight(3).longValueExact())
                .isEqualTo(clock.instant().toEpochMilli());
        assertThat(beat.get("LastHealthCheckTime")).isNotEqualTo(beat.get("RegistrationTime"));
        clock.advance(Duration.ofSeconds(11));

        matchmaker.claim(g, obj().put("GameServerId", "silent")).error(409, "ConflictException");
        JsonNode claimed = matchmaker.claim(g, obj().put("GameServerData", "match-42")).ok().server();
        assertThat(claimed.get("GameServerId").asText()).isEqualTo("beating");
        assertThat(claimed.get("GameServerData").asText()).isEqualTo("match-42");
        assertThat(admin.describeServer(g, "beating").ok().server().get("GameServerData").asText()).isEqualTo("match-42");
        matchmaker.claim(g).error(409, "OutOfCapacityException");

        // A late heartbeat makes "silent" claimable again.
        admin.updateServer(g, "silent", obj().put("HealthCheck", "HEALTHY")).ok();
        assertThat(matchmaker.claim(g).ok().serverId()).isEqualTo("silent");
    }

    /** Claims {@code n} times, each must succeed with a live claim; returns the distinct ids. */
    private static Set<String> claimAll(GamefleetClient matchmaker, String group, int n) {
        List<String> ids = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            JsonNode server = matchmaker.claim(group).ok().server();
            assertThat(server.get("ClaimStatus").asText()).isEqualTo("CLAIMED");
            assertThat(server.get("UtilizationStatus").asText()).isEqualTo("AVAILABLE");
            ids.add(server.get("GameServerId").asText());
        }
        assertThat(ids).doesNotHaveDuplicates();
        return new HashSet<>(ids);
    }

    private static void awaitChecks(int atLeast) {
        Instant deadline = Instant.now().plus(WORKFLOW);
        while (UTILIZED_COUNTS.seen() < atLeast) {
            assertThat(Instant.now()).as("the deletion workflow stopped checking for UTILIZED servers")
                    .isBefore(deadline);
            GamefleetClient.pause(20);
        }
    }

    private static List<String> ids(JsonNode servers) {
        return servers.findValuesAsText("GameServerId");
    }

    private static List<String> ids(List<JsonNode> servers) {
        return servers.stream().map(s -> s.get("GameServerId").asText()).toList();
    }

    private static String id(String letter) {
        return "server-" + letter;
    }

    /** The same token with one character of its payload changed. */
    private static String tamper(String token) {
        char c = token.charAt(0);
        return (c == 'A' ? 'B' : 'A') + token.substring(1);
    }
}

package io.gamefleet.local;

import static io.gamefleet.local.GamefleetClient.groupBody;
import static io.gamefleet.local.GamefleetClient.groupPath;
import static io.gamefleet.local.GamefleetClient.obj;
import static io.gamefleet.local.GamefleetClient.parse;
import static io.gamefleet.local.GamefleetClient.query;
import static io.gamefleet.local.GamefleetClient.serverPath;
import static io.gamefleet.local.LocalProfileExtension.MATCHMAKER;
import static io.gamefleet.local.LocalProfileExtension.UNBOUND_GAME_SERVER;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.local.GamefleetClient.Response;
import io.gamefleet.local.edge.Principal;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every operation refuses what docs/api.md says it must refuse, with the right status and
 * {@code __type}, and a refused request changes nothing: the whole stored state (groups, the
 * group's game servers and instances) is read before and after each one and compared.
 * Authentication and authorisation (roles, instance binding) are here too.
 */
class BadInputTest {
    private static final String G = "target";
    private static final String OTHER = "other";
    private static final String GHOST = "ghost";
    private static final String FOREIGN_INSTANCE = "i-0123456789abcdef0";

    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension();

    private static GamefleetClient admin;
    private static String i1;
    private static String i2;
    private static String otherInstance;

    /** Two ACTIVE groups; in G: avail-1 (AVAILABLE, on i1), avail-2 (AVAILABLE, on i2), used-1 (UTILIZED, on i1). */
    @BeforeAll
    static void groups() {
        admin = LOCAL.admin();
        admin.createGroup(groupBody(G, 2, 2)).ok();
        admin.createGroup(groupBody(OTHER, 1, 1)).ok();
        admin.awaitActive(G);
        admin.awaitActive(OTHER);
        List<String> ids = admin.instanceIds(G);
        i1 = ids.get(0);
        i2 = ids.get(1);
        admin.register(G, "avail-1", i1).ok();
        admin.register(G, "avail-2", i2).ok();
        admin.register(G, "used-1", i1).ok();
        admin.setUtilized(G, "used-1").ok();
        otherInstance = admin.firstInstance(OTHER);
        admin.register(OTHER, "elsewhere-1", otherInstance).ok();
    }

    // ------------------------------------------------------------------ helpers

    /**
     * The state as last read; each refused call compares against it. A test that changes the state on
     * purpose calls {@link #changed()}; one that forgets fails loudly rather than passing by mistake.
     */
    private static JsonNode known;

    /** Everything a refused request could have changed: both groups (in the listing), servers, instances. */
    private static JsonNode state() {
        ObjectNode s = obj();
        s.set("groups", admin.listGroups(query("Limit", "100")).ok().body());
        s.set(G + "/servers", admin.listServers(G, query("Limit", "100")).ok().body());
        s.set(G + "/instances", admin.describeInstances(G, query("Limit", "100")).ok().body());
        s.set(OTHER + "/servers", admin.listServers(OTHER, query("Limit", "100")).ok().body());
        return s;
    }

    private static void changed() {
        known = null;
    }

    /** The call is refused as given, its message names what is wrong, and no stored state changed. */
    private static Response refused(Supplier<Response> call, int status, String type, String... mentions) {
        JsonNode before = known != null ? known : state();
        Response r = call.get();
        r.error(status, type);
        for (String m : mentions) {
            assertThat(r.message()).as("message of %s", r).contains(m);
        }
        JsonNode after = state();
        assertThat(after).as("state after %s", r).isEqualTo(before);
        known = after;
        return r;
    }

    /**
     * {@code principal} is refused the call with 403 and nothing changes. Against a deployed API it
     * needs a caller of that role (else it is left out), and IAM words the refusal its own way, so
     * {@code mentions} are checked on the local profile only.
     */
    private static void forbiddenTo(Principal principal, Function<GamefleetClient, Response> call, String... mentions) {
        String[] expected = LOCAL.againstDeployedApi() ? new String[0] : mentions;
        LOCAL.asOnly(principal).ifPresent(c -> refused(() -> call.apply(c), 403, "UnauthorizedException", expected));
    }

    private static Response invalid(Supplier<Response> call, String... mentions) {
        return refused(call, 400, "InvalidRequestException", mentions);
    }

    private static Response invalid(String method, String target, String rawBody, String... mentions) {
        return invalid(() -> admin.callRaw(method, target, rawBody), mentions);
    }

    private static Response invalid(String method, String target, JsonNode body, String... mentions) {
        return invalid(() -> admin.call(method, target, body), mentions);
    }

    private static String repeat(char c, int n) {
        return String.valueOf(c).repeat(n);
    }

    private static ObjectNode with(ObjectNode base, String member, JsonNode value) {
        ObjectNode copy = base.deepCopy();
        copy.set(member, value);
        return copy;
    }

    private static ObjectNode with(ObjectNode base, String member, String value) {
        return base.deepCopy().put(member, value);
    }

    private static ObjectNode with(ObjectNode base, String member, int value) {
        return base.deepCopy().put(member, value);
    }

    private static ObjectNode without(ObjectNode base, String member) {
        ObjectNode copy = base.deepCopy();
        copy.remove(member);
        return copy;
    }

    private static ArrayNode definitions(String... types) {
        ArrayNode a = GamefleetClient.JSON.createArrayNode();
        for (String t : types) {
            a.addObject().put("InstanceType", t);
        }
        return a;
    }

    private static final String MALFORMED = "{\"GameServerId\": \"x\",";
    private static final String GROUPS = "/game-server-groups";

    // ------------------------------------------------------------------ group operations

    @Test
    void createGameServerGroup() {
        ObjectNode ok = groupBody("fresh", 1, 2);
        invalid("POST", GROUPS, MALFORMED, "JSON");
        invalid("POST", GROUPS, "[1, 2]", "object");
        invalid("POST", GROUPS, "", "GameServerGroupName", "required");
        invalid("POST", GROUPS, with(ok, "Bogus", 1), "Bogus");
        invalid("POST", GROUPS, without(ok, "RoleArn"), "RoleArn", "required");
        invalid("POST", GROUPS, without(ok, "InstanceDefinitions"), "InstanceDefinitions", "required");
        invalid("POST", GROUPS, with(ok, "GameServerGroupName", repeat('a', 129)), "GameServerGroupName");
        invalid("POST", GROUPS, with(ok, "GameServerGroupName", ""), "GameServerGroupName");
        invalid("POST", GROUPS, with(ok, "GameServerGroupName", "bad name!"), "GameServerGroupName");
        invalid("POST", GROUPS, with(ok, "RoleArn", "not-a-role"), "RoleArn");
        invalid("POST", GROUPS, with(ok, "BalancingStrategy", "CHEAPEST"), "BalancingStrategy");
        invalid("POST", GROUPS, with(ok, "GameServerProtectionPolicy", "SOME"), "GameServerProtectionPolicy");
        invalid("POST", GROUPS, with(ok, "InstanceDefinitions", definitions("c5.large")), "InstanceDefinitions");
        invalid("POST", GROUPS, with(ok, "InstanceDefinitions", definitions(new String[21])), "InstanceDefinitions");
        invalid("POST", GROUPS, with(ok, "InstanceDefinitions", definitions("c5.large", "z9.mega")),
                "InstanceDefinitions[1].InstanceType");
        invalid("POST", GROUPS, with(ok, "InstanceDefinitions", definitions("c5.large", "c5.large")), "c5.large");
        ObjectNode weighted = with(ok, "InstanceDefinitions", definitions("c5.large", "m5.large"));
        ((ObjectNode) weighted.get("InstanceDefinitions").get(0)).put("WeightedCapacity", "0");
        invalid("POST", GROUPS, weighted, "InstanceDefinitions[0].WeightedCapacity");
        invalid("POST", GROUPS, with(ok, "MinSize", -1), "MinSize");
        invalid("POST", GROUPS, with(ok, "MaxSize", 0), "MaxSize");
        invalid("POST", GROUPS, with(ok, "MinSize", "1"), "MinSize");
        invalid("POST", GROUPS, with(ok, "MinSize", 3), "MinSize");
        invalid("POST", GROUPS, with(ok, "MaxSize", GamefleetClient.JSON.getNodeFactory().numberNode(1.5)), "MaxSize");
        invalid("POST", GROUPS, with(ok, "Tags", GamefleetClient.JSON.nullNode()), "Tags");
        invalid("POST", GROUPS, with(ok, "VpcSubnets", GamefleetClient.JSON.createArrayNode()), "VpcSubnets");
        invalid("POST", GROUPS, with(ok, "LaunchTemplate", parse("{\"LaunchTemplateName\":\"a\"}")),
                "LaunchTemplate.LaunchTemplateName");
        invalid("POST", GROUPS, with(ok, "LaunchTemplate", parse("{\"LaunchTemplateName\":\"arena\",\"LaunchTemplateId\":\"lt-1\"}")),
                "LaunchTemplate");
        invalid("POST", GROUPS, with(ok, "LaunchTemplate", parse("{\"Version\":\"1\"}")), "LaunchTemplate");
        invalid("POST", GROUPS, with(ok, "AutoScalingPolicy", parse("{\"EstimatedInstanceWarmup\":60}")),
                "AutoScalingPolicy.TargetTrackingConfiguration");
        invalid("POST", GROUPS, with(ok, "AutoScalingPolicy",
                parse("{\"TargetTrackingConfiguration\":{\"TargetValue\":-1}}")), "TargetValue");
        forbiddenTo(MATCHMAKER, c -> c.createGroup(ok));
        refused(() -> admin.createGroup(groupBody(G, 1, 1)), 409, "ConflictException", G);
        admin.describeGroup("fresh").error(404, "NotFoundException");
    }

    @Test
    void listAndDescribeGameServerGroups() {
        invalid(() -> admin.listGroups(query("Bogus", "1")), "Bogus");
        invalid(() -> admin.listGroups(query("Limit", "0")), "Limit");
        invalid(() -> admin.listGroups(query("Limit", "101")), "Limit");
        invalid(() -> admin.listGroups(query("Limit", "ten")), "Limit");
        invalid(() -> admin.listGroups(query("NextToken", "Zm9yZ2Vk.Zm9yZ2Vk")), "NextToken");
        invalid(() -> admin.listGroups(query("NextToken", repeat('a', 1025))), "NextToken");
        List<String> listed = admin.listGroups(query("Limit", "100")).ok().body().findValuesAsText("GameServerGroupName");
        assertThat(listed).contains(G, OTHER);
        LOCAL.onLocalProfile(p -> assertThat(listed).hasSize(2)); // a deployed API may hold others
        assertThat(admin.listGroups(query("Limit", "1")).ok().body().get("GameServerGroups").size()).isEqualTo(1);

        refused(() -> admin.describeGroup(GHOST), 404, "NotFoundException", GHOST);
        invalid(() -> admin.call("GET", groupPath(G) + query("Bogus", "1")), "Bogus");
        invalid(() -> admin.describeGroup("bad name!"), "GameServerGroupName");
        invalid(() -> admin.describeGroup(repeat('a', 257)), "GameServerGroupName");
        invalid(() -> admin.describeGroup("arn:aws:gamelift:us-east-1:000000000000:fleet/" + G), "GameServerGroupName");
    }

    @Test
    void updateGameServerGroup() {
        String path = groupPath(G);
        invalid("PATCH", path, MALFORMED, "JSON");
        invalid("PATCH", path, obj().put("Bogus", "x"), "Bogus");
        invalid("PATCH", path, obj().put("BalancingStrategy", "CHEAPEST"), "BalancingStrategy");
        invalid("PATCH", path, obj().put("RoleArn", "arn:aws:iam::000000000000:user/nobody"), "RoleArn");
        invalid("PATCH", path, with(obj(), "InstanceDefinitions", definitions()), "InstanceDefinitions");
        invalid("PATCH", path, with(obj(), "InstanceDefinitions", definitions("c5.large", "c5.large")), "c5.large");
        invalid("PATCH", path, obj().put("GameServerGroupName", OTHER).put("BalancingStrategy", "SPOT_ONLY"),
                "GameServerGroupName");
        refused(() -> admin.updateGroup(GHOST, obj().put("BalancingStrategy", "SPOT_ONLY")), 404, "NotFoundException");
        forbiddenTo(MATCHMAKER, c -> c.updateGroup(G, obj().put("BalancingStrategy", "SPOT_ONLY")));
    }

    @Test
    void deleteGameServerGroup() {
        invalid(() -> admin.deleteGroup(G, "NUKE"), "DeleteOption");
        invalid(() -> admin.call("DELETE", groupPath(G) + query("Bogus", "1")), "Bogus");
        invalid("DELETE", groupPath(G), obj().put("GameServerGroupName", OTHER), "GameServerGroupName");
        refused(() -> admin.deleteGroup(GHOST, null), 404, "NotFoundException");
        forbiddenTo(MATCHMAKER, c -> c.deleteGroup(G, null));
    }

    @Test
    void suspendAndResumeGameServerGroup() {
        for (String op : List.of("suspend", "resume")) {
            String member = op.equals("suspend") ? "SuspendActions" : "ResumeActions";
            String path = groupPath(G) + "/" + op;
            ObjectNode ok = obj();
            ok.putArray(member).add("REPLACE_INSTANCE_TYPES");
            invalid("POST", path, MALFORMED, "JSON");
            invalid("POST", path, with(ok, "Bogus", 1), "Bogus");
            invalid("POST", path, obj(), member, "required");
            invalid("POST", path, with(obj(), member, GamefleetClient.JSON.createArrayNode()), member);
            ObjectNode twice = obj();
            twice.putArray(member).add("REPLACE_INSTANCE_TYPES").add("REPLACE_INSTANCE_TYPES");
            invalid("POST", path, twice, member);
            ObjectNode unknownAction = obj();
            unknownAction.putArray(member).add("TERMINATE_EVERYTHING");
            invalid("POST", path, unknownAction, member + "[0]");
            invalid("POST", path, with(ok, "GameServerGroupName", OTHER), "GameServerGroupName");
            refused(() -> admin.call("POST", groupPath(GHOST) + "/" + op, ok), 404, "NotFoundException");
            forbiddenTo(MATCHMAKER, c -> c.call("POST", path, ok));
        }
    }

    @Test
    void describeGameServerInstances() {
        List<String> many = new ArrayList<>();
        for (int n = 0; n < 21; n++) {
            many.add(String.format("i-%017d", n));
        }
        invalid(() -> admin.describeInstances(G, query("InstanceIds", String.join(",", many))), "InstanceIds");
        invalid(() -> admin.describeInstances(G, query("InstanceIds", "i-short")), "InstanceIds[0]");
        invalid(() -> admin.describeInstances(G, query("InstanceIds", i1 + ",")), "InstanceIds[1]");
        invalid(() -> admin.describeInstances(G, query("Limit", "0")), "Limit");
        invalid(() -> admin.describeInstances(G, query("Limit", "101")), "Limit");
        invalid(() -> admin.describeInstances(G, query("Bogus", "1")), "Bogus");
        invalid(() -> admin.describeInstances(G, query("NextToken", "bm9wZQ.bm9wZQ")), "NextToken");
        String token = admin.describeInstances(G, query("Limit", "1")).ok().body().get("NextToken").asText();
        invalid(() -> admin.describeInstances(OTHER, query("NextToken", token)), "NextToken");
        invalid(() -> admin.describeInstances(G, query("InstanceIds", i1, "NextToken", token)), "NextToken");
        refused(() -> admin.describeInstances(GHOST, ""), 404, "NotFoundException");
        // Ids that are not the group's are left out, as FleetIQ does.
        JsonNode found = admin.describeInstances(G, query("InstanceIds", i2 + "," + FOREIGN_INSTANCE)).ok().body();
        assertThat(found.get("GameServerInstances").findValuesAsText("InstanceId")).containsExactly(i2);
        forbiddenTo(UNBOUND_GAME_SERVER, c -> c.describeInstances(G, ""));
    }

    // ------------------------------------------------------------------ game server operations

    @Test
    void registerGameServer() {
        String path = groupPath(G) + "/game-servers";
        ObjectNode ok = obj().put("GameServerId", "fresh-1").put("InstanceId", i1);
        invalid("POST", path, MALFORMED, "JSON");
        invalid("POST", path, with(ok, "Bogus", 1), "Bogus");
        invalid("POST", path, without(ok, "InstanceId"), "InstanceId", "required");
        invalid("POST", path, without(ok, "GameServerId"), "GameServerId", "required");
        invalid("POST", path, with(ok, "GameServerId", repeat('s', 129)), "GameServerId");
        invalid("POST", path, with(ok, "GameServerId", "ab"), "GameServerId");
        invalid("POST", path, with(ok, "GameServerId", "bad id!"), "GameServerId");
        invalid("POST", path, with(ok, "InstanceId", "i-0123456789abcdefX0"), "InstanceId");
        invalid("POST", path, with(ok, "InstanceId", "x-0123456789abcdef0"), "InstanceId");
        invalid("POST", path, with(ok, "ConnectionInfo", "   "), "ConnectionInfo");
        invalid("POST", path, with(ok, "ConnectionInfo", repeat('c', 513)), "ConnectionInfo");
        invalid("POST", path, with(ok, "GameServerData", repeat('d', 1025)), "GameServerData");
        invalid("POST", path, with(ok, "GameServerData", GamefleetClient.JSON.nullNode()), "GameServerData");
        invalid("POST", path, with(ok, "GameServerGroupName", OTHER), "GameServerGroupName");
        invalid("POST", path, with(ok, "InstanceId", FOREIGN_INSTANCE), FOREIGN_INSTANCE);
        refused(() -> admin.call("POST", groupPath(GHOST) + "/game-servers", ok), 404, "NotFoundException");
        refused(() -> admin.register(G, "avail-1", i2), 409, "ConflictException", "avail-1");
        refused(() -> admin.register(G, "elsewhere-1", i2), 409, "ConflictException", "elsewhere-1");
        forbiddenTo(MATCHMAKER, c -> c.register(G, "fresh-1", i1));

        // Repeating the path's own value is fine.
        JsonNode same = admin.call("POST", path, with(ok, "GameServerGroupName", G)).ok().server();
        assertThat(same.get("GameServerId").asText()).isEqualTo("fresh-1");
        admin.deregister(G, "fresh-1").ok();
        changed();
    }

    @Test
    void listGameServers() {
        invalid(() -> admin.listServers(G, query("SortOrder", "SIDEWAYS")), "SortOrder");
        invalid(() -> admin.listServers(G, query("Limit", "0")), "Limit");
        invalid(() -> admin.listServers(G, query("Limit", "101")), "Limit");
        invalid(() -> admin.listServers(G, query("Limit", "-5")), "Limit");
        invalid(() -> admin.listServers(G, query("Bogus", "1")), "Bogus");
        invalid(() -> admin.listServers(G, query("NextToken", "")), "NextToken");
        invalid(() -> admin.listServers(G, query("NextToken", "eyJHYW1lU2VydmVySWQiOiJTeCJ9.AAAA")), "NextToken");
        refused(() -> admin.listServers(GHOST, ""), 404, "NotFoundException");
        assertThat(admin.listServers(G, query("Limit", "100")).ok().body().get("GameServers").size()).isEqualTo(3);
    }

    @Test
    void describeGameServer() {
        refused(() -> admin.describeServer(G, "nobody-1"), 404, "NotFoundException", "nobody-1");
        refused(() -> admin.describeServer(GHOST, "avail-1"), 404, "NotFoundException");
        refused(() -> admin.describeServer(OTHER, "avail-1"), 404, "NotFoundException");
        invalid(() -> admin.describeServer(G, "bad id!"), "GameServerId");
        invalid(() -> admin.describeServer(G, "ab"), "GameServerId");
        invalid(() -> admin.call("GET", serverPath(G, "avail-1") + query("Bogus", "1")), "Bogus");
    }

    @Test
    void updateGameServer() {
        String path = serverPath(G, "avail-1");
        invalid("PATCH", path, MALFORMED, "JSON");
        invalid("PATCH", path, obj().put("Bogus", 1), "Bogus");
        invalid("PATCH", path, obj().put("UtilizationStatus", "BUSY"), "UtilizationStatus");
        invalid("PATCH", path, obj().put("HealthCheck", "SICK"), "HealthCheck");
        invalid("PATCH", path, obj().put("GameServerData", ""), "GameServerData");
        invalid("PATCH", path, obj().put("GameServerData", " \t "), "GameServerData");
        invalid("PATCH", path, obj().put("GameServerId", "avail-2").put("HealthCheck", "HEALTHY"), "GameServerId");
        invalid("PATCH", path, obj().put("GameServerGroupName", OTHER).put("HealthCheck", "HEALTHY"),
                "GameServerGroupName");
        // UTILIZED -> AVAILABLE is forbidden.
        invalid("PATCH", serverPath(G, "used-1"), obj().put("UtilizationStatus", "AVAILABLE"), "UTILIZED");
        invalid("PATCH", serverPath(G, "used-1"), obj().put("UtilizationStatus", "AVAILABLE")
                .put("GameServerData", "tried"), "UTILIZED");
        refused(() -> admin.updateServer(G, "nobody-1", obj().put("HealthCheck", "HEALTHY")), 404, "NotFoundException");
        refused(() -> admin.updateServer(GHOST, "avail-1", obj().put("HealthCheck", "HEALTHY")), 404, "NotFoundException");
        refused(() -> admin.updateServer(OTHER, "avail-1", obj().put("HealthCheck", "HEALTHY")), 404, "NotFoundException");
        forbiddenTo(MATCHMAKER, c -> c.updateServer(G, "avail-1", obj().put("HealthCheck", "HEALTHY")));
        // Setting the status a server already has succeeds.
        assertThat(admin.updateServer(G, "used-1", obj().put("UtilizationStatus", "UTILIZED")).ok().server()
                .get("UtilizationStatus").asText()).isEqualTo("UTILIZED");
        changed();
    }

    @Test
    void deregisterGameServer() {
        refused(() -> admin.deregister(G, "nobody-1"), 404, "NotFoundException");
        refused(() -> admin.deregister(GHOST, "avail-1"), 404, "NotFoundException");
        refused(() -> admin.deregister(OTHER, "avail-1"), 404, "NotFoundException");
        invalid(() -> admin.deregister(G, "bad id!"), "GameServerId");
        invalid(() -> admin.call("DELETE", serverPath(G, "avail-1") + query("Bogus", "1")), "Bogus");
        invalid("DELETE", serverPath(G, "avail-1"), obj().put("GameServerId", "avail-2"), "GameServerId");
        forbiddenTo(MATCHMAKER, c -> c.deregister(G, "avail-1"));
    }

    @Test
    void claimGameServer() {
        String path = groupPath(G) + "/claim";
        invalid("POST", path, MALFORMED, "JSON");
        invalid("POST", path, obj().put("Bogus", 1), "Bogus");
        invalid("POST", path, parse("{\"FilterOption\":{\"InstanceStatuses\":[\"DRAINING\"]}}"), "ACTIVE");
        invalid("POST", path, parse("{\"FilterOption\":{\"InstanceStatuses\":[]}}"), "ACTIVE");
        invalid("POST", path, parse("{\"FilterOption\":{\"InstanceStatuses\":[\"SPOT_TERMINATING\"]}}"),
                "FilterOption.InstanceStatuses[0]");
        invalid("POST", path, parse("{\"FilterOption\":{\"Statuses\":[\"ACTIVE\"]}}"), "FilterOption.Statuses");
        invalid("POST", path, parse("{\"FilterOption\":[\"ACTIVE\"]}"), "FilterOption");
        invalid("POST", path, obj().put("GameServerData", repeat('d', 1025)), "GameServerData");
        invalid("POST", path, obj().put("GameServerId", "x"), "GameServerId");
        invalid("POST", path, obj().put("GameServerGroupName", OTHER), "GameServerGroupName");
        refused(() -> admin.claim(GHOST), 404, "NotFoundException");
        refused(() -> admin.claim(G, obj().put("GameServerId", "nobody-1")), 404, "NotFoundException");
        refused(() -> admin.claim(G, obj().put("GameServerId", "elsewhere-1")), 404, "NotFoundException");
        refused(() -> admin.claim(G, obj().put("GameServerId", "used-1")), 409, "ConflictException", "UTILIZED");
        forbiddenTo(UNBOUND_GAME_SERVER, c -> c.claim(G));
    }

    // ------------------------------------------------------------------ who may call

    @Test
    void requestsMustBeSignedByAKnownPrincipal() {
        refused(() -> admin.callUnsigned("GET", groupPath(G), null), 403, "UnauthorizedException");
        refused(() -> admin.callUnsigned("POST", GROUPS, groupBody("unsigned", 1, 1)), 403, "UnauthorizedException");
        refused(() -> admin.callUnsigned("POST", groupPath(G) + "/claim", obj()), 403, "UnauthorizedException");
        GamefleetClient wrongSecret = admin.withSecret("not-the-secret");
        refused(() -> wrongSecret.describeGroup(G), 403, "UnauthorizedException", "signature");
        refused(() -> wrongSecret.createGroup(groupBody("wrong", 1, 1)), 403, "UnauthorizedException");
        refused(() -> wrongSecret.deleteGroup(G, "FORCE_DELETE"), 403, "UnauthorizedException");
        refused(() -> admin.as("AKIDNOBODY", "whatever").describeGroup(G), 403, "UnauthorizedException");
        // Signed six minutes ago by the API's clock: outside SigV4's five minutes.
        GamefleetClient stale = admin.signingBy(Clock.offset(LOCAL.signingClock(), Duration.ofMinutes(-6)));
        Response late = refused(() -> stale.describeGroup(G), 403, "UnauthorizedException");
        LOCAL.onLocalProfile(p -> assertThat(late.message()).contains("skew"));
        // The matchmaker's key with the admin's secret is not the admin.
        LOCAL.asOnly(MATCHMAKER).ifPresent(m -> refused(() -> m.withSecretOf(admin).describeGroup(G), 403,
                "UnauthorizedException"));
        // Route-level roles.
        forbiddenTo(MATCHMAKER, c -> c.createGroup(groupBody("mm", 1, 1)),
                "CreateGameServerGroup");
        forbiddenTo(UNBOUND_GAME_SERVER, c -> c.listGroups(""));
        forbiddenTo(UNBOUND_GAME_SERVER, c -> c.listServers(G, ""));
        assertThat(LOCAL.matchmaker().describeGroup(G).ok().group().get("GameServerGroupName").asText()).isEqualTo(G);
        // Only the local profile's health check needs no signature.
        LOCAL.onLocalProfile(p -> assertThat(admin.callUnsigned("GET", "/_local/health", null).ok().body().get("status")
                .asText()).isEqualTo("ready"));
        refused(() -> admin.callUnsigned("GET", "/game-server-groups/" + G + "/nowhere", null), 404, "NotFoundException");
    }

    @Test
    void aGameServerBoundToAnInstanceActsOnlyOnItsOwnServers() {
        GamefleetClient bound = LOCAL.client(LocalProfileExtension.BOUND_GAME_SERVER);
        refused(() -> bound.register(G, "bound-1", i1), 403, "UnauthorizedException");
        refused(() -> bound.describeServer(G, "avail-1"), 403, "UnauthorizedException");
        refused(() -> bound.updateServer(G, "avail-1", obj().put("UtilizationStatus", "UTILIZED")), 403,
                "UnauthorizedException");
        refused(() -> bound.updateServer(G, "avail-1", obj().put("HealthCheck", "HEALTHY")), 403,
                "UnauthorizedException");
        refused(() -> bound.deregister(G, "avail-1"), 403, "UnauthorizedException");
        // Its own instance is not one of the group's.
        invalid(() -> bound.register(G, "bound-1", LocalProfileExtension.BOUND_INSTANCE_ID),
                LocalProfileExtension.BOUND_INSTANCE_ID);

        // Unbound, a GAME_SERVER principal may act for no instance: register, update and deregister
        // are refused (through the edge, as in AWS on every door); it may still describe.
        GamefleetClient unbound = LOCAL.client(LocalProfileExtension.UNBOUND_GAME_SERVER);
        for (String instance : List.of(i1, i2)) {
            String id = "unbound-" + instance;
            refused(() -> unbound.register(G, id, instance), 403, "UnauthorizedException", "this caller is bound to no instance");
            refused(() -> unbound.updateServer(G, "avail-1", obj().put("HealthCheck", "HEALTHY")), 403, "UnauthorizedException",
                    "this caller is bound to no instance");
            refused(() -> unbound.deregister(G, "avail-1"), 403, "UnauthorizedException", "this caller is bound to no instance");
        }
        assertThat(unbound.describeServer(G, "avail-1").ok().serverId()).isEqualTo("avail-1");
    }

    /**
     * What a compromised instance holds is its own instance profile's keys, as its metadata hands them to
     * its agent: with them it acts on its own servers, and on no other instance's, of its group or another.
     */
    @Test
    void anInstancesOwnKeysActOnItsOwnServersAndOnNoOtherInstancesOrGroups() {
        GamefleetClient own = LOCAL.asInstance(i1);
        // Its own: so what it is refused below is the binding to its instance, not its role.
        own.call("POST", groupPath(G) + "/game-servers", obj().put("GameServerId", "own-1").put("InstanceId", i1)
                .put("ConnectionInfo", "127.0.0.1:7777")).ok();
        assertThat(own.describeServer(G, "own-1").ok().serverId()).isEqualTo("own-1");
        own.updateServer(G, "own-1", obj().put("HealthCheck", "HEALTHY")).ok();
        own.deregister(G, "own-1").ok();
        changed();

        // Another instance of its group: its servers, and registering on it.
        refused(() -> own.register(G, "theirs-1", i2), 403, "UnauthorizedException", "its own instance");
        refused(() -> own.describeServer(G, "avail-2"), 403, "UnauthorizedException");
        refused(() -> own.updateServer(G, "avail-2", obj().put("HealthCheck", "HEALTHY")), 403, "UnauthorizedException");
        refused(() -> own.updateServer(G, "avail-2", obj().put("UtilizationStatus", "UTILIZED")), 403,
                "UnauthorizedException");
        refused(() -> own.deregister(G, "avail-2"), 403, "UnauthorizedException");
        // Another group: its own instance is none of that group's, and that group's instance is not its own.
        invalid(() -> own.register(OTHER, "theirs-2", i1), i1);
        refused(() -> own.register(OTHER, "theirs-2", otherInstance), 403, "UnauthorizedException", "its own instance");
        refused(() -> own.describeServer(OTHER, "elsewhere-1"), 403, "UnauthorizedException");
        refused(() -> own.updateServer(OTHER, "elsewhere-1", obj().put("HealthCheck", "HEALTHY")), 403,
                "UnauthorizedException");
        refused(() -> own.deregister(OTHER, "elsewhere-1"), 403, "UnauthorizedException");
        // What its role may do nowhere.
        refused(() -> own.claim(G), 403, "UnauthorizedException");
        refused(() -> own.claim(G, obj().put("GameServerId", "avail-1")), 403, "UnauthorizedException");
        refused(() -> own.listServers(G, ""), 403, "UnauthorizedException");
        refused(() -> own.describeInstances(G, ""), 403, "UnauthorizedException");
        refused(() -> own.createGroup(groupBody("mine", 1, 1)), 403, "UnauthorizedException");
        refused(() -> own.deleteGroup(G, "FORCE_DELETE"), 403, "UnauthorizedException");
    }

    // ------------------------------------------------------------------ wire format of successes

    @Test
    void successfulResponsesHaveNoNullsAndNumericTimestamps() {
        List<JsonNode> bodies = List.of(
                admin.describeGroup(G).ok().body(),
                admin.listGroups("").ok().body(),
                admin.describeInstances(G, "").ok().body(),
                admin.listServers(G, "").ok().body(),
                admin.describeServer(G, "avail-1").ok().body(),
                admin.describeServer(G, "used-1").ok().body());
        int checked = 0;
        for (JsonNode body : bodies) {
            List<String> nulls = new ArrayList<>();
            GamefleetClient.findNulls(body, "$", nulls);
            assertThat(nulls).as("%s", body).isEmpty();
            for (String member : List.of("CreationTime", "LastUpdatedTime", "RegistrationTime", "LastHealthCheckTime",
                    "LaunchTime", "LastClaimTime")) {
                for (JsonNode t : body.findValues(member)) {
                    assertThat(t.isNumber()).as("%s in %s", member, body).isTrue();
                    // Epoch seconds with a millisecond fraction: exact at 3 decimals.
                    assertThat(t.decimalValue().scale()).as("%s in %s", member, body).isLessThanOrEqualTo(3);
                    assertThat(t.decimalValue().longValue()).as("%s in %s", member, body)
                            .isBetween(LOCAL.signingClock().instant().getEpochSecond() - 86_400,
                                    LOCAL.signingClock().instant().getEpochSecond() + 1);
                    checked++;
                }
            }
        }
        assertThat(checked).as("timestamps checked").isGreaterThanOrEqualTo(10);
        // On the wire: plain decimals (no exponent), at most three fraction digits.
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "\"(CreationTime|LastUpdatedTime|RegistrationTime|LastHealthCheckTime|LaunchTime|LastClaimTime)\":([^,}]*)")
                .matcher(admin.describeGroup(G).ok().raw() + admin.listServers(G, "").ok().raw()
                        + admin.describeInstances(G, "").ok().raw());
        int timestamps = 0;
        while (m.find()) {
            assertThat(m.group(2)).as(m.group()).matches("^[0-9]{10}(\\.[0-9]{1,3})?$");
            timestamps++;
        }
        assertThat(timestamps).isGreaterThanOrEqualTo(10);
        JsonNode avail = admin.describeServer(G, "avail-1").ok().server();
        assertThat(avail.has("ClaimStatus")).isFalse();
        assertThat(avail.has("GameServerData")).isFalse();
        assertThat(avail.has("LastClaimTime")).isFalse();
    }
}

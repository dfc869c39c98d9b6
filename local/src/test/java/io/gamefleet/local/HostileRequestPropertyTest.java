package io.gamefleet.local;

import static io.gamefleet.local.GamefleetClient.groupBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import io.gamefleet.testing.TestBackend;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Whatever arrives at any route (random bytes, random JSON, random percent-encodings in the
 * path and the query, through the REST routes, the CBOR paths and the JSON door), the answer is
 * a valid one or a 4xx with the JSON error body, never a 5xx; and a refusal changes nothing
 * (the listings of groups, game servers and instances are the same before and after).
 */
class HostileRequestPropertyTest {
    private static final String GROUP = "prop";
    private static final String SERVER = "prop-server-1";
    /** Routes whose success would delete what the others work on get a group or server that does not exist. */
    private static final Set<Operation> DESTRUCTIVE = Set.of(Operation.DELETE_GAME_SERVER_GROUP,
            Operation.DEREGISTER_GAME_SERVER);
    private static final List<String> MEMBERS = List.of("GameServerGroupName", "GameServerId", "InstanceId",
            "RoleArn", "MinSize", "MaxSize", "LaunchTemplate", "InstanceDefinitions", "InstanceType", "Limit",
            "NextToken", "SortOrder", "UtilizationStatus", "HealthCheck", "GameServerData", "FilterOption",
            "InstanceStatuses", "DeleteOption", "SuspendedActions", "BalancingStrategy", "Tags", "ConnectionInfo",
            "Bogus", "", "__proto__");

    private static FaultProfile profile;
    private static RawHttp raw;

    @BeforeContainer
    static void start() {
        if (!TestBackend.selected().embedded() || DeployedApi.selected().isPresent()) {
            return; // needs the in-process profile; the properties then check nothing
        }
        profile = FaultProfile.start(Optional.empty());
        raw = new RawHttp(profile.profile.endpoint());
        profile.admin.createActive(groupBody(GROUP, 1, 2));
        profile.admin.register(GROUP, SERVER, profile.admin.firstInstance(GROUP)).ok();
    }

    @AfterContainer
    static void stop() {
        if (profile != null) {
            profile.close();
        }
    }

    // ---------------------------------------------------------------- properties

    @Property(tries = 60, shrinking = ShrinkingMode.BOUNDED)
    void randomBytesAreRefusedOrAnswered(@ForAll("doors") Door door, @ForAll("bytes") byte[] body) {
        check(door, door.target(), body);
    }

    @Property(tries = 80, shrinking = ShrinkingMode.BOUNDED)
    void randomJsonIsRefusedOrAnswered(@ForAll("doors") Door door, @ForAll("json") JsonNode body) {
        check(door, door.target(), body.toString().getBytes(StandardCharsets.UTF_8));
    }

    @Property(tries = 80, shrinking = ShrinkingMode.BOUNDED)
    void randomPercentEncodingsAreRefusedOrAnswered(@ForAll("restDoors") Door door, @ForAll("encoded") String segment,
            @ForAll("encoded") String value, @ForAll("queryNames") String name, @ForAll boolean inPath) {
        String target = inPath && door.route().path().contains("{")
                ? door.target().replaceFirst("/" + (door.target().contains(SERVER) ? SERVER : "[^/?]+") + "(?=$|[/?])",
                        "/" + segment)
                : door.target() + (door.target().contains("?") ? "&" : "?") + name + "=" + value;
        check(door, target, null);
    }

    // ---------------------------------------------------------------- the check

    private static void check(Door door, String target, byte[] body) {
        if (profile == null) {
            return;
        }
        String before = snapshot();
        RawHttp.Answer answer = raw.signed(LocalProfileExtension.ADMIN, profile.clock, door.method(), target, body,
                door.headers());
        assertThat(answer.status()).as("%s %s -> %s", door.method(), target, answer).isLessThan(500);
        if (answer.status() >= 400) {
            String contentType = answer.headers().getOrDefault("content-type", "");
            if (contentType.startsWith("application/cbor")) { // RPC v2 CBOR: {"__type": shape id, "message"} in CBOR
                JsonNode error;
                try {
                    error = new com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper().readTree(answer.bytes());
                } catch (java.io.IOException e) {
                    throw new AssertionError(door.method() + " " + target + " -> an error body that is not CBOR", e);
                }
                assertThat(error.path("__type").asText()).as("%s %s -> %s", door.method(), target, answer)
                        .startsWith("com.amazonaws.gamelift#");
                assertThat(error.path("message").isTextual()).as("%s %s -> %s", door.method(), target, answer).isTrue();
            } else {
                // JSON: REST's {"__type","Message"}; AWS JSON 1.1's {"__type","message"}
                assertThat(contentType).as("%s %s -> %s", door.method(), target, answer).startsWith("application/");
                JsonNode error = answer.json();
                assertThat(error.isObject() && error.size() == 2 && error.path("__type").isTextual()
                        && (error.path("Message").isTextual() || error.path("message").isTextual()))
                        .as("%s %s -> %s", door.method(), target, answer).isTrue();
            }
            assertThat(snapshot()).as("state after %s %s -> %s", door.method(), target, answer).isEqualTo(before);
        } else {
            assertThat(answer.status()).as("%s %s -> %s", door.method(), target, answer).isEqualTo(200);
        }
    }

    /** What a refusal must leave as it was: every group, the test group's servers and instances. */
    private static String snapshot() {
        return profile.admin.listGroups("").ok().body().get("GameServerGroups").toString()
                + profile.admin.listServers(GROUP, "").ok().body().get("GameServers")
                + profile.admin.describeInstances(GROUP, "").ok().body().get("GameServerInstances");
    }

    // ---------------------------------------------------------------- what is sent

    /** One way in: a REST route (its path filled in), a CBOR path, or the JSON door with an operation's target. */
    record Door(Route route, String method, String target, Map<String, String> headers) {}

    private static List<Door> restDoorList() {
        List<Door> doors = new ArrayList<>();
        for (Route r : Routes.ALL) {
            boolean ghost = DESTRUCTIVE.contains(r.operation());
            String path = r.path().replace("{GameServerGroupName}", ghost ? "ghost-group" : GROUP)
                    .replace("{GameServerId}", ghost ? "ghost-server" : SERVER);
            doors.add(new Door(r, r.method(), path, Map.of()));
        }
        return doors;
    }

    @Provide
    Arbitrary<Door> restDoors() {
        return Arbitraries.of(restDoorList());
    }

    @Provide
    Arbitrary<Door> doors() {
        List<Door> doors = new ArrayList<>(restDoorList());
        for (Route r : Routes.ALL) {
            if (!DESTRUCTIVE.contains(r.operation())) {
                doors.add(new Door(r, "POST", r.operation().cborPath(), Map.of("smithy-protocol", "rpc-v2-cbor",
                        "Accept", "application/cbor")));
                doors.add(new Door(r, "POST", Routes.JSON_DOOR.path(),
                        Map.of("X-Amz-Target", r.operation().jsonTarget())));
            }
        }
        return Arbitraries.of(doors);
    }

    @Provide
    Arbitrary<byte[]> bytes() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(200);
    }

    @Provide
    Arbitrary<String> queryNames() {
        return Arbitraries.of("NextToken", "Limit", "DeleteOption", "SortOrder", "InstanceIds", "Bogus", "%zz", "",
                "Limit%3D1", "a+b");
    }

    /** Escapes good and bad, characters that must be encoded and some that need not be. */
    @Provide
    Arbitrary<String> encoded() {
        return Arbitraries.of("%", "%2", "%zz", "%ZZ", "%25", "%2F", "%2f", "%C3", "%A9", "%C3%A9", "%28", "%FF", "%00",
                "%7F", "%E2%82", "%F0%9F%98%80", "%ED%A0%80", "+", "a", "Z", "0", "9", "-", ".", "_", "~", "/", "?",
                "#", " ", "\u00e9", ":", "arn", "prop", "%3A", "%2B", "&", "=", "%26", "%3D", "\t")
                .list().ofMinSize(0).ofMaxSize(10).map(parts -> String.join("", parts));
    }

    @Provide
    Arbitrary<JsonNode> json() {
        return jsonValue(3);
    }

    private static Arbitrary<JsonNode> jsonValue(int depth) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        List<Arbitrary<JsonNode>> leaves = List.of(
                Arbitraries.strings().ofMaxLength(20).map(f::textNode),
                Arbitraries.of("prop", SERVER, "ghost", "ACTIVE", "UTILIZED", "AVAILABLE", "HEALTHY", "FORCE_DELETE",
                        "i-0123456789abcdef0", "c5.large", "arn:aws:iam::000000000000:role/r", "\ud800", "")
                        .map(f::textNode),
                Arbitraries.integers().map(f::numberNode),
                Arbitraries.of(f.numberNode(1e308), f.numberNode(-0.5), f.numberNode(Long.MAX_VALUE),
                        f.numberNode(new java.math.BigDecimal("1e400")), f.booleanNode(true), f.booleanNode(false),
                        f.nullNode()));
        if (depth == 0) {
            return Arbitraries.oneOf(leaves);
        }
        Arbitrary<JsonNode> inner = Arbitraries.lazy(() -> jsonValue(depth - 1));
        Arbitrary<JsonNode> array = inner.list().ofMaxSize(4).map(items -> {
            ArrayNode a = f.arrayNode();
            items.forEach(a::add);
            return a;
        });
        Arbitrary<JsonNode> object = Combinators.combine(Arbitraries.of(MEMBERS), inner).as(Map::entry).list()
                .ofMaxSize(5).map(entries -> {
                    ObjectNode o = f.objectNode();
                    entries.forEach(e -> o.set(e.getKey(), e.getValue()));
                    return o;
                });
        List<Arbitrary<JsonNode>> all = new ArrayList<>(leaves);
        all.add(array);
        all.add(object);
        all.add(object);
        return Arbitraries.oneOf(all);
    }
}

package io.gamefleet.local;

import static io.gamefleet.local.GamefleetClient.groupBody;
import static io.gamefleet.local.GamefleetClient.groupPath;
import static io.gamefleet.local.GamefleetClient.obj;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Settings;
import io.gamefleet.domain.fakes.MutableClock;
import io.gamefleet.local.GamefleetClient.Response;
import io.gamefleet.local.edge.Principal;
import io.gamefleet.testing.TestBackend;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * Issue 30's placement across regions, end to end on two peered profiles of one run
 * ({@link LocalRegions}: us-east-1 and eu-west-1, each with its own emulators, edge and fleet),
 * called over HTTP as a matchmaker calls, SigV4-signed for the region it calls by the AWS SDK's
 * signer. A group of the same name is ACTIVE in both; each test counts the claimed servers of both
 * regions, so that nothing is claimed twice or where it should not be.
 */
class PeeredRegionsTest {
    private static final String EAST = "us-east-1";
    private static final String WEST = "eu-west-1";
    /** Servers in both regions. */
    private static final String ARENA = "arena";
    /** Servers in eu-west-1 alone: us-east-1 has none AVAILABLE. */
    private static final String SPARSE = "sparse";
    private static final int SERVERS = 6;
    private static final Duration BUDGET =
            Duration.ofMillis(Long.parseLong(Settings.PEER_TIMEOUT_MILLIS.defaultValue()));
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static MutableClock clock;
    private static LocalRegions run;

    @BeforeAll
    static void twoPeeredRegionsWithTheSameGroups() {
        Assumptions.assumeTrue(TestBackend.selected().embedded() && DeployedApi.selected().isEmpty(),
                "starts profiles of its own, each with its own emulators");
        clock = MutableClock.startingNow();
        LocalProfile.Options d = LocalProfile.Options.defaults();
        // No background schedules; workflow Wait states of 50 ms; instances in service at once.
        long started = System.nanoTime();
        run = LocalRegions.start(new LocalProfile.Options(0, d.claimTtl(), d.healthTimeout(), Duration.ZERO,
                Duration.ZERO, Optional.empty(), Optional.empty(), Optional.empty(),
                List.of(LocalProfileExtension.ADMIN, LocalProfileExtension.MATCHMAKER), clock, Duration.ofMillis(50),
                d.home(), List.of()), List.of(EAST, WEST));
        System.out.println("PeeredRegionsTest: " + EAST + " and " + WEST + " started in "
                + (System.nanoTime() - started) / 1_000_000 + " ms");
        for (String region : List.of(EAST, WEST)) {
            GamefleetClient admin = admin(region);
            admin.createGroup(groupBody(ARENA, 1, 1)).ok();
            admin.createGroup(groupBody(SPARSE, 1, 1)).ok();
        }
        for (String region : List.of(EAST, WEST)) {
            GamefleetClient admin = admin(region);
            admin.awaitActive(ARENA);
            admin.awaitActive(SPARSE);
            String prefix = region.equals(EAST) ? "east-" : "west-";
            String arena = admin.firstInstance(ARENA);
            for (int n = 0; n < SERVERS; n++) {
                admin.register(ARENA, prefix + n, arena).ok();
            }
            if (region.equals(WEST)) {
                String sparse = admin.firstInstance(SPARSE);
                for (int n = 0; n < SERVERS; n++) {
                    admin.register(SPARSE, "west-sparse-" + n, sparse).ok();
                }
            }
        }
    }

    @AfterAll
    static void stop() {
        if (run == null) {
            return;
        }
        List<String> denied = run.profiles().stream().flatMap(p -> p.deniedCalls().stream()).toList();
        run.close();
        assertThat(denied).as("DynamoDB calls the functions' grants do not allow").isEmpty();
    }

    private static GamefleetClient client(String region, Principal principal) {
        return new GamefleetClient(run.profile(region).endpoint(), region, AwsCredentialsIdentity.create(
                principal.accessKeyId(), principal.secretAccessKey()), clock, GamefleetClient.Pace.LOCAL_PROFILE);
    }

    private static GamefleetClient admin(String region) {
        return client(region, LocalProfileExtension.ADMIN);
    }

    private static GamefleetClient matchmaker(String region) {
        return client(region, LocalProfileExtension.MATCHMAKER);
    }

    private static ObjectNode session(String id, String... preferredRegions) {
        ObjectNode body = obj().put("SessionId", id);
        var preferred = body.putArray("PreferredRegions");
        for (String region : preferredRegions) {
            preferred.add(region);
        }
        return body;
    }

    private static Response create(String home, String group, ObjectNode body) {
        return matchmaker(home).call("POST", groupPath(group) + "/sessions", body);
    }

    /** The claimed servers of the group in each region. */
    private static Map<String, Long> claimed(String group) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String region : List.of(EAST, WEST)) {
            counts.put(region, admin(region).listAll(groupPath(group) + "/game-servers", "GameServers", 100).stream()
                    .filter(s -> s.has("ClaimStatus")).count());
        }
        return counts;
    }

    private static Map<String, Long> plus(Map<String, Long> before, long east, long west) {
        return Map.of(EAST, before.get(EAST) + east, WEST, before.get(WEST) + west);
    }

    /** {@code POST /_local/regions/{region}/{action}} on {@code edgeOf}'s edge, with the run's token. */
    private static HttpResponse<String> control(String edgeOf, String region, String action) {
        LocalProfile edge = run.profile(edgeOf);
        HttpRequest request = HttpRequest.newBuilder(edge.endpoint().resolve("/_local/regions/" + region + "/" + action))
                .header("X-Gamefleet-Local-Token", edge.localToken()).POST(HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(10)).build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode json(HttpResponse<String> response) {
        return GamefleetClient.parse(response.body());
    }

    @Test
    void theRegionsListEachOtherWithTheirApisAndAnUnknownRegionHasNoOutage() {
        JsonNode regions = matchmaker(EAST).call("GET", "/regions").ok().body().get("Regions");
        assertThat(regions.toString()).isEqualTo("[{\"Region\":\"us-east-1\",\"Home\":true},{\"Region\":\"eu-west-1\","
                + "\"ApiUrl\":\"" + run.profile(WEST).endpoint() + "\"}]");
        assertThat(matchmaker(WEST).call("GET", "/regions").ok().body().get("Regions").get(1).get("Region").asText())
                .isEqualTo(EAST);

        HttpResponse<String> unknown = control(EAST, "ap-south-1", "outage");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json(unknown).get("__type").asText()).isEqualTo("NotFoundException");
        assertThat(json(unknown).get("Message").asText()).isEqualTo("no region ap-south-1 in this run; its regions are"
                + " [us-east-1, eu-west-1]");
        assertThat(control(EAST, WEST, "down").statusCode()).isEqualTo(404);
        assertThat(run.profiles()).allSatisfy(p -> assertThat(p.edge().outage().down()).isFalse());
    }

    @Test
    void aSessionPreferringARegionWithNoAvailableServerIsPlacedInTheNext() {
        Map<String, Long> before = claimed(SPARSE);
        assertThat(before.get(EAST)).isZero();

        JsonNode placed = create(EAST, SPARSE, session(UUID.randomUUID().toString(), EAST, WEST)).ok().body()
                .get("Session");
        assertThat(placed.get("Region").asText()).isEqualTo(WEST);
        assertThat(placed.get("GameServerId").asText()).startsWith("west-sparse-");
        assertThat(placed.get("State").asText()).isEqualTo("CLAIMED");

        // Preferring only the region that has none: not forwarded.
        create(EAST, SPARSE, session(UUID.randomUUID().toString(), EAST)).error(409, "OutOfCapacityException");
        assertThat(claimed(SPARSE)).isEqualTo(plus(before, 0, 1));
    }

    @Test
    void aRetryOfTheSameSessionIdAtHomeAnswersTheSameServerAcrossRegions() {
        Map<String, Long> before = claimed(SPARSE);
        String id = UUID.randomUUID().toString();
        JsonNode first = create(EAST, SPARSE, session(id, EAST, WEST)).ok().body().get("Session");
        assertThat(first.get("Region").asText()).isEqualTo(WEST);

        // The first answer lost in flight: the matchmaker asks its home region again.
        for (int retry = 0; retry < 2; retry++) {
            JsonNode again = create(EAST, SPARSE, session(id, EAST, WEST)).ok().body().get("Session");
            assertThat(again.get("Region").asText()).isEqualTo(WEST);
            assertThat(again.get("GameServerId")).isEqualTo(first.get("GameServerId"));
            assertThat(again.get("CreationTime")).isEqualTo(first.get("CreationTime"));
        }
        assertThat(claimed(SPARSE)).isEqualTo(plus(before, 0, 1));
    }

    @Test
    void latenciesUnderTheCapPlaceTheSessionInTheLowestRegionFromEitherHome() {
        Map<String, Long> before = claimed(ARENA);
        ObjectNode fromEast = obj().put("SessionId", UUID.randomUUID().toString()).put("MaxLatencyMs", 100);
        fromEast.putObject("Latencies").put(EAST, 120).put(WEST, 35);
        JsonNode west = create(EAST, ARENA, fromEast).ok().body().get("Session");
        assertThat(west.get("Region").asText()).isEqualTo(WEST);
        assertThat(west.get("GameServerId").asText()).startsWith("west-");

        ObjectNode fromWest = obj().put("SessionId", UUID.randomUUID().toString()).put("MaxLatencyMs", 50);
        fromWest.putObject("Latencies").put(EAST, 20).put(WEST, 90);
        JsonNode east = create(WEST, ARENA, fromWest).ok().body().get("Session");
        assertThat(east.get("Region").asText()).isEqualTo(EAST);
        assertThat(east.get("GameServerId").asText()).startsWith("east-");
        assertThat(claimed(ARENA)).isEqualTo(plus(before, 1, 1));
    }

    @Test
    void anOutageOfThePreferredRegionMovesPlacementsToTheOtherWithinTheBudgetAndRecoveryBringsThemBack()
            throws Exception {
        Map<String, Long> before = claimed(ARENA);
        HttpResponse<String> down = control(EAST, WEST, "outage"); // any region's edge takes it
        assertThat(down.statusCode()).as(down.body()).isEqualTo(200);
        assertThat(down.body()).isEqualTo("{\"Region\":\"eu-west-1\",\"Outage\":true}");
        CompletableFuture<Response> direct;
        HttpResponse<String> recovered;
        try {
            // Held by the region that is down: never run, dropped when it recovers.
            direct = CompletableFuture.supplyAsync(() -> create(WEST, ARENA, session(UUID.randomUUID().toString(), WEST)));

            long started = System.nanoTime();
            JsonNode moved = create(EAST, ARENA, session(UUID.randomUUID().toString(), WEST, EAST)).ok().body()
                    .get("Session");
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertThat(moved.get("Region").asText()).isEqualTo(EAST);
            assertThat(moved.get("GameServerId").asText()).startsWith("east-");
            assertThat(took).as("eu-west-1 asked until the budget, then us-east-1 claimed")
                    .isGreaterThanOrEqualTo(BUDGET).isLessThan(BUDGET.plusSeconds(4));

            // Its local paths answer meanwhile; its API does not.
            HttpResponse<String> health = HTTP.send(HttpRequest.newBuilder(run.profile(WEST).endpoint()
                    .resolve("/_local/health")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(direct).isNotDone();
        } finally {
            recovered = control(WEST, WEST, "recover"); // its own /_local/ paths answer all along
        }
        assertThat(recovered.statusCode()).as(recovered.body()).isEqualTo(200);
        assertThat(json(recovered).get("Outage").asBoolean()).isFalse();
        assertThat(json(recovered).get("Dropped").asInt()).as("the forwarded request and the direct one").isEqualTo(2);
        try {
            direct.get(10, TimeUnit.SECONDS);
            throw new AssertionError("a request held by the outage was answered");
        } catch (ExecutionException dropped) {
            assertThat(dropped.getCause()).isInstanceOf(java.io.UncheckedIOException.class);
        }
        assertThat(claimed(ARENA)).as("what the outage held never ran").isEqualTo(plus(before, 1, 0));

        JsonNode back = create(EAST, ARENA, session(UUID.randomUUID().toString(), WEST, EAST)).ok().body()
                .get("Session");
        assertThat(back.get("Region").asText()).isEqualTo(WEST);
        assertThat(claimed(ARENA)).isEqualTo(plus(before, 1, 1));
    }
}

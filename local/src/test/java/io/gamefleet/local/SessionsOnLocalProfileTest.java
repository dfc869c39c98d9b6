package io.gamefleet.local;

import static io.gamefleet.local.GamefleetClient.groupBody;
import static io.gamefleet.local.GamefleetClient.obj;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.local.GamefleetClient.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Sessions end to end (HTTP on a socket, SigV4, the functions on dynoxide): a matchmaker's request
 * retried, lost answers and duplicates at once claim one server; its refusals; its states.
 */
class SessionsOnLocalProfileTest {
    private static final String GROUP = "sessions";
    private static final int SERVERS = 12;

    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension();

    private final GamefleetClient admin = LOCAL.admin();
    private final GamefleetClient matchmaker = LOCAL.matchmaker();

    @BeforeAll
    static void aGroupOfServers() {
        GamefleetClient admin = LOCAL.admin();
        admin.createActive(groupBody(GROUP, 1, 1));
        String instance = admin.instanceIds(GROUP).get(0);
        for (int n = 0; n < SERVERS; n++) {
            admin.register(GROUP, "sessions-" + n, instance).ok();
        }
    }

    private static String sessions() {
        return GamefleetClient.groupPath(GROUP) + "/sessions";
    }

    private Response create(ObjectNode body) {
        return matchmaker.call("POST", sessions(), body);
    }

    private Response describe(String id) {
        return matchmaker.call("GET", sessions() + "/" + id);
    }

    private static ObjectNode session(String id) {
        ObjectNode body = obj().put("SessionId", id).put("SessionCookie", "map=dust2;mode=ranked");
        body.putArray("InitialPlayers").add("player-1").add("player-2");
        return body;
    }

    private long claimed() {
        return admin.listAll(GamefleetClient.groupPath(GROUP) + "/game-servers", "GameServers", 100).stream()
                .filter(s -> s.has("ClaimStatus")).count();
    }

    @Test
    void aRetryOfASessionAnswersTheSameServerAndClaimsNothing() {
        long before = claimed();
        String id = UUID.randomUUID().toString();
        JsonNode first = create(session(id)).ok().body().get("Session");
        assertThat(first.get("State").asText()).isEqualTo("CLAIMED");
        assertThat(first.get("SessionCookie").asText()).isEqualTo("map=dust2;mode=ranked");
        assertThat(first.get("InitialPlayers").toString()).isEqualTo("[\"player-1\",\"player-2\"]");
        assertThat(first.get("GameServer").get("ConnectionInfo").asText()).isEqualTo("127.0.0.1:7777");
        assertThat(first.get("GameServer").get("ClaimStatus").asText()).isEqualTo("CLAIMED");

        // The first answer lost in flight: the matchmaker asks again, as often as it likes.
        for (int retry = 0; retry < 3; retry++) {
            JsonNode again = create(session(id)).ok().body().get("Session");
            assertThat(again.get("GameServerId")).isEqualTo(first.get("GameServerId"));
            assertThat(again.get("CreationTime")).isEqualTo(first.get("CreationTime"));
        }
        assertThat(claimed()).isEqualTo(before + 1);
    }

    @Test
    void concurrentDuplicatesClaimExactlyOneServer() throws Exception {
        long before = claimed();
        String id = UUID.randomUUID().toString();
        int duplicates = 8;
        ExecutorService pool = Executors.newFixedThreadPool(duplicates);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Response>> answers = new ArrayList<>();
            for (int n = 0; n < duplicates; n++) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return create(session(id));
                }));
            }
            start.countDown();
            List<String> servers = new ArrayList<>();
            for (Future<Response> answer : answers) {
                servers.add(answer.get(60, TimeUnit.SECONDS).ok().body().get("Session").get("GameServerId").asText());
            }
            assertThat(servers).hasSize(duplicates).containsOnly(servers.get(0));
        } finally {
            pool.shutdownNow();
        }
        assertThat(claimed()).isEqualTo(before + 1);
        assertThat(describe(id).ok().body().get("Session").get("GameServerId").asText()).startsWith("sessions-");
    }

    @Test
    void aSessionIdReusedWithAnotherMemberIsAConflictAndBadInputA400NamingTheMember() {
        String id = UUID.randomUUID().toString();
        create(session(id)).ok();
        long before = claimed();

        Response other = create(session(id).put("SessionCookie", "map=inferno")).error(409, "ConflictException");
        assertThat(other.message()).contains("another SessionCookie");
        ObjectNode players = session(id);
        players.putArray("InitialPlayers").add("player-1");
        assertThat(create(players).error(409, "ConflictException").message()).contains("another InitialPlayers");

        assertThat(create(session("not-a-uuid")).error(400, "InvalidRequestException").message())
                .startsWith("SessionId: must be a UUID");
        assertThat(create(obj()).error(400, "InvalidRequestException").message()).isEqualTo("SessionId: is required");
        String fresh = UUID.randomUUID().toString();
        assertThat(create(session(fresh).put("SessionCookie", "c".repeat(4097))).error(400, "InvalidRequestException")
                .message()).startsWith("SessionCookie: must be at most 4096 bytes");
        ObjectNode many = session(fresh);
        var list = many.putArray("InitialPlayers");
        for (int n = 0; n <= 100; n++) {
            list.add("p" + n);
        }
        assertThat(create(many).error(400, "InvalidRequestException").message())
                .startsWith("InitialPlayers: must hold at most 100 player ids");
        describe(fresh).error(404, "NotFoundException");
        assertThat(describe("nope").error(400, "InvalidRequestException").message()).startsWith("SessionId:");
        assertThat(claimed()).as("no refusal claimed anything").isEqualTo(before);
    }

    @Test
    void aSessionIsClaimedThenActiveThenEndedWithItsServer() {
        String id = UUID.randomUUID().toString();
        String server = create(session(id)).ok().body().get("Session").get("GameServerId").asText();
        assertThat(describe(id).ok().body().get("Session").get("State").asText()).isEqualTo("CLAIMED");

        admin.setUtilized(GROUP, server).ok();
        JsonNode active = describe(id).ok().body().get("Session");
        assertThat(active.get("State").asText()).isEqualTo("ACTIVE");
        assertThat(active.get("GameServer").get("UtilizationStatus").asText()).isEqualTo("UTILIZED");

        admin.deregister(GROUP, server).ok();
        JsonNode ended = describe(id).ok().body().get("Session");
        assertThat(ended.get("State").asText()).isEqualTo("ENDED");
        assertThat(ended.get("GameServerId").asText()).isEqualTo(server);
        assertThat(ended.has("GameServer")).isFalse();
    }

    // ---- ListSessions ----

    @Test
    void aListingAnswersTheGroupsSessionsNewestFirstInSignedPagesAndRefusesBadQueries() {
        String older = UUID.randomUUID().toString();
        String newer = UUID.randomUUID().toString();
        create(session(older)).ok();
        LOCAL.clock().advance(java.time.Duration.ofMillis(5));
        create(session(newer)).ok();

        List<String> listed = new ArrayList<>();
        String next = null;
        do {
            JsonNode page = matchmaker.call("GET", sessions() + "?Limit=2"
                    + (next == null ? "" : "&NextToken=" + java.net.URLEncoder.encode(next,
                            java.nio.charset.StandardCharsets.UTF_8))).ok().body();
            assertThat(page.get("Sessions").size()).isLessThanOrEqualTo(2);
            page.get("Sessions").forEach(s -> listed.add(s.get("SessionId").asText()));
            next = page.has("NextToken") ? page.get("NextToken").asText() : null;
        } while (next != null);
        assertThat(listed).containsSubsequence(newer, older).doesNotHaveDuplicates();
        JsonNode first = admin.call("GET", sessions() + "?Limit=1").ok().body().get("Sessions").get(0);
        assertThat(first.get("SessionId").asText()).isEqualTo(newer);
        assertThat(first).isEqualTo(describe(newer).ok().body().get("Session"));

        assertThat(matchmaker.call("GET", sessions() + "?Limit=0").error(400, "InvalidRequestException").message())
                .startsWith("Limit: must be 1 to 100");
        assertThat(matchmaker.call("GET", sessions() + "?NextToken=forged").error(400, "InvalidRequestException")
                .message()).contains("NextToken");
        assertThat(matchmaker.call("GET", sessions() + "?SortOrder=ASCENDING").error(400, "InvalidRequestException")
                .message()).startsWith("SortOrder: is not a query parameter of ListSessions");
        matchmaker.call("GET", GamefleetClient.groupPath("no-such-group") + "/sessions").error(404, "NotFoundException");
    }
}

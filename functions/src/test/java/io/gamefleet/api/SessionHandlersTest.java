package io.gamefleet.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerRepository.HealthLease;
import io.gamefleet.domain.GameServerRepository.ReportedProcess;
import io.gamefleet.domain.GameServerRepository.ServerUpdate;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.PeerRegions;
import io.gamefleet.domain.ProcessReport;
import io.gamefleet.domain.ProcessState;
import io.gamefleet.domain.UtilizationStatus;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.wiring.TestServices;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Sessions through their handlers: a claim a matchmaker may retry, its refusals as the REST routes' JSON. */
class SessionHandlersTest {
    private static final String INSTANCE = "i-0aaaaaaaaaaaaaaaa";
    private static final String MATCHMAKER = RestEvents.session(Role.MATCHMAKER, "mm");
    private static final String ID = "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b";

    private final TestServices test = new TestServices();
    private final FunctionRegistry registry = new FunctionRegistry(test.services);
    private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> create =
            registry.extension(Routes.CREATE_SESSION);
    private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> describe =
            registry.extension(Routes.DESCRIBE_SESSION);
    private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> list =
            registry.extension(Routes.LIST_SESSIONS);

    @BeforeEach
    void aGroupWithTwoServers() {
        group("arena");
        group("other");
        server("gs-1");
        server("gs-2");
    }

    private void group(String name) {
        test.groups.create(GameServerGroup.builder().name(name).arn(test.services.settings().groupArn(name))
                .status(GameServerGroupStatus.ACTIVE).minSize(1).maxSize(4)
                .creationTime(test.clock.instant()).lastUpdatedTime(test.clock.instant()).build());
    }

    private void server(String id) {
        test.servers.register(GameServer.builder().gameServerGroupName("arena").gameServerId(id).instanceId(INSTANCE)
                .connectionInfo("10.0.0.1:" + (7000 + id.hashCode() % 100)).registrationTime(test.clock.instant())
                .lastHealthCheckTime(test.clock.instant()).instanceStatus(InstanceStatus.ACTIVE)
                .instanceLaunchTime(test.clock.instant()).build(), 4, 16);
    }

    private APIGatewayV2HTTPResponse post(String group, String body, String caller) {
        return create.handleRequest(RestEvents.event("POST", "/game-server-groups/" + group + "/sessions",
                Map.of("GameServerGroupName", group), null, body, caller), null);
    }

    private APIGatewayV2HTTPResponse get(String group, String id, String caller) {
        return describe.handleRequest(RestEvents.event("GET", "/game-server-groups/" + group + "/sessions/" + id,
                Map.of("GameServerGroupName", group, "SessionId", id), null, null, caller), null);
    }

    private static String body(String cookie, String players) {
        return "{\"SessionId\":\"" + ID + "\",\"SessionCookie\":\"" + cookie + "\",\"InitialPlayers\":" + players + "}";
    }

    private long claimed() {
        return test.servers.listAll("arena").stream().filter(s -> s.isClaimedAt(test.clock.instant())).count();
    }

    @Test
    void aSessionClaimsOneServerAndARetryAnswersTheSameServerClaimingNothing() {
        JsonNode session = RestEvents.ok(post("arena", body("map=dust", "[\"p1\",\"p2\"]"), MATCHMAKER)).get("Session");

        assertThat(session.get("SessionId").asText()).isEqualTo(ID);
        assertThat(session.get("State").asText()).isEqualTo("CLAIMED");
        assertThat(session.get("SessionCookie").asText()).isEqualTo("map=dust");
        assertThat(session.get("InitialPlayers").toString()).isEqualTo("[\"p1\",\"p2\"]");
        String server = session.get("GameServerId").asText();
        JsonNode gameServer = session.get("GameServer");
        assertThat(gameServer.get("GameServerId").asText()).isEqualTo(server);
        assertThat(gameServer.get("InstanceId").asText()).isEqualTo(INSTANCE);
        assertThat(gameServer.get("ConnectionInfo").asText()).startsWith("10.0.0.1:");
        assertThat(gameServer.get("ClaimStatus").asText()).isEqualTo("CLAIMED");
        assertThat(session.has("Ports")).as("its agent named none").isFalse();
        assertThat(claimed()).isEqualTo(1);

        test.clock.advance(Duration.ofSeconds(5));
        JsonNode again = RestEvents.ok(post("arena", body("map=dust", "[\"p1\",\"p2\"]").replace(ID, ID.toUpperCase()),
                MATCHMAKER)).get("Session");
        assertThat(again.get("SessionId").asText()).as("one UUID, whatever its case").isEqualTo(ID);
        assertThat(again.get("GameServerId").asText()).isEqualTo(server);
        assertThat(again.get("CreationTime")).isEqualTo(session.get("CreationTime"));
        assertThat(claimed()).as("the retry claimed nothing").isEqualTo(1);
    }

    @Test
    void theClaimsNoticeToTheServersAgentCarriesTheSessionOnceAndARetrySendsNone() {
        test.servers.setPushConnection(INSTANCE, "conn-1");
        RestEvents.ok(post("arena", body("map=dust", "[\"p1\"]"), MATCHMAKER));
        RestEvents.ok(post("arena", body("map=dust", "[\"p1\"]"), MATCHMAKER));

        assertThat(test.notifier.delivered()).singleElement().satisfies(notice -> {
            assertThat(notice.action()).isEqualTo("claimed");
            assertThat(notice.connectionId()).isEqualTo("conn-1");
            assertThat(notice.session().orElseThrow().sessionId()).isEqualTo(ID);
            assertThat(notice.session().orElseThrow().request().sessionCookie()).isEqualTo("map=dust");
            assertThat(notice.session().orElseThrow().request().initialPlayers()).containsExactly("p1");
        });
    }

    @Test
    void aSessionIdReusedWithOtherMembersIsAConflictNamingTheMemberAndChangesNothing() {
        RestEvents.ok(post("arena", body("c", "[\"p1\"]"), MATCHMAKER));

        assertConflict(post("arena", body("other", "[\"p1\"]"), MATCHMAKER), "SessionCookie");
        assertConflict(post("arena", body("c", "[\"p1\",\"p2\"]"), MATCHMAKER), "InitialPlayers");
        assertConflict(post("arena", "{\"SessionId\":\"" + ID + "\",\"SessionCookie\":\"c\",\"InitialPlayers\":[\"p1\"],"
                + "\"FilterOption\":{\"InstanceStatuses\":[\"ACTIVE\"]}}", MATCHMAKER), "FilterOption");
        assertConflict(post("other", body("c", "[\"p1\"]"), MATCHMAKER), "GameServerGroupName");
        assertThat(claimed()).isEqualTo(1);
    }

    private static void assertConflict(APIGatewayV2HTTPResponse response, String member) {
        assertThat(response.getStatusCode()).isEqualTo(409);
        assertThat(response.getBody()).contains("ConflictException", "another " + member);
    }

    @Test
    void noServerIsOutOfCapacityWithNoSessionStoredSoARetryMayClaim() {
        RestEvents.ok(post("arena", body("a", "[]").replace(ID, "00000000-0000-4000-8000-000000000001"), MATCHMAKER));
        RestEvents.ok(post("arena", body("a", "[]").replace(ID, "00000000-0000-4000-8000-000000000002"), MATCHMAKER));

        APIGatewayV2HTTPResponse none = post("arena", body("a", "[]"), MATCHMAKER);
        assertThat(none.getStatusCode()).isEqualTo(409);
        assertThat(none.getBody()).contains("OutOfCapacityException");
        assertThat(get("arena", ID, MATCHMAKER).getStatusCode()).as("no session stored").isEqualTo(404);

        server("gs-3");
        assertThat(RestEvents.ok(post("arena", body("a", "[]"), MATCHMAKER)).get("Session").get("GameServerId").asText())
                .isEqualTo("gs-3");
    }

    @Test
    void badInputIsA400NamingTheMemberBeforeAnythingIsClaimed() {
        assertBad(post("arena", "{}", MATCHMAKER), "SessionId: is required");
        assertBad(post("arena", "{\"SessionId\":\"not-a-uuid\"}", MATCHMAKER), "SessionId: must be a UUID");
        assertBad(post("arena", body("x".repeat(4097), "[]"), MATCHMAKER), "SessionCookie: must be at most 4096 bytes");
        assertBad(post("arena", body("\u00e9".repeat(2049), "[]"), MATCHMAKER), "not 4098");
        String many = "[" + String.join(",", java.util.Collections.nCopies(101, "\"p\"")) + "]";
        assertBad(post("arena", body("c", many), MATCHMAKER), "InitialPlayers: must hold at most 100 player ids");
        assertBad(post("arena", body("c", "[\"p1\",\"" + "p".repeat(129) + "\"]"), MATCHMAKER), "InitialPlayers[1]:");
        assertBad(post("arena", body("c", "[3]"), MATCHMAKER), "InitialPlayers[0]:");
        assertBad(post("arena", "{\"SessionId\":\"" + ID + "\",\"GameServerData\":\"x\"}", MATCHMAKER),
                "GameServerData: is not a member");
        assertBad(post("arena", "{\"SessionId\":\"" + ID + "\",\"FilterOption\":{\"InstanceStatuses\":[\"DRAINING\"]}}",
                MATCHMAKER), "must contain ACTIVE");
        assertBad(post("arena", "{\"SessionId\":\"" + ID + "\",\"FilterOption\":{\"InstanceStatuses\":[\"SLEEPING\"]}}",
                MATCHMAKER), "FilterOption");
        assertBad(get("arena", "not-a-uuid", MATCHMAKER), "SessionId: must be a UUID");
        assertThat(claimed()).isZero();
        RestEvents.ok(post("arena", body("x".repeat(4096), many.replace(",\"p\"]", "]")), MATCHMAKER));
    }

    private static void assertBad(APIGatewayV2HTTPResponse response, String message) {
        assertThat(response.getStatusCode()).as(response.getBody()).isEqualTo(400);
        assertThat(response.getBody()).contains(message);
    }

    /** The server's process as its agent reports it with its health: StandingBy, with its named ports. */
    private void reportsPorts(String server, int gamePort) {
        ProcessReport standingBy = new ProcessReport(ProcessState.StandingBy, 0, List.of(), 0, 0, null,
                Map.of("game", gamePort, "query", gamePort + 1000));
        test.servers.setHealthLease("arena", server, INSTANCE, new HealthLease(test.clock.instant().plusSeconds(600),
                Optional.of(test.clock.instant()), "conn-1", Optional.of(new ReportedProcess(standingBy,
                        test.clock.instant(), test.clock.instant(), test.clock.instant().plusSeconds(86_400)))));
    }

    @Test
    void aSessionAnswersTheNamedPortsItsServersAgentReportedUntilItEnds() {
        reportsPorts("gs-1", 7001);
        reportsPorts("gs-2", 7002);
        JsonNode session = RestEvents.ok(post("arena", body("c", "[]"), MATCHMAKER)).get("Session");
        int game = session.get("GameServerId").asText().equals("gs-1") ? 7001 : 7002;
        assertThat(session.get("Ports").toString()).isEqualTo("{\"game\":" + game + ",\"query\":" + (game + 1000) + "}");
        assertThat(RestEvents.ok(get("arena", ID, MATCHMAKER)).get("Session").get("Ports")).isEqualTo(session.get("Ports"));

        test.servers.deregister("arena", session.get("GameServerId").asText(), Optional.empty());
        assertThat(RestEvents.ok(get("arena", ID, MATCHMAKER)).get("Session").has("Ports")).as("ended: no server's").isFalse();
    }

    @Test
    void aSessionIsClaimedThenActiveWithItsServersPlayersThenEndedWithItsServer() {
        String server = RestEvents.ok(post("arena", body("c", "[\"p1\"]"), MATCHMAKER)).get("Session")
                .get("GameServerId").asText();
        assertThat(state(get("arena", ID, MATCHMAKER))).isEqualTo("CLAIMED");

        test.servers.update("arena", server, Optional.empty(),
                new ServerUpdate(Optional.empty(), Optional.of(UtilizationStatus.UTILIZED), Optional.empty()));
        ProcessReport active = new ProcessReport(ProcessState.Active, 2, List.of("p1", "p7"), 0, 0, null);
        test.servers.setHealthLease("arena", server, INSTANCE, new HealthLease(test.clock.instant().plusSeconds(600),
                Optional.of(test.clock.instant()), "conn-1", Optional.of(new ReportedProcess(active,
                        test.clock.instant(), test.clock.instant(), test.clock.instant().plusSeconds(86_400)))));
        test.clock.advance(Duration.ofMinutes(5));
        JsonNode session = RestEvents.ok(get("arena", ID, MATCHMAKER)).get("Session");
        assertThat(session.get("State").asText()).as("past the claim TTL, UTILIZED").isEqualTo("ACTIVE");
        assertThat(session.get("ConnectedPlayers").asInt()).isEqualTo(2);
        assertThat(session.get("PlayerIds").toString()).isEqualTo("[\"p1\",\"p7\"]");
        assertThat(session.get("GameServer").get("UtilizationStatus").asText()).isEqualTo("UTILIZED");

        test.servers.deregister("arena", server, Optional.empty());
        JsonNode ended = RestEvents.ok(get("arena", ID, MATCHMAKER)).get("Session");
        assertThat(ended.get("State").asText()).isEqualTo("ENDED");
        assertThat(ended.get("GameServerId").asText()).isEqualTo(server);
        assertThat(ended.has("GameServer")).isFalse();
        assertThat(ended.has("ConnectedPlayers")).isFalse();
        assertThat(post("arena", body("c", "[\"p1\"]"), MATCHMAKER).getStatusCode()).as("an ended session answers")
                .isEqualTo(200);
        assertThat(claimed()).as("and claims nothing").isZero();
    }

    @Test
    void aClaimThatLapsesUnusedEndsItsSession() {
        RestEvents.ok(post("arena", body("c", "[]"), MATCHMAKER));
        test.clock.advance(Duration.ofSeconds(59));
        assertThat(state(get("arena", ID, MATCHMAKER))).isEqualTo("CLAIMED");
        test.clock.advance(Duration.ofSeconds(1));
        assertThat(state(get("arena", ID, MATCHMAKER))).isEqualTo("ENDED");
    }

    private static String state(APIGatewayV2HTTPResponse response) {
        return RestEvents.ok(response).get("Session").get("State").asText();
    }

    @Test
    void anUnknownSessionOrOneOfAnotherGroupIsNotFoundAndAGameServerIsRefused() {
        APIGatewayV2HTTPResponse unknown = get("arena", ID, MATCHMAKER);
        assertThat(unknown.getStatusCode()).isEqualTo(404);
        assertThat(RestEvents.json(unknown).get("__type").asText()).isEqualTo("NotFoundException");
        RestEvents.ok(post("arena", body("c", "[]"), MATCHMAKER));
        assertThat(get("other", ID, MATCHMAKER).getStatusCode()).isEqualTo(404);
        assertThat(get("arena", ID, RestEvents.session(Role.ADMIN, "alice")).getStatusCode()).isEqualTo(200);

        String gameServer = RestEvents.session(Role.GAME_SERVER, INSTANCE);
        APIGatewayV2HTTPResponse refused = post("arena", body("c", "[]").replace(ID, "00000000-0000-4000-8000-000000000009"),
                gameServer);
        assertThat(refused.getStatusCode()).isEqualTo(403);
        assertThat(refused.getBody()).contains("UnauthorizedException");
        assertThat(get("arena", ID, gameServer).getStatusCode()).isEqualTo(403);
        assertThat(claimed()).isEqualTo(1);
    }

    // ---- ListSessions ----

    private APIGatewayV2HTTPResponse list(String group, Map<String, String> query, String caller) {
        return list.handleRequest(RestEvents.event("GET", "/game-server-groups/" + group + "/sessions",
                Map.of("GameServerGroupName", group), query, null, caller), null);
    }

    @Test
    void aListingAnswersTheGroupsSessionsNewestFirstEachAsDescribeSessionDoesInPages() {
        String second = "00000000-0000-4000-8000-000000000002";
        RestEvents.ok(post("arena", body("c", "[\"p1\"]"), MATCHMAKER));
        test.clock.advance(Duration.ofSeconds(1));
        RestEvents.ok(post("arena", body("d", "[]").replace(ID, second), MATCHMAKER));

        JsonNode first = RestEvents.ok(list("arena", Map.of("Limit", "1"), MATCHMAKER));
        assertThat(first.get("Sessions")).singleElement()
                .isEqualTo(RestEvents.ok(get("arena", second, MATCHMAKER)).get("Session"));
        JsonNode next = RestEvents.ok(list("arena", Map.of("Limit", "1", "NextToken", first.get("NextToken").asText()),
                RestEvents.session(Role.ADMIN, "alice")));
        assertThat(next.get("Sessions")).singleElement().satisfies(s -> {
            assertThat(s.get("SessionId").asText()).isEqualTo(ID);
            assertThat(s.get("SessionCookie").asText()).isEqualTo("c");
            assertThat(s.get("State").asText()).isEqualTo("CLAIMED");
        });
        JsonNode all = RestEvents.ok(list("arena", null, MATCHMAKER));
        assertThat(all.get("Sessions")).extracting(s -> s.get("SessionId").asText()).containsExactly(second, ID);
        assertThat(all.has("NextToken")).isFalse();
        assertThat(RestEvents.ok(list("other", null, MATCHMAKER)).get("Sessions")).isEmpty();
    }

    @Test
    void aListingsBadQueryIsA400NamingTheMemberAnUnknownGroup404AndAGameServerIsRefused() {
        assertBad(list("arena", Map.of("Limit", "0"), MATCHMAKER), "Limit: must be 1 to 100, got 0");
        assertBad(list("arena", Map.of("Limit", "101"), MATCHMAKER), "Limit: must be 1 to 100, got 101");
        assertBad(list("arena", Map.of("Limit", "ten"), MATCHMAKER), "Limit: must be an integer");
        assertBad(list("arena", Map.of("NextToken", "forged"), MATCHMAKER), "NextToken is not a token this listing issued");
        assertBad(list("arena", Map.of("NextToken", "x".repeat(1025)), MATCHMAKER), "NextToken");
        assertBad(list("arena", Map.of("SortOrder", "ASCENDING"), MATCHMAKER),
                "SortOrder: is not a query parameter of ListSessions; it takes [Limit, NextToken]");
        assertBad(list("bad name!", null, MATCHMAKER), "GameServerGroupName");
        assertBad(describe.handleRequest(RestEvents.event("GET", "/game-server-groups/arena/sessions/" + ID,
                Map.of("GameServerGroupName", "arena", "SessionId", ID), Map.of("Limit", "1"), null, MATCHMAKER), null),
                "DescribeSession takes no query parameter");
        // a token of another group's listing is not this one's
        RestEvents.ok(post("arena", body("c", "[]"), MATCHMAKER));
        String arenas = RestEvents.ok(list("arena", Map.of("Limit", "1"), MATCHMAKER)).get("NextToken").asText();
        assertBad(list("other", Map.of("NextToken", arenas), MATCHMAKER), "NextToken is not a token this listing issued");

        APIGatewayV2HTTPResponse unknown = list("no-such-group", null, MATCHMAKER);
        assertThat(unknown.getStatusCode()).isEqualTo(404);
        assertThat(RestEvents.json(unknown).get("__type").asText()).isEqualTo("NotFoundException");
        assertThat(list("arena", null, RestEvents.session(Role.GAME_SERVER, INSTANCE)).getStatusCode()).isEqualTo(403);
    }

    @Test
    void aSessionAnswersItsRegionAndOnePlacedInAPeerIsAnsweredAsThePeerAnsweredIt() {
        assertThat(RestEvents.ok(post("arena", body("c", "[]"), MATCHMAKER)).get("Session").get("Region").asText())
                .isEqualTo("us-east-1");

        String other = "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f";
        String peerAnswer = "{\"Session\":{\"SessionId\":\"" + other + "\",\"Region\":\"eu-west-1\",\"GameServerId\":\"eu-1\"}}";
        test.peers.add("eu-west-1", request -> new PeerRegions.Answer.Placed("eu-1", peerAnswer));
        String preferring = "{\"SessionId\":\"" + other + "\",\"PreferredRegions\":[\"eu-west-1\",\"us-east-1\"]}";

        assertThat(RestEvents.ok(post("arena", preferring, MATCHMAKER)).toString()).isEqualTo(peerAnswer);
        assertThat(claimed()).as("only the first session's server, here").isEqualTo(1);
        assertThat(test.peers.asked).singleElement().satisfies(a -> {
            assertThat(a.region()).isEqualTo("eu-west-1");
            assertThat(a.request().gameServerGroupName()).isEqualTo("arena");
        });
    }

    @Test
    void placementMembersOutsideTheirShapesAreRefused400NamingThemWithNothingClaimed() {
        test.peers.add("eu-west-1", request -> new PeerRegions.Answer.Refused("unused"));
        Map<String, String> refusals = Map.of(
                "\"PreferredRegions\":\"eu-west-1\"", "PreferredRegions: must be a list",
                "\"PreferredRegions\":[\"Europe\"]", "PreferredRegions[0]: must be an AWS region's name",
                "\"PreferredRegions\":[\"ap-south-1\"]", "PreferredRegions[0]: ap-south-1 is not a region of this deployment",
                "\"Latencies\":{\"eu-west-1\":-1}", "Latencies.eu-west-1: must be a whole number of milliseconds",
                "\"Latencies\":[20]", "Latencies: must be an object",
                "\"MaxLatencyMs\":50", "MaxLatencyMs: is a cap on Latencies, which are not given",
                "\"Latencies\":{\"eu-west-1\":90},\"MaxLatencyMs\":50", "MaxLatencyMs: no region is measured at or under 50 ms");
        refusals.forEach((member, message) -> {
            APIGatewayV2HTTPResponse refused = post("arena", "{\"SessionId\":\"" + ID + "\"," + member + "}", MATCHMAKER);
            assertThat(refused.getStatusCode()).as(member).isEqualTo(400);
            assertThat(refused.getBody()).as(member).contains(message);
        });
        assertThat(claimed()).isZero();
        assertThat(test.peers.asked).isEmpty();
    }
}

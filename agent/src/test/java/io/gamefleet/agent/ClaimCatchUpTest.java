package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A claim whose notice was posted while the push channel was closed, found again when it opens. */
class ClaimCatchUpTest {
    @TempDir Path work;

    private static final String SESSION_ID = "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b";

    private static ClaimCatchUp catchUp(AgentFixture a) {
        return catchUp(a, ClaimCatchUp.ServerSessions.NONE);
    }

    private static ClaimCatchUp catchUp(AgentFixture a, ClaimCatchUp.ServerSessions sessions) {
        return new ClaimCatchUp(a.api, sessions, a.supervisor, Runnable::run, a.config.timings().claimTtl(),
                new AgentLog(a.clock, a.log::add));
    }

    /** DescribeGameServerSession of {@code gamefleet}, signed as the instance's credentials sign it. */
    private static SessionRoute route(FakeGamefleet gamefleet) {
        return new SessionRoute(java.net.URI.create("http://127.0.0.1:" + gamefleet.port() + "/prod"), "g", "us-east-1",
                software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("key-1", "secret")),
                software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create());
    }

    /** A claim found while the channel was closed is a session's: the GSDK gets its id, cookie and players, as its notice would have. */
    @Test
    void aSessionsClaimIsToldActiveWithTheSessionsIdCookieAndInitialPlayersTheRouteAnswers() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.standingBy(0);
        a.api.claims.put(s.gameServerId, new FleetApi.Claim("data", a.clock.instant()));
        try (FakeGamefleet gamefleet = new FakeGamefleet().start()) {
            gamefleet.sessions.put(s.gameServerId, "{\"SessionId\":\"" + SESSION_ID
                    + "\",\"SessionCookie\":\"map=dust2\",\"InitialPlayers\":[\"p1\",\"p2\"]}");

            catchUp(a, route(gamefleet)).run();

            com.fasterxml.jackson.databind.JsonNode session = a.reply(s, GameState.StandingBy).path("sessionConfig");
            assertThat(a.reply(s, GameState.StandingBy).path("operation").asText()).isEqualTo("Active");
            assertThat(session.path("sessionId").asText()).isEqualTo(SESSION_ID);
            assertThat(session.path("sessionCookie").asText()).as("the session's, not GameServerData").isEqualTo("map=dust2");
            assertThat(session.path("initialPlayers").toString()).isEqualTo("[\"p1\",\"p2\"]");
            assertThat(gamefleet.sessionReads).singleElement().asString()
                    .startsWith("GET /prod/game-server-groups/g/game-servers/" + s.gameServerId + "/session AWS4-HMAC-SHA256 "
                            + "Credential=key-1/").contains("/us-east-1/execute-api/aws4_request");
        }
    }

    /** No session (a ClaimGameServer's claim: 404) or a route that fails: told Active as before, with GameServerData. */
    @Test
    void aClaimThatIsNoSessionsOrASessionRouteThatFailsIsToldActiveWithTheClaimsDataAlone() throws Exception {
        AgentFixture a = new AgentFixture(work);
        a.tick();
        ServerRecord plain = a.standingBy(0);
        ServerRecord failing = a.standingBy(1);
        a.api.claims.put(plain.gameServerId, new FleetApi.Claim("map=dust", a.clock.instant()));
        try (FakeGamefleet gamefleet = new FakeGamefleet().start()) {
            ClaimCatchUp catchUp = catchUp(a, id -> {
                gamefleet.sessionsFailing = id.equals(failing.gameServerId);
                return route(gamefleet).of(id);
            });
            catchUp.run();
            a.api.claims.put(failing.gameServerId, new FleetApi.Claim("map=nuke", a.clock.instant()));
            catchUp.run();

            assertThat(gamefleet.sessionReads).hasSize(2);
        }
        for (ServerRecord s : java.util.List.of(plain, failing)) {
            com.fasterxml.jackson.databind.JsonNode reply = a.reply(s, GameState.StandingBy);
            assertThat(reply.path("operation").asText()).isEqualTo("Active");
            assertThat(reply.path("sessionConfig").path("sessionCookie").asText()).startsWith("map=");
            assertThat(reply.path("sessionConfig").path("initialPlayers").isEmpty()).isTrue();
        }
        assertThat(a.log).anyMatch(l -> l.contains(plain.gameServerId + ": its claim is no session's"));
        assertThat(a.log).anyMatch(l -> l.contains("WARN " + failing.gameServerId + ": cannot read the session of its claim"
                + " (DescribeGameServerSession answered 500"));
    }

    @Test
    void aServerStillClaimedIsToldActiveWithTheClaimsData() throws Exception {
        AgentFixture a = new AgentFixture(work);
        a.tick();
        ServerRecord claimed = a.standingBy(0);
        ServerRecord notClaimed = a.standingBy(1);
        a.api.claims.put(claimed.gameServerId, new FleetApi.Claim("map=dust", Instant.parse("2026-12-01T09:59:59Z")));

        catchUp(a).run();

        assertThat(a.reply(claimed, GameState.StandingBy).path("operation").asText()).isEqualTo("Active");
        assertThat(a.reply(claimed, GameState.StandingBy).path("sessionConfig").path("sessionCookie").asText())
                .isEqualTo("map=dust");
        assertThat(a.reply(notClaimed, GameState.StandingBy).path("operation").asText()).isEqualTo("Continue");
        a.tick();
        assertThat(a.api.registered.get(claimed.gameServerId)).isEqualTo("UTILIZED");
    }

    @Test
    void onlyTheRegisteredStandingByServersNoClaimReachedAreAsked() throws Exception {
        AgentFixture a = new AgentFixture(work);
        a.tick();
        ServerRecord active = a.standingBy(0);
        a.claim(active, null);
        a.reply(active, GameState.StandingBy);
        ServerRecord starting = a.server(1);
        a.reply(starting, GameState.Initializing);

        catchUp(a).run();

        assertThat(a.api.count("describe")).isZero();
    }

    @Test
    void aCaughtUpClaimEndsWhenTheClaimDoesItsLastClaimTimePlusTheClaimTtl() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1, \"timings\": {\"claimTtlSeconds\": 45}}", true);
        a.tick();
        ServerRecord s = a.reportsStandingBy(0);
        a.runApiCalls();
        Instant claimedAt = a.clock.instant().minusSeconds(10);
        a.api.claims.put(s.gameServerId, new FleetApi.Claim("map=dust", claimedAt));
        catchUp(a).run();
        assertThat(s.claim.claimedAt()).isEqualTo(claimedAt);
        assertThat(s.claim.claimExpiresAt()).isEqualTo(claimedAt.plusSeconds(45));
    }

    @Test
    void aClaimMadeLongerAgoThanTheClaimTtlIsNotToldNorUtilized() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.standingBy(0);
        a.api.claims.put(s.gameServerId, new FleetApi.Claim(null, a.clock.instant().minusSeconds(61)));
        catchUp(a).run();
        a.tick();
        assertThat(a.reply(s, GameState.StandingBy).path("operation").asText()).isEqualTo("Continue");
        assertThat(a.api.registered).containsEntry(s.gameServerId, "AVAILABLE");
        assertThat(a.log).anyMatch(l -> l.contains(s.gameServerId + ": claim notice came after the claim lapsed"));
    }

    @Test
    void anUnreachableApiLeavesTheClaimToLapseAndSaysSo() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.standingBy(0);
        a.api.claims.put(s.gameServerId, new FleetApi.Claim(null, a.clock.instant()));
        a.api.down = true;
        catchUp(a).run();
        assertThat(a.reply(s, GameState.StandingBy).path("operation").asText()).isEqualTo("Continue");
        assertThat(a.log).anyMatch(l -> l.contains("WARN " + s.gameServerId + ": cannot check for a claim made while"));
    }
}

package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;

/** The push channel's notices, as the contract words them, handed to the supervisor. */
class PushConnectionTest {
    @TempDir Path work;

    private static PushConnection channel(AgentFixture a) {
        return a.pushConnection(java.net.URI.create("ws://127.0.0.1:1/push"), AnonymousCredentialsProvider.create(),
                Executors.newSingleThreadScheduledExecutor(), Duration.ofMinutes(5));
    }

    @Test
    void claimedAndTerminateNoticesReachTheirServer() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.standingBy(0);
        PushConnection push = channel(a);
        push.deliver("{\"action\":\"claimed\",\"gameServerGroupName\":\"g\",\"gameServerId\":\"" + s.gameServerId
                + "\",\"gameServerData\":null,\"claimedAt\":\"2026-12-01T10:00:00Z\",\"claimExpiresAt\":\"2026-12-01T10:01:00Z\"}");
        assertThat(a.reply(s, GameState.StandingBy).path("operation").asText()).isEqualTo("Active");
        assertThat(a.reply(s, GameState.StandingBy).path("sessionConfig").has("sessionCookie")).isFalse();
        push.deliver("{\"action\":\"terminate\",\"gameServerGroupName\":\"g\",\"gameServerId\":\"" + s.gameServerId
                + "\",\"reason\":\"operator\"}");
        assertThat(a.reply(s, GameState.Active).path("operation").asText()).isEqualTo("Terminate");
    }

    /** A session's claim: the GSDK gets its id, cookie and initial players (not a made-up id and an empty list). */
    @Test
    void aSessionsClaimedNoticeHandsTheGsdkItsIdCookieAndInitialPlayers() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.standingBy(0);
        channel(a).deliver(sessionNotice(s.gameServerId));

        JsonNode session = a.reply(s, GameState.StandingBy).path("sessionConfig");
        assertThat(session.path("sessionId").asText()).isEqualTo("3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b");
        assertThat(session.path("sessionCookie").asText()).as("the session's, not GameServerData").isEqualTo("map=dust2");
        assertThat(session.path("initialPlayers").toString()).isEqualTo("[\"p1\",\"p2\"]");
        assertThat(a.reply(s, GameState.StandingBy).path("sessionConfig").path("sessionId").asText())
                .as("the same id on every Active reply").isEqualTo("3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b");
    }

    static String sessionNotice(String gameServerId) {
        return "{\"action\":\"claimed\",\"gameServerGroupName\":\"g\",\"gameServerId\":\"" + gameServerId
                + "\",\"gameServerData\":\"data\",\"claimedAt\":\"2026-12-01T10:00:00Z\",\"claimExpiresAt\":\"2026-12-01T10:01:00Z\","
                + "\"session\":{\"sessionId\":\"3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b\",\"sessionCookie\":\"map=dust2\","
                + "\"initialPlayers\":[\"p1\",\"p2\"]}}";
    }

    @Test
    void noticesOfAnotherGroupPongsAndUnknownActionsAreLetGo() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.standingBy(0);
        PushConnection push = channel(a);
        push.deliver("{\"action\":\"terminate\",\"gameServerGroupName\":\"other\",\"gameServerId\":\"" + s.gameServerId + "\"}");
        push.deliver("{\"action\":\"pong\"}");
        push.deliver("{\"action\":\"reboot\",\"gameServerId\":\"" + s.gameServerId + "\"}");
        assertThat(a.reply(s, GameState.StandingBy).path("operation").asText()).isEqualTo("Continue");
        assertThatThrownBy(() -> push.deliver("not json")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRefusalSendsTheNextHealthPeriodThroughTheApiAndAClosedChannelSendsNothing() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1, \"timings\": {\"healthPeriodSeconds\": 30}}");
        PushConnection push = channel(a);
        assertThat(push.send("{\"action\":\"health\"}")).as("not connected").isFalse();
        HealthReportTest.Channel open = new HealthReportTest.Channel();
        a.supervisor.healthChannel(open);
        a.tick();
        ServerRecord s = a.standingBy(0);
        a.advance(1);
        assertThat(open.sent).hasSize(1);
        push.deliver("{\"__type\":\"UnauthorizedException\",\"Message\":\"game server gs-1 is not on this push"
                + " connection's instance\"}");
        a.beatFor(s, GameState.StandingBy, 30);
        assertThat(open.sent).hasSize(1);
        assertThat(a.api.count("update " + s.gameServerId + " HEALTHY")).isEqualTo(1);
        assertThat(a.log).anyMatch(l -> l.contains("push channel refused a health report (UnauthorizedException"));
        push.deliver("{\"message\": \"Internal server error\", \"connectionId\": \"c-1\"}"); // API Gateway's own
        a.beatFor(s, GameState.StandingBy, 30);
        assertThat(a.api.count("update " + s.gameServerId + " HEALTHY")).isEqualTo(2);
    }

    @Test
    void itSignsItsConnectPingsAndReconnectsWhenTheConnectionCloses() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        try (FakeGamefleet gamefleet = new FakeGamefleet().start()) {
            java.util.concurrent.ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
            java.util.concurrent.atomic.AtomicInteger opens = new java.util.concurrent.atomic.AtomicInteger();
            try {
                PushConnection push = a.pushConnection(java.net.URI.create("ws://127.0.0.1:" + gamefleet.port() + "/push"),
                        software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                                software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("key-1", "secret")),
                        scheduler, Duration.ofSeconds(30));
                push.onOpen(opens::incrementAndGet).start();
                ChildJvm.await("open", () -> gamefleet.pushOpen() && push.open()); // its pings count from the agent's open
                a.clock.advanceSeconds(30);
                ChildJvm.await("a ping", () -> gamefleet.pushReceived.contains("{\"action\":\"ping\"}"));
                String report = "{\"action\":\"health\",\"gameServerGroupName\":\"g\",\"gameServers\":[]}";
                for (int i = 0; i < 20; i++) {
                    assertThat(push.send(report)).isTrue(); // one at a time on the socket, however many are given
                }
                ChildJvm.await("the reports", () -> gamefleet.pushReceived.stream().filter(report::equals).count() == 20);
                gamefleet.closePushConnections();
                ChildJvm.await("open again", () -> gamefleet.pushConnects.size() == 2 && gamefleet.pushOpen());
                ChildJvm.await("the catch-up of each open", () -> opens.get() == 2);
                assertThat(gamefleet.pushConnects.get(1).get("authorization"))
                        .startsWith("AWS4-HMAC-SHA256 Credential=key-1/").contains("/us-east-1/execute-api/aws4_request");
            } finally {
                scheduler.shutdownNow();
            }
        }
    }
    /**
     * A new instance's first connect is refused until its first registration records it: that
     * registration connects the channel at once, not at the backoff's end (ten minutes here), so
     * that the claims of its servers find it open.
     */
    @Test
    void aRegistrationWhileTheChannelWaitsOutItsBackoffConnectsItAtOnce() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 2}");
        java.util.concurrent.ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try (FakeGamefleet gamefleet = new FakeGamefleet().start()) {
            gamefleet.pushRefused = true; // the instance is not recorded yet
            PushConnection push = a.pushConnection(java.net.URI.create("ws://127.0.0.1:" + gamefleet.port() + "/push"),
                    AnonymousCredentialsProvider.create(), scheduler, Duration.ofSeconds(30),
                    new Backoff(Duration.ofMinutes(10), Duration.ofMinutes(40), Backoff.NO_JITTER));
            a.supervisor.healthChannel(push);
            push.start();
            ChildJvm.await("the refused connect", () -> a.log.stream().anyMatch(l -> l.contains("reconnecting in 600000 ms")));
            a.tick();

            a.standingBy(0); // RegisterGameServer goes through: the instance is recorded
            ChildJvm.await("a connect at once", () -> gamefleet.pushConnects.size() == 2);
            ChildJvm.await("refused again: the backoff holds", () -> a.log.stream()
                    .anyMatch(l -> l.contains("reconnecting in 1200000 ms")));
            assertThat(a.log).anyMatch(l -> l.contains("push channel: a registration recorded the instance; connecting now"));

            gamefleet.pushRefused = false;
            a.standingBy(1);
            assertThat(push.open()).as("once a closed spell: the second registration waits the backoff's turn").isFalse();
            assertThat(gamefleet.pushConnects).hasSize(2);
        } finally {
            scheduler.shutdownNow();
        }
    }

    /** A registration after the instance's first connect opened changes nothing of the channel. */
    @Test
    void aRegistrationWhileTheChannelIsOpenConnectsNothingMore() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        java.util.concurrent.ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try (FakeGamefleet gamefleet = new FakeGamefleet().start()) {
            PushConnection push = a.pushConnection(java.net.URI.create("ws://127.0.0.1:" + gamefleet.port() + "/push"),
                    AnonymousCredentialsProvider.create(), scheduler, Duration.ofSeconds(30));
            a.supervisor.healthChannel(push);
            push.start();
            ChildJvm.await("open", push::open);
            a.tick();
            a.standingBy(0);
            push.instanceRecorded();
            assertThat(gamefleet.pushConnects).hasSize(1);
            assertThat(push.open()).isTrue();
        } finally {
            scheduler.shutdownNow();
        }
    }

    /** The agent's push connection through a proxy to a stand-in push endpoint, its health channel, pinging every 10 s. */
    private PushConnection throughProxy(AgentFixture a, TcpProxy proxy, java.util.concurrent.ScheduledExecutorService scheduler) {
        PushConnection push = a.pushConnection(java.net.URI.create("ws://127.0.0.1:" + proxy.port() + "/push"),
                software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("key-1", "secret")),
                scheduler, Duration.ofSeconds(10));
        a.supervisor.healthChannel(push);
        push.start();
        ChildJvm.await("open", push::open);
        return push;
    }

    @Test
    void aHalfOpenConnectionIsFoundWithinTwoPingsDroppedAndReopenedWhileTheHealthGoesThroughTheApi() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1, \"timings\": {\"healthPeriodSeconds\": 30, "
                + "\"heartbeatTimeoutSeconds\": 1000}}");
        java.util.concurrent.ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try (FakeGamefleet gamefleet = new FakeGamefleet().start(); TcpProxy proxy = new TcpProxy(gamefleet.port())) {
            PushConnection push = throughProxy(a, proxy, scheduler);
            a.tick();
            ServerRecord s = a.standingBy(0);
            a.tick();
            java.util.function.LongSupplier reports = () -> gamefleet.pushReceived.stream()
                    .filter(m -> m.contains("\"action\":\"health\"")).count();
            ChildJvm.await("a health report over the channel", () -> reports.getAsLong() == 1);
            a.clock.advanceSeconds(10);
            push.check();
            ChildJvm.await("the ping's pong", () -> a.clock.instant().equals(push.lastHeardAt()));

            proxy.stopForwarding(); // both sockets stay open: what is sent is swallowed
            proxy.accepting(false);
            a.clock.advanceSeconds(10);
            push.check(); // a ping, into the void
            a.clock.advanceSeconds(9.9);
            push.check();
            assertThat(push.open()).as("19.9 s since the last pong").isTrue();
            a.clock.advanceSeconds(0.1);
            push.check();
            assertThat(push.open()).as("two pings without a pong").isFalse();
            assertThat(a.log).anyMatch(l -> l.contains("WARN push channel: no pong within two pings (20.0 s): the connection is "
                    + "half-open; the health goes through the API meanwhile; reconnecting in 1000 ms"));

            a.beatFor(s, GameState.StandingBy, 1); // the next health period: 30 s after the last report
            assertThat(a.api.count("update " + s.gameServerId + " HEALTHY")).as("through the API meanwhile").isEqualTo(1);
            assertThat(reports.getAsLong()).isEqualTo(1);

            proxy.accepting(true);
            ChildJvm.await("open again", () -> push.open() && gamefleet.pushConnects.size() >= 2);
            a.beatFor(s, GameState.StandingBy, 30);
            ChildJvm.await("the next report over the new connection", () -> reports.getAsLong() == 2);
            assertThat(a.api.count("update " + s.gameServerId + " HEALTHY")).isEqualTo(1);
        } finally {
            scheduler.shutdownNow();
        }
    }

    @Test
    void aSendNotWrittenWithinAPingPeriodDropsTheConnection() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        java.util.concurrent.ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try (FakeGamefleet gamefleet = new FakeGamefleet().start(); TcpProxy proxy = new TcpProxy(gamefleet.port())) {
            PushConnection push = throughProxy(a, proxy, scheduler);
            proxy.stopReadingFromClient();
            proxy.accepting(false);
            String report = "{\"action\":\"health\",\"gameServerGroupName\":\"g\",\"gameServers\":[],\"pad\":\""
                    + "x".repeat(30_000) + "\"}";
            for (int i = 0; i < 1000; i++) { // 30 MB: more than the loopback's socket buffers hold
                assertThat(push.send(report)).isTrue();
            }
            a.clock.advanceSeconds(9.9);
            push.check();
            assertThat(push.open()).isTrue();
            a.clock.advanceSeconds(0.1);
            push.check();
            assertThat(push.open()).isFalse();
            assertThat(a.log).anyMatch(l -> l.contains("WARN push channel: a send not written within 10.0 s"));
        } finally {
            scheduler.shutdownNow();
        }
    }
}

package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
                ChildJvm.await("open", gamefleet::pushOpen);
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
}

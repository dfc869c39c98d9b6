package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The instance's one health report per period over the push channel, and the API as its fallback. */
class HealthReportTest {
    @TempDir Path work;
    private AgentFixture a;
    private final Channel channel = new Channel();

    /** The push channel as the supervisor sees it: open or not, and what it was given. */
    static final class Channel implements HealthChannel {
        final List<JsonNode> sent = new ArrayList<>();
        boolean open = true;

        @Override
        public boolean send(String text) {
            if (!open) {
                return false;
            }
            try {
                sent.add(AgentFixture.JSON.readTree(text));
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
            return true;
        }
    }

    @BeforeEach
    void twoServersStandingBy() throws Exception {
        a = new AgentFixture(work, "{\"processes\": 2, \"timings\": {\"healthPeriodSeconds\": 30}}");
        a.supervisor.healthChannel(channel);
        a.tick();
        a.standingBy(0);
        a.standingBy(1);
    }

    /** {@code seconds} of heartbeats of both servers, one a second; {@code healthy} is the second's. */
    private void run(int seconds, boolean secondHealthy) {
        for (int i = 0; i < seconds; i++) {
            a.advance(1);
            a.beat(a.server(0), a.server(0).state);
            a.supervisor.sessions().heartbeat(a.server(1).sessionHostId, new Heartbeat(a.server(1).state, secondHealthy, List.of()));
        }
        a.tick();
    }

    private static List<String> listed(JsonNode report) {
        List<String> ids = new ArrayList<>();
        report.path("gameServers").forEach(s -> ids.add(s.path("gameServerId").asText() + " " + s.path("healthCheck").asText()));
        return ids;
    }

    @Test
    void oneMessagePerPeriodListsEveryServerAndNoUpdateGameServerGoesOut() {
        run(300, true);
        assertThat(a.api.count("update")).isZero();
        assertThat(channel.sent).hasSize(11); // at 0 s (as the first registered), then every 30 s
        JsonNode report = channel.sent.get(channel.sent.size() - 1);
        assertThat(report.path("action").asText()).isEqualTo("health");
        assertThat(report.path("gameServerGroupName").asText()).isEqualTo("g");
        assertThat(listed(report)).containsExactly(a.server(0).gameServerId + " HEALTHY", a.server(1).gameServerId + " HEALTHY");
    }

    @Test
    void anUnhealthyProcessIsReportedUnhealthySoItsLeaseEndsAtOnce() {
        run(31, false);
        assertThat(listed(channel.sent.get(channel.sent.size() - 1)))
                .containsExactly(a.server(0).gameServerId + " HEALTHY", a.server(1).gameServerId + " UNHEALTHY");
    }

    @Test
    void whileTheChannelIsDownEachServerReportsThroughTheApiAndTheChannelTakesOverAgain() {
        run(5, true);
        channel.open = false;
        int before = channel.sent.size();
        run(60, true);
        assertThat(channel.sent).hasSize(before);
        assertThat(a.api.count("update " + a.server(0).gameServerId + " HEALTHY")).isEqualTo(2);
        assertThat(a.api.count("update " + a.server(1).gameServerId + " HEALTHY")).isEqualTo(2);
        channel.open = true;
        a.advance(0.1);
        assertThat(channel.sent).as("at once, not a period later").hasSize(before + 1);
        long updates = a.api.count("update");
        run(90, true);
        assertThat(a.api.count("update")).isEqualTo(updates);
    }

    @Test
    void aRefusedReportSendsTheNextPeriodThroughTheApiWhichRegistersAServerTheFleetLost() {
        run(5, true);
        String lost = a.server(1).gameServerId;
        a.api.operatorDeregisters(lost); // the health sweep took it while reports were refused, say
        a.supervisor.healthReportRefused("NotFoundException game server " + lost + " is not registered");
        int before = channel.sent.size();
        run(30, true);
        assertThat(channel.sent).as("this period through the API").hasSize(before);
        assertThat(a.api.count("update " + a.server(0).gameServerId + " HEALTHY")).isEqualTo(1);
        assertThat(a.api.calls).contains("update " + lost + " HEALTHY");
        assertThat(a.api.count("register " + lost)).as("registered again").isEqualTo(2);
        run(30, true);
        assertThat(channel.sent).as("then the channel again").hasSize(before + 1);
    }

    @Test
    void aClaimedServerIsMarkedUtilizedWithoutAHealthCheckWhichWouldEndItsLease() {
        a.claim(a.server(0), "map=dust");
        run(2, true);
        assertThat(a.api.calls).contains("update " + a.server(0).gameServerId + " UTILIZED")
                .doesNotContain("update " + a.server(0).gameServerId + " HEALTHY UTILIZED");
    }
}

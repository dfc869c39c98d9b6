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

    private static JsonNode process(JsonNode report, ServerRecord s) {
        for (JsonNode entry : report.path("gameServers")) {
            if (entry.path("gameServerId").asText().equals(s.gameServerId)) {
                return entry.path("process");
            }
        }
        throw new AssertionError(s.gameServerId + " is not in " + report);
    }

    private JsonNode last() {
        return channel.sent.get(channel.sent.size() - 1);
    }

    /** To the next report, the first server's last heartbeat before it naming {@code players}. */
    private void runWithPlayers(List<String> players) {
        run(29, true);
        a.supervisor.sessions().heartbeat(a.server(0).sessionHostId, new Heartbeat(GameState.StandingBy, true, players));
        a.advance(1);
    }

    @Test
    void eachEntryCarriesItsProcesssStateAndTheReportTheInstancesEventsUntilOneIsTaken() {
        runWithPlayers(List.of("p1", "p2"));
        JsonNode first = process(last(), a.server(0));
        assertThat(first.path("state").asText()).isEqualTo("StandingBy");
        assertThat(first.path("connectedPlayers").asInt()).isEqualTo(2);
        assertThat(first.path("playerIds")).extracting(JsonNode::asText).containsExactly("p1", "p2");
        assertThat(first.path("crashes").asInt()).isZero();
        assertThat(first.path("startTimeouts").asInt()).isZero();
        assertThat(first.has("lastExitCode")).as("no previous process in its slot").isFalse();
        assertThat(last().has("processEvents")).isFalse();

        a.processes.launched.get(1).exit(139); // slot 1 crashes; its replacement starts after the backoff
        a.tick();
        a.advance(1);
        a.standingBy(1);
        run(30, true);
        assertThat(last().path("processEvents").path("crashes").asInt()).isEqualTo(1);
        assertThat(last().path("processEvents").path("startTimeouts").asInt()).isZero();
        JsonNode replacement = process(last(), a.server(1));
        assertThat(replacement.path("crashes").asInt()).isEqualTo(1);
        assertThat(replacement.path("lastExitCode").asInt()).isEqualTo(139);
        run(30, true);
        assertThat(last().has("processEvents")).as("taken: the report before had no refusal").isFalse();
        assertThat(process(last(), a.server(1)).path("crashes").asInt()).as("the slot's count since the agent started").isEqualTo(1);

        a.processes.launched.get(2).exit(1);
        a.tick();
        a.advance(2); // the second failure in a row: 2 s
        a.standingBy(1);
        run(30, true);
        assertThat(last().path("processEvents").path("crashes").asInt()).isEqualTo(1);
        a.supervisor.healthReportRefused("ValidationException");
        int before = channel.sent.size();
        run(30, true);
        assertThat(channel.sent).as("the period after a refusal goes through the API").hasSize(before);
        run(30, true);
        assertThat(last().path("processEvents").path("crashes").asInt()).as("a refused report loses none").isEqualTo(1);
        a.supervisor.healthChannelLost();
        run(30, true);
        assertThat(last().path("processEvents").path("crashes").asInt()).as("nor one whose connection was found dead").isEqualTo(1);
        channel.open = false;
        run(30, true);
        channel.open = true;
        run(30, true);
        assertThat(last().has("processEvents")).isFalse();
    }

    @Test
    void eachEntryCarriesItsSlotsNamedPorts() {
        run(30, true);
        assertThat(process(last(), a.server(0)).path("ports").toString()).isEqualTo("{\"game\":7000,\"query\":8000}");
        assertThat(process(last(), a.server(1)).path("ports").toString()).isEqualTo("{\"game\":7001,\"query\":8001}");
    }

    @Test
    void playerIdsAreCutToTheContractsBoundsAndTheirCountStaysTrue() {
        List<String> players = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            players.add(i + "-" + "x".repeat(200));
        }
        runWithPlayers(players);
        JsonNode p = process(last(), a.server(0));
        assertThat(p.path("connectedPlayers").asInt()).isEqualTo(150);
        assertThat(p.path("playerIds")).hasSize(100).allMatch(id -> id.asText().length() == 128);
        assertThat(p.path("playerIds").get(99).asText()).startsWith("99-");
    }

    @Test
    void aProcesssOwnPlayerIdsCannotMakeAReportLargerThanAFrame() {
        // Control characters are escaped sixfold: 100 ids of 128 of them would be 77 KB.
        List<String> hostile = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            hostile.add("\u0001".repeat(128));
        }
        runWithPlayers(hostile);
        JsonNode report = last();
        assertThat(report.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length).isLessThanOrEqualTo(HealthReport.MAX_BYTES);
        JsonNode p = process(report, a.server(0));
        assertThat(p.path("connectedPlayers").asInt()).isEqualTo(100);
        assertThat(p.path("playerIds").size()).isBetween(1, 99);
        assertThat(listed(report)).hasSize(2);
    }

    @Test
    void aReportLargerThanAnApiGatewayFrameGoesInSeveralMessagesEachWithinOne() throws Exception {
        work = java.nio.file.Files.createDirectories(work.resolve("ten"));
        a = new AgentFixture(work, "{\"processes\": 10, \"ports\": {\"game\": {\"from\": 7000, \"to\": 7009}},"
                + " \"timings\": {\"healthPeriodSeconds\": 30, \"heartbeatTimeoutSeconds\": 100}}");
        a.supervisor.healthChannel(channel);
        a.tick();
        List<String> players = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            players.add(String.format("%03d", i) + "y".repeat(125));
        }
        for (int slot = 0; slot < 10; slot++) {
            a.standingBy(slot);
            a.supervisor.sessions().heartbeat(a.server(slot).sessionHostId, new Heartbeat(GameState.StandingBy, true, players));
        }
        channel.sent.clear();
        a.advance(30);
        assertThat(channel.sent).hasSizeGreaterThan(1);
        List<String> listed = new ArrayList<>();
        for (JsonNode message : channel.sent) {
            assertThat(message.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                    .isLessThanOrEqualTo(HealthReport.MAX_BYTES);
            assertThat(message.path("action").asText()).isEqualTo("health");
            listed.addAll(listed(message));
        }
        assertThat(listed).hasSize(10).doesNotHaveDuplicates();
        assertThat(a.api.count("update")).as("every server's health went over the channel").isZero();
    }

    @Test
    void aClaimedServerIsMarkedUtilizedWithoutAHealthCheckWhichWouldEndItsLease() {
        a.claim(a.server(0), "map=dust");
        run(2, true);
        assertThat(a.api.calls).contains("update " + a.server(0).gameServerId + " UTILIZED")
                .doesNotContain("update " + a.server(0).gameServerId + " HEALTHY UTILIZED");
    }
}

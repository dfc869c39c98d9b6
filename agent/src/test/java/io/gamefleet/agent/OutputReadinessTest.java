package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Wrapper mode's readiness against what the test makes: a listener on the loopback address, and a
 * console log it writes a piece at a time, as a game server with no SDK would. The agent running a
 * real one is {@link RealProcessesTest}'s.
 */
class OutputReadinessTest {
    @TempDir Path work;

    private OutputReadiness probe(int gamePortOfSlot0, String readyPort, String readyLine) {
        AgentConfig config = AgentConfigReader.parse("agent.json", "{\"gameServerGroupName\": \"g\", \"command\": \"/game\", "
                + "\"processes\": 2, \"ports\": {\"game\": {\"from\": " + gamePortOfSlot0 + ", \"to\": " + (gamePortOfSlot0 + 1) + "}}, "
                + "\"workDirectory\": \"" + work.resolve("agent") + "\", \"serversDirectory\": \"" + work.resolve("servers") + "\"}");
        GameServerLaunch launch = new GameServerLaunch(config, "i-1", "10.0.0.5",
                new ServerFolders(config.workDirectory(), config.serversDirectory()), AgentFixture.AGENT_ENVIRONMENT);
        return new OutputReadiness(new AgentConfig.Wrapper(readyPort, readyLine), launch);
    }

    private ServerRecord server(int slot) throws Exception {
        ServerRecord s = new ServerRecord(slot, "gs-" + slot, "session-" + slot, work.resolve("servers").resolve("gs-" + slot),
                Instant.parse("2026-12-01T10:00:00Z"));
        Files.createDirectories(s.logFolder());
        s.console = ConsoleOutput.open(Files.createFile(s.logFolder().resolve(GameServerLaunch.CONSOLE_LOG)));
        return s;
    }

    private static void prints(ServerRecord s, String output) throws Exception {
        Files.writeString(s.logFolder().resolve(GameServerLaunch.CONSOLE_LOG), output, StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Test
    void aServerIsReadyWhileItsSlotsReadyPortTakesConnectionsOnTheLoopbackAddress() throws Exception {
        ServerRecord slot1 = server(1);
        OutputReadiness probe;
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getByName(GsdkEndpoint.LOOPBACK))) {
            probe = probe(listener.getLocalPort() - 1, "game", null); // slot 1's game port is the listener's
            assertThat(probe.ready(slot1)).isTrue();
        }
        assertThat(probe.ready(slot1)).as("closed").isFalse();
    }

    @Test
    void aServerIsReadyWhenAWholeNewLineOfItsConsoleLogMatches() throws Exception {
        ServerRecord s = server(0);
        OutputReadiness probe = probe(7000, null, "^READY on port \\d+");
        assertThat(probe.ready(s)).as("nothing printed yet").isFalse();
        prints(s, "\n");
        assertThat(probe.ready(s)).isFalse();
        prints(s, "loading the map\nnot READY on port 1 yet\n");
        assertThat(probe.ready(s)).as("each line on its own: ^ is a line's start").isFalse();
        prints(s, "READY on port 7");
        assertThat(probe.ready(s)).as("a line not ended yet").isFalse();
        prints(s, "000\n");
        assertThat(probe.ready(s)).isTrue();
    }

    @Test
    void eachLookReadsOnlyWhatWasPrintedSinceTheLastOne() throws Exception {
        ServerRecord s = server(0);
        OutputReadiness probe = probe(7000, null, "READY");
        prints(s, "READY is a word this server prints early\n");
        assertThat(probe.ready(s)).isTrue();
        assertThat(probe.ready(s)).as("that line was read").isFalse();
        prints(s, "running\n");
        assertThat(probe.ready(s)).isFalse();
        prints(s, "READY again\n");
        assertThat(probe.ready(s)).isTrue();
    }

    @Test
    void eitherSignalIsEnoughAndWithNeitherConfiguredNothingIsReady() throws Exception {
        ServerRecord s = server(0);
        prints(s, "READY\n");
        int closedPort;
        try (ServerSocket s0 = new ServerSocket(0, 1, InetAddress.getByName(GsdkEndpoint.LOOPBACK))) {
            closedPort = s0.getLocalPort();
        }
        assertThat(probe(closedPort, "game", "READY").ready(s)).as("the line, with nothing on the port").isTrue();
        assertThat(probe(closedPort, null, null).ready(s)).isFalse();
    }

    @Test
    void whatTheProcessPutsAtItsConsoleLogsPathIsNeverOpenedOnlyTheFileTheAgentMade() throws Exception {
        ServerRecord s = server(0);
        OutputReadiness probe = probe(7000, null, "READY");
        Path log = s.logFolder().resolve(GameServerLaunch.CONSOLE_LOG);
        prints(s, "READY\n");
        Path moved = Files.move(log, s.logFolder().resolve("moved.txt"));
        // A FIFO at the path: opening it would block the agent until someone writes to it.
        Process fifo = new ProcessBuilder("mkfifo", log.toString()).start();
        assertThat(fifo.waitFor()).isZero();

        assertThat(probe.ready(s)).as("read from the agent's own handle, at once").isTrue();
        Files.writeString(moved, "READY again\n", StandardOpenOption.APPEND);
        assertThat(probe.ready(s)).as("the file the process's output goes to, wherever it is now").isTrue();
    }

    @Test
    void aProcessAdoptedFromAStateFileHasNoHandleAndOnlyItsPortCounts() throws Exception {
        ServerRecord s = server(0);
        prints(s, "READY\n");
        s.console = null;
        assertThat(probe(7000, null, "READY").ready(s)).isFalse();
    }
}

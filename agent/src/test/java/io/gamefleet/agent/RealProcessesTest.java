package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The supervisor with real child processes in their own process groups (each of its own uid where
 * the tests run as root), the real GSDK endpoint on Jetty and the scripted GSDK game server; FleetIQ
 * is the fake, the timeouts run on a clock the test moves (the processes run in real time).
 */
class RealProcessesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path work;
    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
    private final FakeFleetApi api = new FakeFleetApi();
    private final List<String> log = new java.util.concurrent.CopyOnWriteArrayList<>();
    private RealAgent agent;
    private Supervisor supervisor;

    private void start(String mode, List<String> args, String extra) throws Exception {
        int port = ChildJvm.freePort();
        ChildJvm.traversable(work);
        ObjectNode c = JSON.createObjectNode().put("gameServerGroupName", "g").put("instanceId", "i-1")
                .put("region", "us-east-1").put("connectionAddress", "127.0.0.1").put("command", ChildJvm.java())
                .put("processes", 1).put("workDirectory", work.resolve("agent").toString())
                .put("serversDirectory", work.resolve("servers").toString()).put("mode", mode);
        ArrayNode a = c.putArray("args");
        args.forEach(a::add);
        c.putObject("ports").putObject("game").put("from", port).put("to", port);
        c.putObject("timings").put("startTimeoutSeconds", 60).put("stopGraceSeconds", 5).put("terminateNoticeSeconds", 10);
        c.setAll((ObjectNode) JSON.readTree(extra));
        agent = new RealAgent(AgentConfigReader.parse("test", c.toString()), clock, api, log, System.getenv());
        supervisor = agent.supervisor;
    }

    private void startGsdk(String... scriptArgs) throws Exception {
        start("gsdk", ChildJvm.args(ScriptedGsdkServer.class, scriptArgs), "{}");
    }

    @AfterEach
    void stop() throws Exception {
        if (agent != null) {
            agent.close();
        }
    }

    private ServerRecord current() {
        return agent.current(0);
    }

    private Path archived(String gameServerId) {
        return work.resolve("agent/archive/g/i-1").resolve(gameServerId);
    }

    /** The process's console log, where it is while it runs or in the archive once it ended. */
    private String console(ServerRecord s) {
        String running = ChildJvm.read(s.logFolder().resolve(GameServerLaunch.CONSOLE_LOG));
        return running.isEmpty() ? ChildJvm.read(archived(s.gameServerId).resolve(GameServerLaunch.CONSOLE_LOG)) : running;
    }

    /** The PlayerIds of the process's last heartbeat, and their count. */
    private List<String> players(ServerRecord s) {
        synchronized (supervisor.lock) {
            return s.connectedPlayers == s.playerIds.size() ? s.playerIds : List.of("count " + s.connectedPlayers);
        }
    }

    private ServerRecord awaitStandingBy() {
        ChildJvm.await("a process registered", () -> current() != null && api.registered.containsKey(current().gameServerId));
        return current();
    }

    @Test
    void standingByClaimedActiveUtilizedMatchOverDeregisteredArchivedReplaced() throws Exception {
        Path endFile = work.resolve("end-match");
        startGsdk("match-until", endFile.toString());
        ServerRecord s = awaitStandingBy();
        assertThat(api.connectionInfo.get(s.gameServerId)).startsWith("127.0.0.1:");
        Instant now = clock.instant();
        supervisor.claimed(new Notices.Claimed(s.gameServerId, "map=dust2", now, now.plusSeconds(60)));
        ChildJvm.await("ACTIVE in the console log", () -> console(s).contains("ACTIVE cookie=map=dust2"));
        ChildJvm.await("UTILIZED", () -> "UTILIZED".equals(api.registered.get(s.gameServerId)));
        ChildJvm.await("its currentPlayers, camelCase as the Java GSDK sends them", () -> players(s).equals(List.of("camel-1", "camel-2")));
        Files.writeString(endFile, "");
        ChildJvm.await("deregistered", () -> !api.registered.containsKey(s.gameServerId) && api.calls.contains("deregister " + s.gameServerId));
        ChildJvm.await("archived", () -> Files.exists(archived(s.gameServerId).resolve(LogArchive.REPORT)));
        assertThat(ChildJvm.read(archived(s.gameServerId).resolve(GameServerLaunch.CONSOLE_LOG))).contains("MATCH OVER");
        assertThat(JSON.readTree(archived(s.gameServerId).resolve(LogArchive.REPORT).toFile()).path("exitCode").asInt()).isZero();
        ServerRecord next = awaitStandingBy();
        assertThat(next.gameServerId).isNotEqualTo(s.gameServerId);
    }

    @Test
    void aCrashIsArchivedWithItsExitCodeAndReplacedAfterTheBackoff() throws Exception {
        startGsdk("crash");
        ChildJvm.await("the crash seen", () -> {
            synchronized (supervisor.lock) {
                return supervisor.slots()[0].failures == 1;
            }
        });
        ChildJvm.await("archived", () -> {
            try (var dirs = Files.list(work.resolve("agent/archive/g/i-1"))) {
                return dirs.anyMatch(d -> Files.exists(d.resolve(LogArchive.REPORT)));
            } catch (java.io.IOException e) {
                return false;
            }
        });
        try (var dirs = Files.list(work.resolve("agent/archive/g/i-1"))) {
            Path d = dirs.findFirst().orElseThrow();
            assertThat(JSON.readTree(d.resolve(LogArchive.REPORT).toFile()).path("exitCode").asInt()).isEqualTo(3);
            assertThat(ChildJvm.read(d.resolve(GameServerLaunch.CONSOLE_LOG))).contains("crashing");
        }
        assertThat(current()).isNull(); // waiting its backoff: the clock has not moved
        clock.advanceSeconds(1);
        ChildJvm.await("a replacement", () -> current() != null);
    }

    @Test
    void notReadyWithinTheStartTimeoutTermThenKillOfTheWholeProcessGroup() throws Exception {
        startGsdk("silent");
        ChildJvm.await("the child started", () -> current() != null && console(current()).contains("CHILD "));
        ServerRecord s = current();
        long child = Long.parseLong(console(s).lines().filter(l -> l.startsWith("CHILD ")).findFirst().orElseThrow().substring(6).trim());
        assertThat(ProcessHandle.of(child)).isPresent();
        clock.advanceSeconds(60);
        ChildJvm.await("TERM seen and ignored", () -> console(s).contains("TERM ignored"));
        assertThat(s.process.isAlive()).isTrue();
        clock.advanceSeconds(5);
        ChildJvm.await("killed", () -> !s.process.isAlive());
        ChildJvm.await("its child killed too", () -> ProcessHandle.of(child).map(h -> !h.isAlive()).orElse(true));
        assertThat(log).anyMatch(l -> l.contains("not StandingBy within the start timeout"));
        assertThat(log).anyMatch(l -> l.contains("KILL"));
    }

    @Test
    void anOperatorsShutdownReachesTheProcessAsTerminateAndItIsReplaced() throws Exception {
        startGsdk("match-until", work.resolve("never").toString());
        ServerRecord s = awaitStandingBy();
        supervisor.terminate(new Notices.Terminate(s.gameServerId, "operator"));
        ChildJvm.await("TERMINATE in the console log", () -> console(s).contains("TERMINATE"));
        ChildJvm.await("exited and replaced", () -> current() != null && !current().gameServerId.equals(s.gameServerId));
        assertThat(api.registered).doesNotContainKey(s.gameServerId);
    }

    @Test
    void aSpotWarningReachesTheProcessAsAMaintenanceEvent() throws Exception {
        startGsdk("match-until", work.resolve("never").toString());
        ServerRecord s = awaitStandingBy();
        Instant at = Instant.parse("2026-12-01T10:02:00Z");
        supervisor.maintenance(new MaintenanceEvent.Schedule(1, List.of(new MaintenanceEvent("spot-1", "Preempt",
                List.of("i-1"), "Scheduled", at, "EC2 Spot interruption", "EC2 Spot", 0))));
        ChildJvm.await("MAINTENANCE in the console log", () -> console(s).contains("MAINTENANCE 2026-12-01T10:02:00Z Preempt"));
    }

    @Test
    void wrapperModeWithAPlainTcpServer() throws Exception {
        start("wrapper", ChildJvm.args(PlainTcpServer.class, "{port:game}", "300"), "{\"wrapper\": {\"readyPort\": \"game\"}}");
        ServerRecord s = awaitStandingBy();
        int port = Integer.parseInt(api.connectionInfo.get(s.gameServerId).split(":")[1]);
        // A match, so its exit 0 is no failure and the replacement starts at once (not after a backoff).
        supervisor.claimed(new Notices.Claimed(s.gameServerId, null, clock.instant(), clock.instant().plusSeconds(60)));
        ChildJvm.await("UTILIZED", () -> "UTILIZED".equals(api.registered.get(s.gameServerId)));
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            socket.getOutputStream().write("quit".getBytes());
        }
        ChildJvm.await("deregistered and replaced", () -> !api.registered.containsKey(s.gameServerId)
                && current() != null && !current().gameServerId.equals(s.gameServerId));
        assertThat(ChildJvm.read(archived(s.gameServerId).resolve(GameServerLaunch.CONSOLE_LOG))).contains("listening on", "quitting");
    }

    @Test
    void aGameServerSendingPascalCaseKeysAsTheCppAndCSharpGsdksDoGoesThroughItsLifecycle() throws Exception {
        Path script = Path.of(System.getProperty("gamefleet.agent.test-classes"), "scripted_gsdk_server.py");
        Path endFile = work.resolve("end-match");
        start("gsdk", List.of("-u", script.toString(), endFile.toString()), "{\"command\": \"python3\"}");
        ServerRecord s = awaitStandingBy();
        ChildJvm.await("its GSDK flavor", () -> "Python test".equals(s.gsdkFlavor));
        Instant now = clock.instant();
        supervisor.claimed(new Notices.Claimed(s.gameServerId, "pascal", now, now.plusSeconds(60)));
        ChildJvm.await("ACTIVE in the console log", () -> console(s).contains("ACTIVE cookie=pascal"));
        ChildJvm.await("UTILIZED", () -> "UTILIZED".equals(api.registered.get(s.gameServerId)));
        ChildJvm.await("its CurrentPlayers, PascalCase", () -> players(s).equals(List.of("pascal-1")));
        Files.writeString(endFile, "");
        ChildJvm.await("deregistered and replaced", () -> !api.registered.containsKey(s.gameServerId)
                && current() != null && !current().gameServerId.equals(s.gameServerId));
        assertThat(console(s)).contains("MATCH OVER").doesNotContain("REFUSED");
    }

    @Test
    void wrapperModeReadyWhenTheServerPrintsItsReadyLine() throws Exception {
        start("wrapper", ChildJvm.args(PlainTcpServer.class, "{port:game}", "300"), "{\"wrapper\": {\"readyLine\": \"^listening on [0-9]+$\"}}");
        ServerRecord s = awaitStandingBy();
        assertThat(console(s)).contains("listening on");
        assertThat(log).anyMatch(l -> l.contains(s.gameServerId + ": ready (wrapper mode)"));
    }
    @Test
    void aSpotWarningDeregistersTheStandingByServerAtOnceAndArchivesTheMatchBeforeTheInstanceEnds() throws Exception {
        int port = ChildJvm.freePort();
        start("gsdk", ChildJvm.args(ScriptedGsdkServer.class, "match-until", work.resolve("never").toString()),
                "{\"processes\": 2, \"ports\": {\"game\": {\"from\": " + port + ", \"to\": " + (port + 1) + "}},"
                        + " \"timings\": {\"heartbeatTimeoutSeconds\": 600}}"); // the other timings their defaults
        ChildJvm.await("both registered", () -> agent.current(0) != null && agent.current(1) != null
                && api.registered.containsKey(agent.current(0).gameServerId) && api.registered.containsKey(agent.current(1).gameServerId));
        ServerRecord match = agent.current(0);
        ServerRecord standingBy = agent.current(1);
        Instant now = clock.instant();
        supervisor.claimed(new Notices.Claimed(match.gameServerId, "map=dust2", now, now.plusSeconds(60)));
        ChildJvm.await("ACTIVE in the console log", () -> console(match).contains("ACTIVE cookie=map=dust2"));

        Instant end = now.plusSeconds(120);
        supervisor.maintenance(new MaintenanceEvent.Schedule(1, List.of(new MaintenanceEvent("spot-1", "Preempt", List.of("i-1"),
                "Scheduled", end, "EC2 Spot interruption", "EC2 Spot", 0, GracefulEnd.Reason.SPOT_INTERRUPTION))));
        // Within 5 s of the notice on the agent's clock: it has not moved at all.
        ChildJvm.await("the StandingBy server deregistered", () -> !api.registered.containsKey(standingBy.gameServerId)
                && api.calls.contains("deregister " + standingBy.gameServerId));
        assertThat(clock.instant()).isEqualTo(now);
        ChildJvm.await("it was told Terminate and ended, archived", () -> Files.exists(archived(standingBy.gameServerId)
                .resolve(LogArchive.REPORT)));
        assertThat(console(standingBy)).contains("TERMINATE", "MAINTENANCE 2026-12-01T10:02:00Z Preempt");
        assertThat(api.registered).containsEntry(match.gameServerId, "UTILIZED");
        ChildJvm.await("the match told the interruption", () -> console(match).contains("MAINTENANCE 2026-12-01T10:02:00Z Preempt"));
        assertThat(console(match)).doesNotContain("TERMINATE");

        clock.advanceSeconds(70); // the end - (terminateNotice 10 + stopGrace 10 + archiveReserve 30) s: Terminate
        ChildJvm.await("the match archived", () -> Files.exists(archived(match.gameServerId).resolve(LogArchive.REPORT)));
        assertThat(clock.instant()).isBefore(end);
        assertThat(console(match)).contains("TERMINATE");
        assertThat(api.registered).isEmpty();
        assertThat(api.calls).contains("deregister " + match.gameServerId);
        synchronized (supervisor.lock) {
            assertThat(supervisor.slots()).as("no new process on an instance being interrupted").allMatch(slot -> slot.current == null);
        }
    }
}

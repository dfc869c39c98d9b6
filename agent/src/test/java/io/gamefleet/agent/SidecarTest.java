package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An ECS task's sidecar in-process: the real supervisor with the task's other container as its one
 * game server, on a moved clock, against the fake FleetIQ. The task's protection is the backend's, so
 * nothing here protects it.
 */
class SidecarTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INSTANCE = "i-0123456789abcdef0";

    @TempDir Path root;
    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
    private final FakeFleetApi api = new FakeFleetApi();
    private final List<String> log = new ArrayList<>();
    private AgentConfig config;
    private Supervisor supervisor;
    private Sidecar sidecar;

    @BeforeEach
    void sidecar() throws Exception {
        Path work = root.resolve("agent");
        config = AgentConfigReader.parse("test", JSON.createObjectNode().put("mode", "sidecar").put("gameServerGroupName", "g")
                .put("instanceId", INSTANCE).put("connectionAddress", "10.0.3.7").put("region", "us-east-1")
                .put("gsdkConfigFile", root.resolve("gamefleet/gsdk.json").toString()).put("workDirectory", work.toString())
                .set("ports", JSON.readTree("{\"game\": {\"from\": 7777, \"to\": 7777}}")).toString());
        folders = new ServerFolders(config.workDirectory(), config.serversDirectory(), true);
        folders.prepare();
        start();
    }

    private ServerFolders folders;
    private final AgentLog agentLog = new AgentLog(clock, log::add);

    /** The sidecar as its container starts it. */
    private void start() {
        GameServerLaunch launch = new GameServerLaunch(config, INSTANCE, "10.0.3.7", folders, AgentFixture.AGENT_ENVIRONMENT);
        supervisor = new Supervisor(config, INSTANCE, clock, new TaskContainerLauncher(clock), launch, ServerUsers.agent(), api,
                Runnable::run, s -> false, new FolderLogArchive(config.archiveDirectory(), "g", INSTANCE, config.archiveMaxBytes(),
                        agentLog), agentLog, () -> 56001, Supervisor.Backoffs.of(config.timings(), Backoff.NO_JITTER));
        sidecar = new Sidecar(supervisor);
    }

    private ServerRecord server() {
        return supervisor.slots()[0].current;
    }

    private JsonNode beat(ServerRecord s, GameState state) {
        GsdkAnswer answer = supervisor.sessions().heartbeat(s.sessionHostId, new Heartbeat(state, true, List.of()));
        assertThat(answer).isInstanceOf(GsdkAnswer.Reply.class);
        return ((GsdkAnswer.Reply) answer).body();
    }

    /** {@code seconds} of the game server's heartbeats in {@code state}, one each 5 s, each followed by a round. */
    private void beatFor(ServerRecord s, GameState state, long seconds) {
        for (long t = 0; t < seconds; t += 5) {
            clock.advanceSeconds(5);
            beat(s, state);
            sidecar.tick();
        }
    }

    private ServerRecord standingBy() {
        sidecar.tick();
        ServerRecord s = server();
        beat(s, GameState.Initializing);
        beat(s, GameState.StandingBy);
        sidecar.tick();
        return s;
    }

    /** StandingBy, claimed, told Active and Active. */
    private ServerRecord inMatch() {
        ServerRecord s = standingBy();
        claim(s);
        sidecar.tick();
        assertThat(beat(s, GameState.StandingBy).path("operation").asText()).isEqualTo("Active");
        beat(s, GameState.Active);
        return s;
    }

    private void claim(ServerRecord s) {
        Instant now = clock.instant();
        supervisor.claimed(new Notices.Claimed(s.gameServerId, "map=dust2", now, now.plusSeconds(60)));
    }

    @Test
    void theGsdkConfigFileIsWrittenAtItsPathOnTheTaskVolumeAndNoProcessIsStarted() throws Exception {
        sidecar.tick();
        ServerRecord s = server();
        assertThat(s.process).isInstanceOf(TaskContainerLauncher.ContainerGameServer.class);
        Path file = root.resolve("gamefleet/gsdk.json");
        JsonNode gsdk = JSON.readTree(file.toFile());
        assertThat(gsdk.path("heartbeatEndpoint").asText()).isEqualTo("127.0.0.1:56001");
        assertThat(gsdk.path("sessionHostId").asText()).isEqualTo(s.sessionHostId);
        assertThat(gsdk.path("vmId").asText()).isEqualTo(INSTANCE);
        assertThat(gsdk.path("gamePorts").path("game").asText()).isEqualTo("7777");
        assertThat(gsdk.path("publicIpV4Address").asText()).isEqualTo("10.0.3.7");
        assertThat(gsdk.path("logFolder").asText()).as("on the task volume, beside the file")
                .isEqualTo(root.resolve("gamefleet").resolve(s.gameServerId).resolve("logs").toString());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).as("its container's user reads it")
                .isEqualTo("rw-r--r--");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of(gsdk.path("logFolder").asText()))))
                .as("and writes its logs").isEqualTo("rwxrwxrwx");
        assertThat(root.resolve("gamefleet")).isDirectoryContaining(p -> p.getFileName().toString().equals("shared"));
        assertThat(api.calls).as("nothing registered before StandingBy").isEmpty();
    }

    @Test
    void registeredAtStandingByClaimedActiveThenDeregisteredAtItsEndAndTheSidecarIsOver() {
        ServerRecord s = standingBy();
        assertThat(api.registered).containsEntry(s.gameServerId, "AVAILABLE");
        assertThat(api.connectionInfo).containsEntry(s.gameServerId, "10.0.3.7:7777");

        claim(s);
        assertThat(api.registered).containsEntry(s.gameServerId, "UTILIZED");
        sidecar.tick();
        assertThat(beat(s, GameState.StandingBy).path("operation").asText()).isEqualTo("Active");
        beat(s, GameState.Active);

        beatFor(s, GameState.Active, 60);
        assertThat(sidecar.over()).isNotDone();

        beat(s, GameState.Terminating);
        sidecar.tick();
        assertThat(api.registered).as("deregistered as soon as it ends").isEmpty();
        assertThat(sidecar.over()).isNotDone();
        clock.advance(config.timings().terminateNotice());
        sidecar.tick(); // let go: ended
        sidecar.tick(); // retired, archived
        assertThat(sidecar.over()).as("the agent exits: its task stops and ECS replaces it").isDone();
        assertThat(log).anyMatch(l -> l.contains(s.gameServerId + ": ended in state Terminating") && l.contains("the agent exits"));

        for (int i = 0; i < 60; i++) {
            clock.advanceSeconds(1);
            sidecar.tick();
        }
        assertThat(supervisor.slots()[0].current).as("no new game server in the task").isNull();
        assertThat(api.count("register")).isEqualTo(1);
    }

    @Test
    void heartbeatsLostPastTheTimeoutEndTheGameServerWhichIsDeregisteredAndTheSidecarEnds() {
        ServerRecord s = standingBy();
        assertThat(api.registered).containsKey(s.gameServerId);
        clock.advance(config.timings().heartbeatTimeout());
        sidecar.tick();
        assertThat(api.registered).as("deregistered at the heartbeat timeout: " + log).isEmpty();
        clock.advance(config.timings().terminateNotice());
        sidecar.tick();
        sidecar.tick();
        assertThat(sidecar.over()).isDone();
        assertThat(log).anyMatch(l -> l.contains(s.gameServerId + ": stopping: no heartbeat for 10.0 s"));
    }

    @Test
    void theAgentsStopTellsTheMatchTerminateAndDeregistersIt() {
        ServerRecord s = inMatch();
        supervisor.agentStops(); // SIGTERM: a Fargate Spot interruption, or ECS stopping the task
        sidecar.tick();
        assertThat(beat(s, GameState.Active).path("operation").asText()).isEqualTo("Terminate");
        assertThat(api.registered).isEmpty();
        clock.advance(config.timings().terminateNotice().plus(Duration.ofMillis(100)));
        sidecar.tick();
        sidecar.tick();
        assertThat(supervisor.settled()).isTrue();
        assertThat(log).anyMatch(l -> l.contains("graceful end (the agent's stop"));
    }

    @Test
    void aRestartedSidecarContainerTakesItsGameServerBackWhoseHeartbeatsGoOn() throws Exception {
        ServerRecord s = inMatch();
        sidecar.tick();
        new StateFile(config.workDirectory()).save(supervisor);
        String file = Files.readString(root.resolve("gamefleet/gsdk.json"));

        start(); // the agent's container restarted: the game server's container runs on
        StateFile.restore(new StateFile(config.workDirectory()).read().orElseThrow(), supervisor, new TaskContainerLauncher(clock),
                folders, clock, agentLog);
        sidecar.tick();
        assertThat(server().gameServerId).isEqualTo(s.gameServerId);
        assertThat(beat(server(), GameState.Active).path("operation").asText()).as("its heartbeats answered again")
                .isEqualTo("Continue");
        assertThat(Files.readString(root.resolve("gamefleet/gsdk.json"))).as("its config file unchanged").isEqualTo(file);
        assertThat(api.count("register")).isEqualTo(1);
    }

    @Test
    void aMatchOverWhileFleetIqCannotBeReachedStillEndsTheSidecar() {
        ServerRecord s = inMatch();
        api.down = true;
        beat(s, GameState.Terminating);
        sidecar.tick();
        clock.advance(config.timings().terminateNotice());
        sidecar.tick();
        sidecar.tick();
        assertThat(api.registered).as("FleetIQ still holds it UTILIZED: left to its health timeout").containsKey(s.gameServerId);
        assertThat(sidecar.over()).isDone();
    }
}

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
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An ECS task's sidecar in-process: the real supervisor with the task's other container as its one
 * game server, on a moved clock, against the fake FleetIQ and a fake ECS agent endpoint that records
 * the task's protection calls (and fails them when told to).
 */
class SidecarTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INSTANCE = "i-0123456789abcdef0";

    @TempDir Path root;
    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
    private final FakeFleetApi api = new FakeFleetApi();
    private final List<String> log = new ArrayList<>();
    private final FakeProtection protectionEndpoint = new FakeProtection();
    private AgentConfig config;
    private Supervisor supervisor;
    private Sidecar sidecar;

    /** The ECS agent's endpoint: each call, and what FleetIQ held at it; the next {@code failing} calls fail. */
    private final class FakeProtection implements TaskProtectionEndpoint {
        final List<String> calls = new ArrayList<>();
        final List<Map<String, String>> registeredAtCall = new ArrayList<>();
        int failing;

        @Override
        public void set(boolean enabled, int minutes) {
            calls.add((enabled ? "on " + minutes : "off") + " at " + clock.instant());
            registeredAtCall.add(Map.copyOf(api.registered));
            if (failing > 0) {
                failing--;
                throw new Failed("PUT .../task-protection/v1/state answered 500 ServerException: the ECS API is unavailable", null);
            }
        }
    }

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
        TaskProtection protection = new TaskProtection(protectionEndpoint, Runnable::run, supervisor.lock, clock,
                new Backoff(config.timings().apiRetryInitial(), config.timings().apiRetryMax(), Backoff.NO_JITTER), agentLog);
        sidecar = new Sidecar(supervisor, protection, clock);
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

    /** StandingBy, claimed, told Active and Active: its task protected. */
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
    void registeredAtStandingByClaimedActiveAndProtectedRenewedAtHalfItsTimeThenDeregisteredAndReleasedAtItsEnd() {
        ServerRecord s = standingBy();
        assertThat(api.registered).containsEntry(s.gameServerId, "AVAILABLE");
        assertThat(api.connectionInfo).containsEntry(s.gameServerId, "10.0.3.7:7777");
        assertThat(protectionEndpoint.calls).as("an unclaimed server's task is left to scale-in").isEmpty();

        claim(s);
        assertThat(api.registered).containsEntry(s.gameServerId, "UTILIZED");
        sidecar.tick();
        assertThat(protectionEndpoint.calls).containsExactly("on 60 at 2026-12-01T10:00:00Z");
        assertThat(beat(s, GameState.StandingBy).path("operation").asText()).isEqualTo("Active");
        beat(s, GameState.Active);

        beatFor(s, GameState.Active, 29 * 60 + 55);
        assertThat(protectionEndpoint.calls).as("not renewed before half its time").hasSize(1);
        beatFor(s, GameState.Active, 5);
        assertThat(protectionEndpoint.calls).as("renewed at half its time, 30 min")
                .containsExactly("on 60 at 2026-12-01T10:00:00Z", "on 60 at 2026-12-01T10:30:00Z");
        assertThat(log).anyMatch(l -> l.contains("task protected from scale-in for 60 min") && l.endsWith("renewed at 2026-12-01T11:00:00Z"));

        beat(s, GameState.Terminating);
        sidecar.tick();
        assertThat(api.registered).as("deregistered as soon as it ends").isEmpty();
        assertThat(protectionEndpoint.calls).as("still protected while its container may play out its end").hasSize(2);
        assertThat(sidecar.over()).isNotDone();
        clock.advance(config.timings().terminateNotice());
        sidecar.tick(); // let go: ended
        sidecar.tick(); // released
        assertThat(protectionEndpoint.calls).hasSize(3).last().asString().startsWith("off at ");
        assertThat(protectionEndpoint.registeredAtCall.get(2)).as("released after its deregistration").isEmpty();
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
        assertThat(protectionEndpoint.calls).as("never claimed: never protected").isEmpty();
        assertThat(log).anyMatch(l -> l.contains(s.gameServerId + ": stopping: no heartbeat for 10.0 s"));
    }

    @Test
    void aFailedProtectionCallIsLoggedAndRetriedWithTheApiBackoffWhileTheMatchGoesOn() {
        ServerRecord s = standingBy();
        protectionEndpoint.failing = 2;
        claim(s);
        sidecar.tick();
        assertThat(log).anyMatch(l -> l.contains("WARN protecting the task from scale-in failed (PUT .../task-protection/v1/state "
                + "answered 500 ServerException: the ECS API is unavailable); retry in 1000 ms"));
        sidecar.tick();
        assertThat(protectionEndpoint.calls).as("not before its backoff").hasSize(1);
        clock.advanceSeconds(1);
        sidecar.tick();
        assertThat(protectionEndpoint.calls).hasSize(2);
        assertThat(log).anyMatch(l -> l.endsWith("retry in 2000 ms"));
        assertThat(beat(s, GameState.StandingBy).path("operation").asText()).as("the match goes on meanwhile").isEqualTo("Active");
        clock.advanceSeconds(2);
        sidecar.tick();
        assertThat(protectionEndpoint.calls).hasSize(3);
        assertThat(log).anyMatch(l -> l.contains("protecting the task from scale-in went through after 2 failures"));
        beatFor(s, GameState.Active, 60);
        assertThat(protectionEndpoint.calls).as("once protected, nothing more until its renewal").hasSize(3);
    }

    @Test
    void theAgentsStopTellsTheMatchTerminateDeregistersItAndReleasesTheTask() {
        ServerRecord s = inMatch();
        supervisor.agentStops(); // SIGTERM: a Fargate Spot interruption, or ECS stopping the task
        sidecar.tick();
        assertThat(beat(s, GameState.Active).path("operation").asText()).isEqualTo("Terminate");
        assertThat(api.registered).isEmpty();
        clock.advance(config.timings().terminateNotice().plus(Duration.ofMillis(100)));
        sidecar.tick();
        sidecar.tick();
        assertThat(protectionEndpoint.calls).hasSize(2).last().asString().startsWith("off at ");
        assertThat(supervisor.settled()).isTrue();
        assertThat(sidecar.protectionSettled()).isTrue();
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
        sidecar.tick();
        assertThat(protectionEndpoint.calls).as("the new sidecar protects its task at once, not knowing it was")
                .hasSize(2).last().asString().startsWith("on 60");
    }

    @Test
    void aMatchOverWhileFleetIqCannotBeReachedStillReleasesTheTaskAndTheSidecarEnds() {
        ServerRecord s = inMatch();
        api.down = true;
        beat(s, GameState.Terminating);
        sidecar.tick();
        clock.advance(config.timings().terminateNotice());
        sidecar.tick();
        sidecar.tick();
        assertThat(api.registered).as("FleetIQ still holds it UTILIZED: left to its health timeout").containsKey(s.gameServerId);
        assertThat(protectionEndpoint.calls).as("an ended server holds no match").hasSize(2).last().asString().startsWith("off at ");
        assertThat(sidecar.over()).isDone();
    }
}

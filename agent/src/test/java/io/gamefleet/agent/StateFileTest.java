package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A restarted agent adopts the processes that still run and clears away those that ended meanwhile. */
class StateFileTest {
    @TempDir Path work;

    @Test
    void aRestartedAgentAdoptsRunningProcessesAndDeregistersThoseThatEnded() throws Exception {
        AgentFixture first = new AgentFixture(work);
        first.tick();
        ServerRecord active = first.standingBy(0);
        first.claim(active, "cookie");
        first.reply(active, GameState.StandingBy);
        first.reply(active, GameState.Active);
        ServerRecord waiting = first.standingBy(1);
        first.tick();
        new StateFile(first.work).save(first.supervisor);

        // The agent dies; the second process ends while it is away.
        AgentFixture second = new AgentFixture(work);
        second.api.registered.putAll(first.api.registered);
        second.processes.adoptable.put(active.process.pid(), (FakeProcesses.Fake) active.process);
        ((FakeProcesses.Fake) waiting.process).exit(0);
        StateFile.restore(new StateFile(second.work).read().orElseThrow(), second.supervisor, second.processes, second.folders, second.clock,
                new AgentLog(second.clock, second.log::add));
        second.tick();

        assertThat(second.server(0).gameServerId).isEqualTo(active.gameServerId);
        assertThat(second.reply(second.server(0), GameState.Active).path("operation").asText()).isEqualTo("Continue");
        assertThat(second.api.registered).containsOnlyKeys(active.gameServerId);
        assertThat(second.work.resolve("archive/g/i-1").resolve(waiting.gameServerId)).isDirectory();
        assertThat(second.server(1).gameServerId).isNotIn(active.gameServerId, waiting.gameServerId);
        // The match ends later: deregistered then, and replaced.
        ((FakeProcesses.Fake) active.process).exit(0);
        second.tick();
        assertThat(second.api.registered).doesNotContainKey(active.gameServerId);
        assertThat(second.processes.launched).hasSize(2);
    }

    /** A session's claim that reached the agent before it died is still the session's after the restart. */
    @Test
    void aClaimsSessionIsKeptAcrossARestart() throws Exception {
        AgentFixture first = new AgentFixture(work);
        first.tick();
        ServerRecord claimed = first.standingBy(0);
        first.pushConnection(java.net.URI.create("ws://127.0.0.1:1/push"),
                software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider.create(),
                java.util.concurrent.Executors.newSingleThreadScheduledExecutor(), java.time.Duration.ofMinutes(5))
                .deliver(PushConnectionTest.sessionNotice(claimed.gameServerId));
        first.tick();
        new StateFile(first.work).save(first.supervisor);

        AgentFixture second = new AgentFixture(work);
        second.api.registered.putAll(first.api.registered);
        second.processes.adoptable.put(claimed.process.pid(), (FakeProcesses.Fake) claimed.process);
        StateFile.restore(new StateFile(second.work).read().orElseThrow(), second.supervisor, second.processes,
                second.folders, second.clock, new AgentLog(second.clock, second.log::add));

        var session = second.reply(second.server(0), GameState.StandingBy).path("sessionConfig");
        assertThat(session.path("sessionId").asText()).isEqualTo("3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b");
        assertThat(session.path("sessionCookie").asText()).isEqualTo("map=dust2");
        assertThat(session.path("initialPlayers").toString()).isEqualTo("[\"p1\",\"p2\"]");
    }

    @Test
    void aRegistrationThatCompletesAfterTheRoundIsSavedSoARestartDeregistersItsEndedProcess() throws Exception {
        // The API's calls complete on their own thread, after the round that submitted them was saved.
        AgentFixture first = new AgentFixture(work, "{\"processes\": 1}", true);
        first.tickAndSave();
        ServerRecord s = first.reportsStandingBy(0);
        first.runApiCalls();
        assertThat(first.api.registered).containsKey(s.gameServerId);
        first.tickAndSave();
        assertThat(AgentFixture.JSON.readTree(first.work.resolve(StateFile.NAME).toFile()).path("servers").get(0)
                .path("registration").asText()).isEqualTo("AVAILABLE");
        assertThat(restartedWith(first, s).api.registered).isEmpty();
    }

    @Test
    void aRegistrationWithNoAnswerWhenTheAgentDiedIsDeregisteredByTheRestartedAgent() throws Exception {
        AgentFixture first = new AgentFixture(work, "{\"processes\": 1}", true);
        first.tickAndSave();
        ServerRecord s = first.reportsStandingBy(0);
        first.queuedApiCalls.remove().run(); // it reaches FleetIQ; the agent is SIGKILLed before the answer
        AgentFixture second = restartedWith(first, s);
        assertThat(second.api.registered).isEmpty();
        assertThat(second.supervisor.leaving()).isEmpty();
    }

    /** The agent SIGKILLed and started again, {@code endedMeanwhile}'s process having ended while it was away. */
    private AgentFixture restartedWith(AgentFixture first, ServerRecord endedMeanwhile) throws Exception {
        AgentFixture second = new AgentFixture(work, "{\"processes\": 1}");
        second.api.registered.putAll(first.api.registered);
        ((FakeProcesses.Fake) endedMeanwhile.process).exit(0);
        StateFile.restore(new StateFile(second.work).read().orElseThrow(), second.supervisor, second.processes, second.folders, second.clock,
                new AgentLog(second.clock, second.log::add));
        second.tick();
        assertThat(second.api.calls).contains("deregister " + endedMeanwhile.gameServerId);
        return second;
    }

    @Test
    void anEntryWhoseFolderOrIdReachesOutsideTheServersDirectoryIsRefusedAndNothingOutsideIsArchivedOrRemoved() throws Exception {
        AgentFixture agent = new AgentFixture(work, "{\"processes\": 1}");
        Path outside = java.nio.file.Files.createDirectories(work.resolve("outside/logs"));
        java.nio.file.Files.writeString(outside.resolve("precious.txt"), "keep me");
        Path servers = agent.config.serversDirectory();
        java.nio.file.Files.createDirectories(servers.resolve("gs-fedcba9876543210/logs"));
        String ended = "\"startedAt\": \"2026-12-01T09:00:00Z\", \"endedAt\": \"2026-12-01T09:30:00Z\", \"registration\": \"NONE\", "
                + "\"sessionHostId\": \"0123456789abcdef0123456789abcdef\", \"pid\": -1";
        java.nio.file.Files.writeString(agent.work.resolve(StateFile.NAME), "{\"gsdkPort\": 56001, \"servers\": ["
                + "{\"slot\": 0, \"gameServerId\": \"gs-0123456789abcdef\", \"folder\": \"" + work.resolve("outside") + "\", " + ended + "},"
                + "{\"slot\": 0, \"gameServerId\": \"gs-0123456789abcdee\", \"folder\": \"" + servers + "/../outside\", " + ended + "},"
                + "{\"slot\": 0, \"gameServerId\": \"../outside\", \"folder\": \"" + servers + "/../outside\", " + ended + "},"
                + "{\"slot\": 0, \"gameServerId\": \"gs-fedcba9876543210\", \"folder\": \"" + servers.resolve("gs-fedcba9876543210") + "\", "
                + ended + "}]}");
        StateFile.restore(new StateFile(agent.work).read().orElseThrow(), agent.supervisor, agent.processes, agent.folders,
                agent.clock, new AgentLog(agent.clock, agent.log::add));
        agent.tick();

        assertThat(outside.resolve("precious.txt")).hasContent("keep me");
        assertThat(agent.log.stream().filter(l -> l.contains("WARN state file: the entry for ") && l.contains("is refused and left alone")))
                .hasSize(3);
        assertThat(agent.log).anyMatch(l -> l.contains("gs-0123456789abcdef (pid -1) is refused") && l.contains("its folder " + work.resolve("outside")));
        assertThat(agent.log).anyMatch(l -> l.contains("../outside (pid -1) is refused") && l.contains("not one this agent gives"));
        // The entry that is the agent's own is archived as before.
        assertThat(agent.work.resolve("archive/g/i-1/gs-fedcba9876543210/agent-report.json")).exists();
        try (var archived = java.nio.file.Files.list(agent.work.resolve("archive/g/i-1"))) {
            assertThat(archived.map(p -> p.getFileName().toString())).containsExactly("gs-fedcba9876543210");
        }
    }

    @Test
    void aProcessBeyondALoweredProcessCountIsKilledAndDeregistered() throws Exception {
        AgentFixture first = new AgentFixture(work);
        first.tick();
        ServerRecord extra = first.standingBy(1);
        new StateFile(first.work).save(first.supervisor);

        AgentFixture second = new AgentFixture(work, "{\"processes\": 1}");
        second.api.registered.putAll(first.api.registered);
        FakeProcesses.Fake process = (FakeProcesses.Fake) extra.process;
        second.processes.adoptable.put(process.pid(), process);
        StateFile.restore(new StateFile(second.work).read().orElseThrow(), second.supervisor, second.processes, second.folders, second.clock,
                new AgentLog(second.clock, second.log::add));
        second.tick();
        assertThat(process.kills).isEqualTo(1);
        assertThat(second.api.registered).doesNotContainKey(extra.gameServerId);
    }
}

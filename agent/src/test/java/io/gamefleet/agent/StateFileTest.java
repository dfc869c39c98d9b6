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
        new StateFile(work).save(first.supervisor);

        // The agent dies; the second process ends while it is away.
        AgentFixture second = new AgentFixture(work);
        second.api.registered.putAll(first.api.registered);
        second.processes.adoptable.put(active.process.pid(), (FakeProcesses.Fake) active.process);
        ((FakeProcesses.Fake) waiting.process).exit(0);
        StateFile.restore(new StateFile(work).read().orElseThrow(), second.supervisor, second.processes, second.clock,
                new AgentLog(second.clock, second.log::add));
        second.tick();

        assertThat(second.server(0).gameServerId).isEqualTo(active.gameServerId);
        assertThat(second.reply(second.server(0), GameState.Active).path("operation").asText()).isEqualTo("Continue");
        assertThat(second.api.registered).containsOnlyKeys(active.gameServerId);
        assertThat(work.resolve("archive/g/i-1").resolve(waiting.gameServerId)).isDirectory();
        assertThat(second.server(1).gameServerId).isNotIn(active.gameServerId, waiting.gameServerId);
        // The match ends later: deregistered then, and replaced.
        ((FakeProcesses.Fake) active.process).exit(0);
        second.tick();
        assertThat(second.api.registered).doesNotContainKey(active.gameServerId);
        assertThat(second.processes.launched).hasSize(2);
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
        assertThat(AgentFixture.JSON.readTree(work.resolve(StateFile.NAME).toFile()).path("servers").get(0)
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
        assertThat(second.supervisor.retiring()).isEmpty();
    }

    /** The agent SIGKILLed and started again, {@code endedMeanwhile}'s process having ended while it was away. */
    private AgentFixture restartedWith(AgentFixture first, ServerRecord endedMeanwhile) throws Exception {
        AgentFixture second = new AgentFixture(work, "{\"processes\": 1}");
        second.api.registered.putAll(first.api.registered);
        ((FakeProcesses.Fake) endedMeanwhile.process).exit(0);
        StateFile.restore(new StateFile(work).read().orElseThrow(), second.supervisor, second.processes, second.clock,
                new AgentLog(second.clock, second.log::add));
        second.tick();
        assertThat(second.api.calls).contains("deregister " + endedMeanwhile.gameServerId);
        return second;
    }

    @Test
    void aProcessBeyondALoweredProcessCountIsKilledAndDeregistered() throws Exception {
        AgentFixture first = new AgentFixture(work);
        first.tick();
        ServerRecord extra = first.standingBy(1);
        new StateFile(work).save(first.supervisor);

        AgentFixture second = new AgentFixture(work, "{\"processes\": 1}");
        second.api.registered.putAll(first.api.registered);
        FakeProcesses.Fake process = (FakeProcesses.Fake) extra.process;
        second.processes.adoptable.put(process.pid(), process);
        StateFile.restore(new StateFile(work).read().orElseThrow(), second.supervisor, second.processes, second.clock,
                new AgentLog(second.clock, second.log::add));
        second.tick();
        assertThat(process.kills).isEqualTo(1);
        assertThat(second.api.registered).doesNotContainKey(extra.gameServerId);
    }
}

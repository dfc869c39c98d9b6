package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The graceful sequence of an instance that goes, on a moved clock with fake processes: each trigger
 * (Gamefleet's retiring notice, a Spot interruption and a rebalance recommendation read from the
 * metadata, an Auto Scaling scale-in, the agent's stop), what is deregistered, told and archived, and
 * when; a process stuck in Terminating killed and replaced.
 */
class GracefulEndTest {
    /** Two processes whose heartbeats the test leaves out while the clock moves by minutes. */
    private static final String LONG_HEARTBEATS = "{\"processes\": 2, \"timings\": {\"heartbeatTimeoutSeconds\": 7200}}";

    @TempDir Path work;
    private final Map<String, String> metadata = new HashMap<>();

    /** Two processes: slot 0 plays a match (Active), slot 1 is StandingBy; the timings are the defaults. */
    private AgentFixture activeAndStandingBy(String overrides) throws Exception {
        AgentFixture a = new AgentFixture(work, overrides);
        a.tick();
        ServerRecord active = a.standingBy(0);
        a.standingBy(1);
        Files.writeString(active.logFolder().resolve(GameServerLaunch.CONSOLE_LOG), "a match\n");
        a.claim(active, "map=dust");
        a.reply(active, GameState.StandingBy);
        a.reply(active, GameState.Active);
        a.tick();
        assertThat(a.api.registered).containsEntry(active.gameServerId, "UTILIZED");
        return a;
    }

    private MaintenanceWatcher watcher(AgentFixture a) {
        return new MaintenanceWatcher(path -> Optional.ofNullable(metadata.get(path)), "i-1", a.clock, a.supervisor::maintenance,
                new AgentLog(a.clock, a.log::add));
    }

    private static String operation(ObjectNode reply) {
        return reply.path("operation").asText();
    }

    private static Path archived(AgentFixture a, ServerRecord s) {
        return a.work.resolve("archive/g/i-1").resolve(s.gameServerId).resolve(LogArchive.REPORT);
    }

    @Test
    void aRetiringNoticeTellsEveryServerAtOnceDeregistersTheStandingByOneAndEndsTheMatchAtItsDeadline() throws Exception {
        AgentFixture a = activeAndStandingBy(LONG_HEARTBEATS);
        ServerRecord active = a.server(0);
        ServerRecord standingBy = a.server(1);
        Instant retiresAt = a.clock.instant().plusSeconds(3600);
        PushConnection push = a.pushConnection(java.net.URI.create("ws://127.0.0.1:1/push"),
                software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider.create(),
                java.util.concurrent.Executors.newSingleThreadScheduledExecutor(), java.time.Duration.ofSeconds(30));
        String notice = "{\"action\":\"retiring\",\"gameServerGroupName\":\"g\",\"instanceId\":\"i-1\",\"retiresAt\":\""
                + retiresAt + "\",\"reason\":\"MAX_INSTANCE_LIFETIME\"}";
        push.deliver(notice.replace("\"i-1\"", "\"i-other\"")); // another instance's: not this agent's end
        a.tick();
        assertThat(a.api.registered).containsKey(standingBy.gameServerId);

        push.deliver(notice);
        a.tick();
        // The maintenance fields at once, for both: V1's time and V2's Terminate event at the instance's end.
        for (ServerRecord s : List.of(active, standingBy)) {
            ObjectNode reply = a.reply(s, s.state);
            assertThat(reply.path("nextScheduledMaintenanceUtc").asText()).isEqualTo("2026-12-01T11:00:00Z");
            JsonNode event = reply.path("maintenanceSchedule").path("Events").get(0);
            assertThat(event.path("eventType").asText()).isEqualTo("Terminate");
            assertThat(event.path("notBefore").asText()).isEqualTo("2026-12-01T11:00:00Z");
        }
        // The StandingBy server: nothing may claim it, so it is deregistered and stopped in the same round.
        assertThat(a.api.registered).doesNotContainKey(standingBy.gameServerId).containsEntry(active.gameServerId, "UTILIZED");
        assertThat(operation(a.reply(standingBy, GameState.StandingBy))).isEqualTo("Terminate");
        a.advance(10); // its TERM, after terminateNoticeSeconds: it exits
        a.tick();
        assertThat(a.processes.launched).as("no new process on a retiring instance").hasSize(2);
        assertThat(archived(a, standingBy)).exists();

        push.deliver(notice); // the balancer's next run: a repeat changes nothing
        a.tick();
        assertThat(a.log.stream().filter(l -> l.contains("graceful end ("))).hasSize(1);

        // The match plays on until terminateNoticeSeconds before the end, then is told Terminate.
        a.clock.advance(java.time.Duration.between(a.clock.instant(), retiresAt.minusSeconds(10)).minusMillis(100));
        a.tick();
        assertThat(operation(a.reply(active, GameState.Active))).isEqualTo("Continue");
        a.advance(0.1);
        assertThat(operation(a.reply(active, GameState.Active))).isEqualTo("Terminate");
        a.reply(active, GameState.Terminated);
        a.processes.launched.get(0).exit(0);
        a.tick();
        assertThat(a.api.registered).isEmpty();
        assertThat(archived(a, active)).exists();
        assertThat(a.work.resolve("archive/g/i-1").resolve(active.gameServerId).resolve(GameServerLaunch.CONSOLE_LOG))
                .hasContent("a match");
        assertThat(a.processes.launched).hasSize(2);
        assertThat(a.supervisor.settled()).isTrue();
    }

    @Test
    void aSpotWarningDeregistersTheStandingByServerAtOnceAndArchivesTheMatchBeforeTheInstanceEnds() throws Exception {
        AgentFixture a = activeAndStandingBy(LONG_HEARTBEATS);
        ServerRecord active = a.server(0);
        ServerRecord standingBy = a.server(1);
        FakeProcesses.Fake match = a.processes.launched.get(0);
        match.exitsOnTerm = false; // a game that ignores TERM: its KILL must come in time too
        MaintenanceWatcher watcher = watcher(a);
        Instant end = a.clock.instant().plusSeconds(120);
        metadata.put(InstanceMetadata.SPOT_INSTANCE_ACTION, "{\"action\": \"terminate\", \"time\": \"" + end + "\"}");
        metadata.put(InstanceMetadata.REBALANCE, "{\"noticeTime\": \"" + a.clock.instant() + "\"}");
        watcher.poll();
        a.tick();
        assertThat(a.api.registered).as("deregistered in the round that read the warning")
                .doesNotContainKey(standingBy.gameServerId);
        assertThat(a.reply(active, GameState.Active).path("nextScheduledMaintenanceUtc").asText()).isEqualTo("2026-12-01T10:02:00Z");

        // Terminate at the end - (terminateNotice 10 + stopGrace 10 + archiveReserve 30) s = 70 s after the warning.
        a.advance(69.9);
        assertThat(operation(a.reply(active, GameState.Active))).isEqualTo("Continue");
        a.advance(0.1);
        assertThat(operation(a.reply(active, GameState.Active))).isEqualTo("Terminate");
        a.advance(10);
        assertThat(match.terms).isEqualTo(1);
        a.advance(10);
        assertThat(match.kills).isEqualTo(1);
        a.tick();
        assertThat(a.clock.instant()).isBefore(end);
        assertThat(archived(a, active)).exists();
        assertThat(a.api.registered).isEmpty();
        assertThat(a.processes.launched).as("no new process on an instance being interrupted").hasSize(2);
        // The match's logs went first: the archive's order, matches before the rest, the oldest first.
        List<String> order = a.log.stream().filter(l -> l.contains("logs archived to")).toList();
        assertThat(order).hasSize(2);
        assertThat(order.get(0)).contains(standingBy.gameServerId); // it ended 60 s before the match did
    }

    @Test
    void endedTogetherTheMatchesAreArchivedFirstTheOldestFirst() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 3, \"ports\": {\"game\": {\"from\": 7000, \"to\": 7009}}}");
        a.tick();
        ServerRecord idle = a.standingBy(0);
        ServerRecord newer = a.standingBy(1);
        ServerRecord older = a.standingBy(2);
        a.claim(older, null);
        a.clock.advanceSeconds(5);
        a.claim(newer, null);
        a.supervisor.agentStops();
        a.processes.launched.forEach(p -> p.exit(0));
        a.tick();
        assertThat(a.log.stream().filter(l -> l.contains("logs archived to")).map(l -> l.substring(l.indexOf("gs-"), l.indexOf(':',
                l.indexOf("gs-"))))).containsExactly(older.gameServerId, newer.gameServerId, idle.gameServerId);
    }

    @Test
    void aRebalanceRecommendationOnlyTellsByDefaultAndWithDrainEmptiesTheInstanceButPlaysTheMatchOut() throws Exception {
        AgentFixture notify = activeAndStandingBy(LONG_HEARTBEATS);
        MaintenanceWatcher watcher = watcher(notify);
        metadata.put(InstanceMetadata.REBALANCE, "{\"noticeTime\": \"2026-12-01T10:00:00Z\"}");
        watcher.poll();
        notify.advance(3600);
        assertThat(notify.api.registered).hasSize(2);
        assertThat(notify.processes.launched.stream().mapToInt(p -> p.terms).sum()).isZero();
        assertThat(notify.reply(notify.server(1), GameState.StandingBy).path("maintenanceSchedule").path("Events").get(0)
                .path("eventType").asText()).isEqualTo("Rebalance");

        work = Files.createDirectories(work.resolve("drain"));
        AgentFixture drain = activeAndStandingBy(LONG_HEARTBEATS.replaceFirst("\\{", "{\"rebalance\": \"drain\", "));
        ServerRecord match = drain.server(0);
        ServerRecord standingBy = drain.server(1);
        watcher(drain).poll();
        drain.tick();
        assertThat(drain.api.registered).containsOnlyKeys(match.gameServerId);
        drain.advance(3600);
        drain.tick();
        assertThat(operation(drain.reply(match, GameState.Active))).as("no end is known: the match is played out").isEqualTo("Continue");
        assertThat(drain.processes.launched).hasSize(2);
        assertThat(archived(drain, standingBy)).exists();
    }

    @Test
    void anAutoScalingScaleInEndsEverythingAtOnce() throws Exception {
        AgentFixture a = activeAndStandingBy("{\"processes\": 2}");
        MaintenanceWatcher watcher = watcher(a);
        metadata.put(InstanceMetadata.TARGET_LIFECYCLE_STATE, "InService");
        watcher.poll();
        a.tick();
        assertThat(a.api.registered).hasSize(2);
        metadata.put(InstanceMetadata.TARGET_LIFECYCLE_STATE, "Terminated");
        watcher.poll();
        a.tick();
        for (int slot = 0; slot < 2; slot++) {
            ObjectNode reply = a.reply(a.server(slot), a.server(slot).state);
            assertThat(operation(reply)).isEqualTo("Terminate");
            assertThat(reply.path("nextScheduledMaintenanceUtc").asText()).isEqualTo("2026-12-01T10:00:00Z");
        }
        assertThat(a.api.registered).isEmpty();
    }

    @Test
    void theAgentsStopTellsEveryProcessTerminateFirstAndIsSettledOnceEachIsDeregisteredAndArchived() throws Exception {
        AgentFixture a = activeAndStandingBy("{\"processes\": 2}");
        List<ServerRecord> both = List.of(a.server(0), a.server(1));
        a.supervisor.agentStops();
        a.tick();
        for (ServerRecord s : both) {
            ObjectNode reply = a.reply(s, s.state);
            assertThat(operation(reply)).isEqualTo("Terminate");
            assertThat(reply.path("maintenanceSchedule").path("Events").get(0).path("description").asText())
                    .contains("agent stops");
        }
        assertThat(a.processes.launched.stream().mapToInt(p -> p.terms).sum()).as("Terminate first, TERM after its notice").isZero();
        assertThat(a.supervisor.settled()).isFalse();
        for (ServerRecord s : both) {
            a.reply(s, GameState.Terminated);
        }
        a.processes.launched.forEach(p -> p.exit(0));
        a.tick();
        assertThat(a.api.registered).isEmpty();
        both.forEach(s -> assertThat(archived(a, s)).exists());
        assertThat(a.supervisor.settled()).isTrue();
        assertThat(a.processes.launched).hasSize(2);
    }

    @Test
    void aStoppingAgentWhoseApiIsAwayIsSettledOnceEachDeregistrationWasTried() throws Exception {
        AgentFixture a = activeAndStandingBy("{\"processes\": 2}");
        a.api.down = true;
        a.supervisor.agentStops();
        a.processes.launched.forEach(p -> p.exit(0));
        a.tick();
        assertThat(a.api.registered).hasSize(2);
        assertThat(a.supervisor.settled()).as("left to Gamefleet's health timeout").isTrue();
    }

    @Test
    void aProcessStuckInTerminatingIsKilledThenGivenUpOnAndReplaced() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.standingBy(0);
        FakeProcesses.Fake stuck = a.processes.last();
        stuck.exitsOnTerm = false;
        stuck.survivesKill = true;
        assertThat(operation(a.reply(s, GameState.Terminating))).isEqualTo("Terminate");
        a.tick();
        assertThat(a.api.registered).isEmpty();
        a.advance(10); // terminateNoticeSeconds: TERM, ignored
        assertThat(stuck.terms).isEqualTo(1);
        a.advance(10); // stopGraceSeconds: KILL, and it still runs (the kernel holds it)
        assertThat(stuck.kills).isEqualTo(1);
        assertThat(stuck.alive).isTrue();
        a.advance(9.9);
        assertThat(a.processes.launched).hasSize(1);
        a.advance(0.1);
        a.advance(1); // the backoff: it ended too soon after StandingBy, with no match
        assertThat(a.log).anyMatch(l -> l.contains(s.gameServerId + ": still running 10.0 s after KILL (stuck in Terminating)"));
        assertThat(archived(a, s)).exists();
        assertThat(a.processes.launched).as("replaced").hasSize(2);
    }
}

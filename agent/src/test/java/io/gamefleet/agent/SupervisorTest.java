package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lifecycle on a fake clock with fake processes and a fake FleetIQ. */
class SupervisorTest {
    @TempDir Path work;

    @Test
    void startsEveryProcessWithItsPortsIdsAndGsdkConfig() throws Exception {
        AgentFixture a = new AgentFixture(work);
        a.tick();
        assertThat(a.processes.launched).hasSize(2);
        ServerRecord s0 = a.server(0);
        ServerRecord s1 = a.server(1);
        assertThat(s0.gameServerId).isNotEqualTo(s1.gameServerId);
        assertThat(s0.sessionHostId).hasSize(32).isNotEqualTo(s1.sessionHostId);
        ProcessLauncher.LaunchSpec spec = a.processes.specs.get(1);
        assertThat(spec.command()).containsExactly("/opt/game/server", "--port", "7001", "--id", s1.gameServerId,
                "--logs", s1.logFolder().toString());
        assertThat(spec.outputFile()).isEqualTo(s1.logFolder().resolve("PF_ConsoleLogs.txt"));
        assertThat(spec.environment()).containsEntry("PF_TITLE_ID", "T1").containsEntry("PF_BUILD_ID", "B1")
                .containsEntry("PF_VM_ID", "i-1").containsEntry("PF_SERVER_INSTANCE_NUMBER", "1")
                .containsEntry("PF_REGION", "us-east-1").containsEntry("PF_SERVER_LOG_DIRECTORY", s1.logFolder().toString());
        // Of the agent's own environment, only the allow-list; the session host id is in the config file alone.
        assertThat(spec.environment()).containsEntry("PATH", "/usr/bin:/bin").containsEntry("LANG", "C.UTF-8")
                .containsEntry("LC_TIME", "en_GB.UTF-8").containsEntry("TZ", "UTC")
                .containsEntry("HOME", s1.folder.toString()).containsEntry("TMPDIR", s1.folder.toString())
                .doesNotContainKeys("AWS_SECRET_ACCESS_KEY", "AWS_ACCESS_KEY_ID", "GAMEFLEET_LOCAL_TOKEN", "USER", "SESSION_HOST_ID",
                        "HEARTBEAT_ENDPOINT");
        assertThat(spec.environment().values()).doesNotContain(s1.sessionHostId, "agent-secret", "local-token");
        assertThat(spec.workingDirectory()).isEqualTo(s1.folder);
        assertThat(s1.folder.getParent()).isEqualTo(a.config.serversDirectory());
        JsonNode gsdk = AgentFixture.JSON.readTree(Path.of(spec.environment().get("GSDK_CONFIG_FILE")).toFile());
        assertThat(gsdk.path("heartbeatEndpoint").asText()).isEqualTo("127.0.0.1:56001");
        assertThat(gsdk.path("sessionHostId").asText()).isEqualTo(s1.sessionHostId);
        assertThat(gsdk.path("gamePorts").path("game").asText()).isEqualTo("7001");
        assertThat(gsdk.path("gamePorts").path("query").asText()).isEqualTo("8001");
        assertThat(gsdk.path("serverInstanceNumber").asInt()).isEqualTo(1);
        assertThat(gsdk.path("gameServerConnectionInfo").path("publicIpV4Adress").asText()).isEqualTo("10.0.0.5");
        assertThat(gsdk.path("gameServerConnectionInfo").path("gamePortsConfiguration").get(0).path("serverListeningPort").asInt())
                .isEqualTo(7001);
    }

    @Test
    void initializingIsNotRegisteredStandingByIsAndHealthGoesOncePerPeriodNotPerHeartbeat() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.server(0);
        assertThat(a.reply(s, GameState.Initializing).path("operation").asText()).isEqualTo("Continue");
        a.tick();
        assertThat(a.api.calls).isEmpty();
        a.reply(s, GameState.StandingBy);
        a.tick();
        assertThat(a.api.calls).containsExactly("register " + s.gameServerId);
        assertThat(a.api.connectionInfo.get(s.gameServerId)).isEqualTo("10.0.0.5:7000");
        for (int i = 0; i < 59; i++) {
            a.advance(1);
            a.reply(s, GameState.StandingBy);
        }
        assertThat(a.api.calls).hasSize(1);
        a.advance(1);
        assertThat(a.api.calls).containsExactly("register " + s.gameServerId, "update " + s.gameServerId + " HEALTHY");
    }

    @Test
    void anUnhealthyProcessGetsNoHealthReports() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.standingBy(0);
        a.supervisor.sessions().heartbeat(s.sessionHostId, new Heartbeat(GameState.StandingBy, false, List.of()));
        a.advance(61);
        assertThat(a.api.count("update")).isZero();
    }

    @Test
    void aClaimIsAnsweredActiveWithItsSessionConfigAndTheServerIsUtilized() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.standingBy(0);
        a.claim(s, "map=dust2");
        ObjectNode reply = a.reply(s, GameState.StandingBy);
        assertThat(reply.path("operation").asText()).isEqualTo("Active");
        JsonNode session = reply.path("sessionConfig");
        assertThat(session.path("sessionCookie").asText()).isEqualTo("map=dust2");
        assertThat(session.path("sessionId").asText()).hasSize(36);
        assertThat(session.path("metadata").path("gameServerId").asText()).isEqualTo(s.gameServerId);
        assertThat(session.path("metadata").path("instanceId").asText()).isEqualTo("i-1");
        a.tick();
        assertThat(a.api.registered).containsEntry(s.gameServerId, "UTILIZED");
        assertThat(a.reply(s, GameState.Active).path("operation").asText()).isEqualTo("Continue");
        assertThat(a.api.count("update")).isEqualTo(1);
    }

    /** A StandingBy process beats at standingByHeartbeatSeconds (its claim waits for a beat), every other once a second. */
    @Test
    void aStandingByProcessIsAnsweredTheShortIntervalAndEveryOtherStateASecond() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1, \"timings\": {\"standingByHeartbeatSeconds\": 0.25}}");
        a.tick();
        ServerRecord s = a.server(0);
        assertThat(a.reply(s, GameState.Initializing).path("nextHeartbeatIntervalMs").asInt()).isEqualTo(1000);
        assertThat(a.reply(s, GameState.StandingBy).path("nextHeartbeatIntervalMs").asInt()).isEqualTo(250);
        a.claim(s, "map=dust2");
        a.tick();
        ObjectNode active = a.reply(s, GameState.StandingBy);
        assertThat(active.path("operation").asText()).isEqualTo("Active");
        assertThat(active.path("nextHeartbeatIntervalMs").asInt()).as("told Active: its match has begun").isEqualTo(1000);
        assertThat(a.reply(s, GameState.Active).path("nextHeartbeatIntervalMs").asInt()).isEqualTo(1000);
    }

    @Test
    void utilizedIsWrittenBeforeTheProcessIsToldActive() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}", true);
        a.tick();
        ServerRecord s = a.reportsStandingBy(0);
        a.runApiCalls();
        a.claim(s, "map=dust2");
        assertThat(a.reply(s, GameState.StandingBy).path("operation").asText()).as("UTILIZED not answered yet").isEqualTo("Continue");
        a.runApiCalls();
        assertThat(a.api.calls).last().isEqualTo("update " + s.gameServerId + " HEALTHY UTILIZED");
        assertThat(a.reply(s, GameState.StandingBy).path("operation").asText()).isEqualTo("Active");
        assertThat(a.api.registered).containsEntry(s.gameServerId, "UTILIZED");
    }

    @Test
    void aClaimWhoseUtilizedWentThroughWithinItIsToldActiveAtTheProcesssNextHeartbeatEvenAfterItsEnd() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1, \"timings\": {\"heartbeatTimeoutSeconds\": 100}}");
        a.tick();
        ServerRecord s = a.standingBy(0);
        a.claim(s, "late");
        assertThat(a.api.registered).containsEntry(s.gameServerId, "UTILIZED");
        a.clock.advanceSeconds(60);
        a.tick();
        // FleetIQ holds the match as this server's: its players are on their way.
        assertThat(a.reply(s, GameState.StandingBy).path("operation").asText()).isEqualTo("Active");
    }

    @Test
    void anActiveReportedOnceUtilizedWentThroughWithinTheClaimIsAcceptedThoughTheReplyThatToldItWasLost() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.standingBy(0);
        a.claim(s, "map=dust2");
        // The previous agent told it Active and died before saving so: this one has not told it.
        assertThat(s.activeSent).isFalse();
        assertThat(a.reply(s, GameState.Active).path("operation").asText()).isEqualTo("Continue");
        assertThat(s.state).isEqualTo(GameState.Active);
        assertThat(s.activeSent).as("it plays a match").isTrue();
    }

    @Test
    void aClaimThatLapsesWhileItsUtilizedCannotBeWrittenIsNeverTurnedIntoActiveAndItsServerMakesWay() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1, \"timings\": {\"heartbeatTimeoutSeconds\": 100}}");
        a.tick();
        ServerRecord s = a.standingBy(0);
        a.api.down = true;
        a.claim(s, "lost");
        assertThat(a.reply(s, GameState.StandingBy).path("operation").asText()).isEqualTo("Continue");
        a.clock.advanceSeconds(60);
        a.tick();
        // The write may have reached FleetIQ (no answer): a server UTILIZED with no match is never claimed again.
        assertThat(a.reply(s, GameState.StandingBy).path("operation").asText()).isEqualTo("Terminate");
        assertThat(s.activeSent).isFalse();
        assertThat(a.log).anyMatch(l -> l.contains(s.gameServerId + ": stopping: its claim lapsed before FleetIQ took its UTILIZED"));
        a.api.down = false;
        a.advance(30);
        assertThat(a.api.registered).doesNotContainKey(s.gameServerId);
    }

    @Test
    void aUtilizedAnsweredOnlyAfterTheClaimEndedIsNotTurnedIntoActive() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1, \"timings\": {\"heartbeatTimeoutSeconds\": 100}}", true);
        a.tick();
        ServerRecord s = a.reportsStandingBy(0);
        a.runApiCalls();
        a.claim(s, "slow");
        a.clock.advanceSeconds(60);
        a.runApiCalls(); // FleetIQ takes the UTILIZED, but the claim has ended
        a.tick();
        assertThat(a.reply(s, GameState.StandingBy).path("operation").asText()).isEqualTo("Terminate");
        assertThat(s.activeSent).isFalse();
    }

    @Test
    void aClaimThatLapsesBeforeAnyUtilizedWentOutIsDroppedAndItsServerStaysAvailable() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1, \"timings\": {\"heartbeatTimeoutSeconds\": 1000}}", true);
        a.tick();
        ServerRecord s = a.reportsStandingBy(0);
        a.advance(60); // its first health report goes out, and stays in flight
        assertThat(s.apiInFlight).isTrue();
        a.claim(s, "busy");
        a.clock.advanceSeconds(60);
        a.tick();
        assertThat(a.reply(s, GameState.StandingBy).path("operation").asText()).isEqualTo("Continue");
        assertThat(s.claim).isNull();
        assertThat(s.stopping()).isFalse();
        assertThat(a.log).anyMatch(l -> l.contains(s.gameServerId + ": claim lapsed before its UTILIZED could be written"));
    }

    @Test
    void aRegistrationRefusedAsAnotherInstancesServerIsRetriedOnTheBackoffAndNeverDeregistered() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.server(0);
        a.api.takenElsewhere.add(s.gameServerId);
        a.reply(s, GameState.Initializing);
        a.reply(s, GameState.StandingBy);
        a.tick();
        a.tick();
        assertThat(a.api.count("register")).isEqualTo(1);
        assertThat(s.registration).isEqualTo(ServerRecord.Registration.NONE);
        assertThat(s.registerAttempted).isFalse();
        assertThat(a.log).anyMatch(l -> l.contains("WARN " + s.gameServerId + ": RegisterGameServer failed (refused as a conflict: "
                + s.gameServerId + " is registered on instance i-other") && l.endsWith("retry in 1000 ms"));
        a.clock.advanceSeconds(1);
        a.reply(s, GameState.StandingBy);
        a.tick();
        assertThat(a.api.count("register")).isEqualTo(2);
        a.processes.last().exit(0);
        a.advance(1);
        assertThat(a.api.count("deregister")).as("the server of that id is another instance's").isZero();
    }

    @Test
    void aProcessThatEndsIsDeregisteredArchivedAndReplacedWithANewId() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.standingBy(0);
        Files.writeString(s.logFolder().resolve("PF_ConsoleLogs.txt"), "match over\n");
        a.claim(s, null);
        a.reply(s, GameState.StandingBy);
        a.reply(s, GameState.Active);
        a.tick();
        a.processes.last().exit(0);
        a.tick();
        assertThat(a.api.registered).doesNotContainKey(s.gameServerId);
        assertThat(a.api.calls).contains("deregister " + s.gameServerId);
        Path archived = a.work.resolve("archive/g/i-1").resolve(s.gameServerId);
        assertThat(archived.resolve("PF_ConsoleLogs.txt")).hasContent("match over");
        JsonNode report = AgentFixture.JSON.readTree(archived.resolve("agent-report.json").toFile());
        assertThat(report.path("exitCode").asInt()).isZero();
        assertThat(report.path("lastState").asText()).isEqualTo("Active");
        assertThat(s.folder).doesNotExist();
        assertThat(a.processes.launched).hasSize(2);
        assertThat(a.server(0).gameServerId).isNotEqualTo(s.gameServerId);
        assertThat(a.supervisor.leaving()).isEmpty();
        assertThat(a.beat(s, GameState.Active)).isInstanceOf(GsdkAnswer.Refusal.class);
    }

    @Test
    void aCrashLoopIsRestartedWithBackoffAndReported() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        double[] expectedDelays = {1, 2, 4, 8};
        for (double delay : expectedDelays) {
            int before = a.processes.launched.size();
            java.nio.file.Files.writeString(a.processes.specs.get(before - 1).outputFile(),
                    "loading\n/bin/sh: 1: /abs/MyServer: not found\n");
            a.processes.last().exit(1);
            a.tick();
            a.advance(delay - 0.1);
            assertThat(a.processes.launched).hasSize(before);
            a.advance(0.1);
            assertThat(a.processes.launched).hasSize(before + 1);
        }
        assertThat(a.log).anyMatch(l -> l.contains("WARN crash loop:") && l.contains("failed 3 time(s) in a row"));
        assertThat(a.log).as("the reason is in the line that says it failed")
                .anyMatch(l -> l.endsWith("its last output: loading | /bin/sh: 1: /abs/MyServer: not found"));
        // A process that plays a match and ends normally clears the count.
        ServerRecord s = a.standingBy(0);
        a.claim(s, null);
        a.reply(s, GameState.StandingBy);
        a.reply(s, GameState.Active);
        a.processes.last().exit(0);
        a.tick();
        assertThat(a.processes.launched).hasSize(6);
        assertThat(a.supervisor.slots()[0].failures).isZero();
    }

    @Test
    void aProcessThatEndsSoonAfterStandingByWithNoMatchIsAFailureSoItsLoopBacksOff() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1, \"timings\": {\"startTimeoutSeconds\": 30}}");
        a.tick();
        double[] expectedDelays = {1, 2, 4};
        for (int i = 0; i < expectedDelays.length; i++) {
            int before = a.processes.launched.size();
            ServerRecord s = a.standingBy(0);
            if (i % 2 == 0) {
                a.processes.last().exit(0); // ReadyForPlayers, then exit 0
            } else {
                a.reply(s, GameState.Terminated); // or says so first
                a.processes.last().exit(0);
            }
            a.tick();
            assertThat(a.api.registered).doesNotContainKey(s.gameServerId);
            a.advance(expectedDelays[i] - 0.1);
            assertThat(a.processes.launched).hasSize(before);
            a.advance(0.1);
            assertThat(a.processes.launched).hasSize(before + 1);
        }
        assertThat(a.log).anyMatch(l -> l.contains("WARN crash loop:"));
        // One that stays up the start timeout before it ends is no failure: the count clears.
        a.beatFor(a.standingBy(0), GameState.StandingBy, 30);
        a.processes.last().exit(0);
        a.tick();
        assertThat(a.processes.launched).hasSize(5);
        assertThat(a.supervisor.slots()[0].failures).isZero();
    }

    @Test
    void aLaunchThatFailsIsRetriedWithBackoff() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.processes.failLaunch = new java.io.IOException("no such file");
        a.tick();
        a.processes.failLaunch = null;
        a.advance(0.9);
        assertThat(a.processes.launched).isEmpty();
        a.advance(0.1);
        assertThat(a.processes.launched).hasSize(1);
    }

    @Test
    void aProcessNotStandingByWithinTheStartTimeoutIsStoppedTermGraceKillAndReplaced() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1, \"timings\": {\"startTimeoutSeconds\": 30, \"stopGraceSeconds\": 5}}");
        a.tick();
        FakeProcesses.Fake p = a.processes.last();
        p.exitsOnTerm = false;
        a.reply(a.server(0), GameState.Initializing);
        for (int i = 0; i < 29; i++) {
            a.advance(1);
            a.reply(a.server(0), GameState.Initializing);
        }
        assertThat(p.terms).isZero();
        a.advance(1);
        assertThat(p.terms).isEqualTo(1);
        assertThat(a.reply(a.server(0), GameState.Initializing).path("operation").asText()).isEqualTo("Terminate");
        a.advance(4.9);
        assertThat(p.kills).isZero();
        a.advance(0.1);
        assertThat(p.kills).isEqualTo(1);
        a.tick();
        assertThat(a.processes.launched).hasSize(1); // a failure: the replacement waits its backoff
        a.advance(1);
        assertThat(a.processes.launched).hasSize(2);
    }

    @Test
    void aProcessThatStopsHeartbeatingIsTreatedAsCrashed() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.standingBy(0);
        a.advance(9.9);
        assertThat(a.processes.last().terms).isZero();
        a.advance(0.1);
        assertThat(a.processes.launched.get(0).terms).isEqualTo(1);
        a.tick();
        assertThat(a.api.registered).doesNotContainKey(s.gameServerId);
        assertThat(a.supervisor.slots()[0].failures).isEqualTo(1);
    }

    @Test
    void anOperatorsShutdownTellsTerminateThenTermGraceKillAndReplacesAtOnce() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1, \"timings\": {\"terminateNoticeSeconds\": 10, \"stopGraceSeconds\": 5}}");
        a.tick();
        ServerRecord s = a.standingBy(0);
        a.claim(s, null);
        a.reply(s, GameState.StandingBy);
        a.reply(s, GameState.Active);
        a.tick();
        FakeProcesses.Fake p = a.processes.last();
        p.exitsOnTerm = false;
        a.api.operatorDeregisters(s.gameServerId);
        a.supervisor.terminate(new Notices.Terminate(s.gameServerId, "operator"));
        assertThat(a.reply(s, GameState.Active).path("operation").asText()).isEqualTo("Terminate");
        a.advance(9.9);
        assertThat(p.terms).isZero();
        a.advance(0.1);
        assertThat(p.terms).isEqualTo(1);
        a.advance(5);
        assertThat(p.kills).isEqualTo(1);
        a.tick();
        assertThat(a.processes.launched).hasSize(2);
        assertThat(a.supervisor.slots()[0].failures).isZero();
        assertThat(a.supervisor.leaving()).isEmpty();
    }

    @Test
    void aProcessThatReportsTerminatingIsDeregisteredAndToldTerminate() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.standingBy(0);
        assertThat(a.reply(s, GameState.Terminating).path("operation").asText()).isEqualTo("Terminate");
        a.tick();
        assertThat(a.api.registered).isEmpty();
    }

    @Test
    void maintenanceReachesEveryProcessAsPlayFabsFields() throws Exception {
        AgentFixture a = new AgentFixture(work);
        a.tick();
        java.time.Instant at = a.clock.instant().plusSeconds(120);
        a.supervisor.maintenance(new MaintenanceEvent.Schedule(1, List.of(new MaintenanceEvent("spot-1", "Preempt",
                List.of("i-1"), "Scheduled", at, "EC2 Spot interruption", "EC2 Spot", 0))));
        for (int slot = 0; slot < 2; slot++) {
            ObjectNode reply = a.reply(a.server(slot), GameState.Initializing);
            assertThat(reply.path("nextScheduledMaintenanceUtc").asText()).isEqualTo("2026-12-01T10:02:00Z");
            JsonNode event = reply.path("maintenanceSchedule").path("Events").get(0);
            assertThat(reply.path("maintenanceSchedule").path("documentIncarnation").asText()).isEqualTo("1");
            assertThat(event.path("eventType").asText()).isEqualTo("Preempt");
            assertThat(event.path("notBefore").asText()).isEqualTo("2026-12-01T10:02:00Z");
            assertThat(event.path("Resources").get(0).asText()).isEqualTo("i-1");
            assertThat(event.path("resourceType").asText()).isEqualTo("VirtualMachine");
        }
        ObjectNode again = a.reply(a.server(0), GameState.Initializing);
        assertThat(again.has("maintenanceSchedule")).isFalse();
        assertThat(again.path("nextScheduledMaintenanceUtc").asText()).isEqualTo("2026-12-01T10:02:00Z");
    }

    @Test
    void refusalsChangeNothingAndEveryOtherProcessIsStillServed() throws Exception {
        AgentFixture a = new AgentFixture(work);
        a.tick();
        ServerRecord s = a.standingBy(0);
        GsdkAnswer back = a.beat(s, GameState.Initializing);
        assertThat(back).isInstanceOfSatisfying(GsdkAnswer.Refusal.class, r -> {
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.message()).contains("StandingBy -> Initializing");
        });
        assertThat(s.state).isEqualTo(GameState.StandingBy);
        assertThat(a.beat(s, GameState.Active)).isInstanceOf(GsdkAnswer.Refusal.class);
        assertThat(a.supervisor.sessions().heartbeat("0".repeat(32), new Heartbeat(GameState.StandingBy, true, List.of())))
                .isInstanceOfSatisfying(GsdkAnswer.Refusal.class, r -> assertThat(r.status()).isEqualTo(404));
        a.claim(s, null);
        a.reply(s, GameState.StandingBy);
        a.reply(s, GameState.Active);
        assertThat(a.beat(s, GameState.StandingBy)).isInstanceOfSatisfying(GsdkAnswer.Refusal.class,
                r -> assertThat(r.message()).contains("Active -> StandingBy"));
        assertThat(s.state).isEqualTo(GameState.Active);
        assertThat(a.reply(a.server(1), GameState.Initializing).path("operation").asText()).isEqualTo("Continue");
        a.tick();
        assertThat(a.api.registered).containsEntry(s.gameServerId, "UTILIZED");
    }

    /** The states a process can be in when it beats, and the states it may report from each; all others are refused. */
    enum From {
        NO_HEARTBEAT_YET(GameState.Initializing, GameState.StandingBy, GameState.Terminating, GameState.Terminated),
        INITIALIZING(GameState.Initializing, GameState.StandingBy, GameState.Terminating, GameState.Terminated),
        STANDING_BY(GameState.StandingBy, GameState.Terminating, GameState.Terminated),
        STANDING_BY_TOLD_ACTIVE(GameState.StandingBy, GameState.Active, GameState.Terminating, GameState.Terminated),
        ACTIVE(GameState.Active, GameState.Terminating, GameState.Terminated),
        TERMINATING(GameState.Terminating, GameState.Terminated),
        TERMINATED(GameState.Terminated);

        final java.util.Set<GameState> allowed;

        From(GameState... allowed) {
            this.allowed = java.util.Set.of(allowed);
        }

        ServerRecord reach(AgentFixture a) {
            ServerRecord s = a.server(0);
            switch (this) {
                case NO_HEARTBEAT_YET -> { }
                case INITIALIZING -> a.reply(s, GameState.Initializing);
                case TERMINATING, TERMINATED -> {
                    a.standingBy(0);
                    a.reply(s, this == TERMINATING ? GameState.Terminating : GameState.Terminated);
                }
                default -> {
                    a.standingBy(0);
                    if (this != STANDING_BY) {
                        a.claim(s, null);
                        a.reply(s, GameState.StandingBy);
                    }
                    if (this == ACTIVE) {
                        a.reply(s, GameState.Active);
                    }
                }
            }
            return s;
        }
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> everyTransition() {
        return java.util.Arrays.stream(From.values()).flatMap(from -> java.util.Arrays.stream(GameState.values())
                .map(to -> org.junit.jupiter.params.provider.Arguments.of(from, to)));
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0} -> {1}")
    @org.junit.jupiter.params.provider.MethodSource("everyTransition")
    void everyTransitionIsAllowedOrRefusedAsTheTableSaysAndARefusalChangesNothing(From from, GameState to) throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = from.reach(a);
        GameState state = s.state;
        java.time.Instant lastHeartbeat = s.lastHeartbeat;
        boolean stopping = s.stopping();
        boolean toldActive = s.activeSent;
        int calls = a.api.calls.size();
        a.clock.advanceSeconds(0.5);
        GsdkAnswer answer = a.beat(s, to);
        if (from.allowed.contains(to)) {
            assertThat(answer).isInstanceOf(GsdkAnswer.Reply.class);
            assertThat(s.state).isEqualTo(to);
            return;
        }
        assertThat(answer).isInstanceOfSatisfying(GsdkAnswer.Refusal.class, r -> {
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.error()).isEqualTo("InvalidTransition");
        });
        assertThat(s.state).isEqualTo(state);
        assertThat(s.lastHeartbeat).isEqualTo(lastHeartbeat);
        assertThat(s.stopping()).isEqualTo(stopping);
        assertThat(s.activeSent).isEqualTo(toldActive);
        assertThat(a.api.calls).hasSize(calls);
    }

    @Test
    void invalidAndQuarantinedAreNeverEnteredSoNothingLeavesThem() {
        for (GameState unreported : List.of(GameState.Invalid, GameState.Quarantined)) {
            for (GameState to : GameState.values()) {
                assertThat(GsdkTransitions.refusal(unreported, to, true)).as(unreported + " -> " + to).isPresent();
            }
        }
    }

    @Test
    void anUnreachableApiIsRetriedWithBackoffWhileTheProcessesRunAndNothingStaysRegisteredWithoutOne() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.server(0);
        a.api.down = true;
        a.reply(s, GameState.StandingBy);
        a.tick();
        a.advance(0.9);
        a.advance(0.1);
        a.advance(1.9);
        a.advance(0.1);
        assertThat(a.api.calls).hasSize(3).allMatch(c -> c.endsWith("(unreachable)"));
        assertThat(a.processes.last().alive).isTrue();
        a.api.down = false;
        a.advance(4);
        assertThat(a.api.registered).containsKey(s.gameServerId);
        // It ends while the API is away again: kept until its deregistration goes through.
        a.api.down = true;
        a.processes.last().exit(0);
        a.advance(1);
        assertThat(a.supervisor.leaving()).extracting(r -> r.gameServerId).containsExactly(s.gameServerId);
        a.api.down = false;
        a.advance(30);
        assertThat(a.api.registered).doesNotContainKey(s.gameServerId);
        assertThat(a.supervisor.leaving()).isEmpty();
    }

    @Test
    void aRegistrationInFlightWhoseAnswerIsLostIsDeregisteredWhenItsProcessEnds() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}", true);
        a.tick();
        ServerRecord s = a.reportsStandingBy(0);
        a.processes.last().exit(1);
        a.tick();
        a.api.answersLost = true;
        a.runApiCalls(); // RegisterGameServer went through; its answer timed out
        a.api.answersLost = false;
        assertThat(a.api.registered).containsKey(s.gameServerId);
        assertThat(a.supervisor.leaving()).extracting(r -> r.gameServerId).containsExactly(s.gameServerId);
        a.advance(1);
        a.runApiCalls();
        assertThat(a.api.calls).containsSubsequence("register " + s.gameServerId, "deregister " + s.gameServerId);
        assertThat(a.api.registered).isEmpty();
        a.tick();
        assertThat(a.supervisor.leaving()).isEmpty();
    }

    @Test
    void aRegistrationThatFailedWithAFaultIsDeregisteredWhenItsProcessEndsAndNotFoundIsFinal() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.server(0);
        a.api.down = true;
        a.reply(s, GameState.StandingBy);
        a.tick();
        a.api.down = false;
        a.processes.last().exit(0);
        a.advance(1);
        assertThat(a.api.calls).containsExactly("register " + s.gameServerId + " (unreachable)", "deregister " + s.gameServerId);
        assertThat(a.supervisor.leaving()).isEmpty();
        a.advance(60);
        assertThat(a.api.count("deregister")).isEqualTo(1);
    }

    @Test
    void aRegistrationRefusedNotFoundIsRetriedWithBackoffNotEveryRound() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.server(0);
        a.api.groupMissing = true;
        a.reply(s, GameState.StandingBy);
        a.beatFor(s, GameState.StandingBy, 7);
        // 1 s, then 2 s apart (apiRetryInitialSeconds 1): at 1, 2 and 4 s, not at each of the 8 rounds
        assertThat(a.api.count("register")).isEqualTo(3);
        a.api.groupMissing = false;
        a.beatFor(s, GameState.StandingBy, 5);
        assertThat(a.api.registered).containsEntry(s.gameServerId, "AVAILABLE");
    }

    @Test
    void aServerFleetIqDroppedDuringAnOutageIsRegisteredAgain() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.standingBy(0);
        a.api.operatorDeregisters(s.gameServerId); // the health sweep, in FleetIQ's place
        a.beatFor(s, GameState.StandingBy, 61);
        assertThat(a.api.registered).containsEntry(s.gameServerId, "AVAILABLE");
    }

    @Test
    void wrapperModeIsReadyWhenTheProbeSaysSoUtilizedOnAClaimAndStoppedAtOnceOnTerminate() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1, \"mode\": \"wrapper\", \"wrapper\": {\"readyPort\": \"game\"}}");
        a.tick();
        ServerRecord s = a.server(0);
        a.advance(10);
        assertThat(a.api.calls).isEmpty();
        a.ready.add(s.gameServerId);
        a.tick();
        a.tick();
        assertThat(a.api.registered).containsEntry(s.gameServerId, "AVAILABLE");
        a.advance(100); // no heartbeats: none expected
        assertThat(a.processes.last().terms).isZero();
        a.claim(s, null);
        a.tick();
        assertThat(a.api.registered).containsEntry(s.gameServerId, "UTILIZED");
        a.supervisor.terminate(new Notices.Terminate(s.gameServerId, "operator"));
        a.tick();
        assertThat(a.processes.launched.get(0).terms).isEqualTo(1);
    }

    @Test
    void wrapperModeNotReadyWithinTheStartTimeoutIsStopped() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1, \"mode\": \"wrapper\", \"wrapper\": {\"readyLine\": \"listening\"}, \"timings\": {\"startTimeoutSeconds\": 5}}");
        a.tick();
        a.advance(5);
        assertThat(a.processes.launched.get(0).terms).isEqualTo(1);
    }
}

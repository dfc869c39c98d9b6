package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static io.gamefleet.domain.GameServerServiceTest.fails;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.HealthReports.Report;
import io.gamefleet.domain.Metrics.ProcessCounts;
import io.gamefleet.domain.fakes.RecordingMetrics.ProcessEventsReport;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The processes in the agents' health reports: kept only when they change (in the lease's write
 * when that is due too), read by an administrator, counted per group by the balancer, and the
 * instance's crashes and start timeouts counted once its report is taken.
 */
class ProcessReportsTest {
    private static final Duration PERIOD = Duration.ofSeconds(30);
    private static final ProcessReport STANDING_BY = new ProcessReport(ProcessState.StandingBy, 0, List.of(), 0, 0, null);
    private static final ProcessReport ACTIVE = new ProcessReport(ProcessState.Active, 2, List.of("p1", "p2"), 1, 0, 139);

    private final Fleet fleet = new Fleet();
    /** Each lease or process write of the servers, counted. */
    private final AtomicInteger writes = new AtomicInteger();
    private final GameServerRepository counted = Fleet.around(GameServerRepository.class, fleet.servers,
            (method, args, proceed) -> {
                if (method.equals("setHealthLease")) {
                    writes.incrementAndGet();
                }
                return proceed.call();
            });
    private final HealthReports reports = new HealthReports(counted, fleet.instances, () -> fleet.metrics,
            Fleet.LIFETIME, fleet.clock);

    @BeforeEach
    void anInstanceWithAnAgentAndTwoServers() {
        fleet.activeGroup();
        fleet.launch("i-1", C5);
        fleet.launch("i-2", C5);
        fleet.pushConnections().connect(Caller.onInstance("i-1"), GROUP, "i-1", "conn-1", OptionalInt.empty());
        fleet.register("gs-1", "i-1");
        fleet.register("gs-2", "i-1");
        fleet.register("gs-9", "i-2");
    }

    private void report(ProcessEvents events, Report... servers) {
        reports.report("conn-1", GROUP, List.of(servers), events);
    }

    private static Report with(String id, ProcessReport process) {
        return new Report(id, true, Optional.of(process));
    }

    @Test
    void aProcessIsWrittenWhenItChangesAndNotOnceMore() {
        report(ProcessEvents.NONE, with("gs-1", STANDING_BY), new Report("gs-2", true));
        assertThat(writes).as("both leases start; gs-1's process in its lease's write").hasValue(2);
        assertThat(fleet.server("gs-1").process()).isEqualTo(STANDING_BY.summary());
        assertThat(fleet.server("gs-2").process()).isNull();

        for (int n = 0; n < 5; n++) {
            fleet.clock.advance(PERIOD);
            report(ProcessEvents.NONE, with("gs-1", STANDING_BY), new Report("gs-2", true));
        }
        assertThat(writes).as("nothing changed, no lease near its end: no write").hasValue(2);

        fleet.clock.advance(PERIOD);
        report(ProcessEvents.NONE, with("gs-1", ACTIVE), new Report("gs-2", true));
        assertThat(writes).as("the process alone").hasValue(3);
        assertThat(fleet.server("gs-1").process()).isEqualTo(ACTIVE.summary());
        assertThat(fleet.server("gs-1").healthLeaseExpiresAt()).as("its lease as it was")
                .isEqualTo(Fleet.T0.plus(HealthReports.LEASE));
        assertThat(fleet.gameServers().describeProcess(GROUP, "gs-1", Caller.ADMINISTRATOR)).isEqualTo(
                new GameServerProcess(GROUP, "gs-1", "i-1", ACTIVE, fleet.clock.instant()));
    }

    /** An older agent's report, without processes, is taken as before and leaves what was reported. */
    /** Kept a day past its instance's end: a process that reports the same all its life is never forgotten. */
    @Test
    void aProcessIsKeptADayPastItsInstancesEnd() {
        List<GameServerRepository.ReportedProcess> written = new java.util.ArrayList<>();
        GameServerRepository recording = Fleet.around(GameServerRepository.class, fleet.servers, (method, args, proceed) -> {
            if (method.equals("setHealthLease")) {
                ((GameServerRepository.HealthLease) args[3]).process().ifPresent(written::add);
            }
            return proceed.call();
        });
        new HealthReports(recording, fleet.instances, () -> fleet.metrics, Fleet.LIFETIME, fleet.clock)
                .report("conn-1", GROUP, List.of(with("gs-1", ACTIVE)), ProcessEvents.NONE);
        Instant launched = fleet.instances.find(GROUP, "i-1").orElseThrow().launchTime();
        assertThat(written).singleElement().extracting(GameServerRepository.ReportedProcess::keepUntil)
                .isEqualTo(launched.plus(Duration.ofHours(240)).plus(Duration.ofDays(1)));
        new HealthReports(recording, fleet.instances, () -> fleet.metrics, InstanceLifetime.UNLIMITED, fleet.clock)
                .report("conn-1", GROUP, List.of(with("gs-2", ACTIVE)), ProcessEvents.NONE);
        assertThat(written.get(1).keepUntil()).isEqualTo(fleet.clock.instant().plus(Duration.ofDays(30)));
    }

    @Test
    void aReportWithoutProcessesChangesNoProcess() {
        report(ProcessEvents.NONE, with("gs-1", ACTIVE));
        fleet.clock.advance(PERIOD);
        report(ProcessEvents.NONE, new Report("gs-1", true));
        assertThat(fleet.server("gs-1").process()).isEqualTo(ACTIVE.summary());
        assertThat(writes).hasValue(1);
    }

    @Test
    void aChangedPlayerListAloneIsAChange() {
        report(ProcessEvents.NONE, with("gs-1", ACTIVE));
        ProcessReport swapped = new ProcessReport(ProcessState.Active, 2, List.of("p1", "p3"), 1, 0, 139);
        assertThat(swapped.summary().digest()).isNotEqualTo(ACTIVE.summary().digest());
        report(ProcessEvents.NONE, with("gs-1", swapped));
        assertThat(writes).hasValue(2);
        assertThat(fleet.gameServers().describeProcess(GROUP, "gs-1", Caller.ADMINISTRATOR).process())
                .isEqualTo(swapped);
    }

    @Test
    void changedPortsAloneAreAChangeAndAReportWithoutPortsKeepsTheDigestItHad() {
        assertThat(ACTIVE.digest()).as("as before reports had ports: an older agent's servers are not written again")
                .isEqualTo("c82dfdb718267072");
        report(ProcessEvents.NONE, with("gs-1", ACTIVE));
        ProcessReport withPorts = new ProcessReport(ProcessState.Active, 2, List.of("p1", "p2"), 1, 0, 139,
                Map.of("game", 7002, "query", 8002));
        report(ProcessEvents.NONE, with("gs-1", withPorts));
        ProcessReport moved = new ProcessReport(ProcessState.Active, 2, List.of("p1", "p2"), 1, 0, 139,
                Map.of("game", 7003, "query", 8002));
        report(ProcessEvents.NONE, with("gs-1", moved));
        assertThat(writes).hasValue(3);
        assertThat(fleet.server("gs-1").process().ports()).isEqualTo(Map.of("game", 7003, "query", 8002));
    }

    @Test
    void anInstancesEventsAreCountedOnceItsReportIsTakenAndNotWhenItIsRefused() {
        report(new ProcessEvents(3, 1), new Report("gs-1", true));
        report(ProcessEvents.NONE, new Report("gs-1", true));
        assertThat(fleet.metrics.processEvents()).containsExactly(new ProcessEventsReport(GROUP, new ProcessEvents(3, 1)));

        fails(() -> report(new ProcessEvents(5, 0), new Report("gs-9", true)), ErrorKind.UNAUTHORIZED,
                "game server gs-9 is not on this push connection's instance: an agent reports only its own instance's"
                        + " game servers");
        assertThat(fleet.metrics.processEvents()).as("the agent keeps them for its next report").hasSize(1);
    }

    @Test
    void anAdministratorReadsAProcessOthersAreRefusedAndAnUnknownServerIsNotFound() {
        assertThat(fleet.gameServers().describeProcess(GROUP, "gs-1", Caller.ADMINISTRATOR)).as("none reported yet")
                .isEqualTo(new GameServerProcess(GROUP, "gs-1", "i-1", null, null));
        fails(() -> fleet.gameServers().describeProcess(GROUP, "gs-1", Caller.UNBOUND), ErrorKind.UNAUTHORIZED,
                "only an administrator reads a game server's process");
        fails(() -> fleet.gameServers().describeProcess(GROUP, "gs-404", Caller.ADMINISTRATOR), ErrorKind.NOT_FOUND,
                "game server gs-404 is not registered in game server group arena");
    }

    @Test
    void theBalancerCountsTheGroupsProcessesByStateAndTheirPlayers() {
        report(ProcessEvents.NONE, with("gs-1", ACTIVE), with("gs-2", STANDING_BY));
        fleet.balancer().run(fleet.group(GROUP));
        assertThat(fleet.metrics.processes()).singleElement().satisfies(p -> {
            assertThat(p.group()).isEqualTo(GROUP);
            assertThat(p.counts()).as("gs-9's agent reported none").isEqualTo(new ProcessCounts(0, 1, 1, 0, 2));
        });
    }
}

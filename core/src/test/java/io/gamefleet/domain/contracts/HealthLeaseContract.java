package io.gamefleet.domain.contracts;

import static io.gamefleet.domain.contracts.ContractSupport.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerRepository;
import io.gamefleet.domain.GameServerRepository.ClaimCondition;
import io.gamefleet.domain.GameServerProcess;
import io.gamefleet.domain.GameServerRepository.HealthLease;
import io.gamefleet.domain.GameServerRepository.ReportedProcess;
import io.gamefleet.domain.GameServerRepository.ServerUpdate;
import io.gamefleet.domain.GroupRepository;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.ProcessReport;
import io.gamefleet.domain.ProcessState;
import io.gamefleet.domain.ProcessSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The health leases of agent-reported servers ({@link io.gamefleet.domain.HealthReports}), through the port only. */
public abstract class HealthLeaseContract {
    private static final Duration TIMEOUT = Duration.ofSeconds(180);
    /** The groups' maximum size, which their servers are registered for: large, so that they spread over every shard. */
    private static final int GROUP_MAX_SIZE = 1_000;
    /** How many servers one instance may hold: more than any of these tests registers on one. */
    private static final int ON_ONE_INSTANCE = 1_000;

    protected abstract GameServerRepository newRepository();

    /** A group repository whose writes keep the gates that {@link #newRepository()} reads. */
    protected abstract GroupRepository newGroupRepository();

    private GameServerRepository servers;
    private String group;
    private String instance;

    @BeforeEach
    void repositories() {
        servers = newRepository();
        GroupRepository groups = newGroupRepository();
        group = ContractSupport.unique("leases");
        instance = group + "-i1";
        GameServerGroup g = GameServerGroup.builder().name(group).creationTime(T0).lastUpdatedTime(T0)
                .maxSize(GROUP_MAX_SIZE).build();
        groups.create(g);
        groups.update(g.toBuilder().status(GameServerGroupStatus.ACTIVE).build());
    }

    private GameServer registered(String name, String onInstance) {
        GameServer s = GameServer.builder().gameServerGroupName(group).gameServerId(group + "-" + name)
                .instanceId(onInstance).connectionInfo("10.0.0.1:7777").registrationTime(T0).lastHealthCheckTime(T0)
                .instanceStatus(InstanceStatus.ACTIVE).instanceLaunchTime(T0.minusSeconds(3600)).build();
        servers.register(s, GROUP_MAX_SIZE, ON_ONE_INSTANCE);
        return s;
    }

    private static HealthLease healthy(Instant now, Duration lease) {
        return new HealthLease(now.plus(lease), Optional.of(now), "c-1");
    }

    private Optional<GameServer> claim(GameServer s, Instant now) {
        return servers.tryClaim(s, new ClaimCondition(now, now.minus(TIMEOUT), EnumSet.of(InstanceStatus.ACTIVE)),
                now.plusSeconds(60), Optional.empty());
    }

    private GameServer stored(GameServer s) {
        return servers.find(s.gameServerId()).orElseThrow();
    }

    @Test
    void aLeaseIsWrittenWithItsCheckTimeAndConnectionOnlyOnTheServersOwnInstanceAndGroup() {
        GameServer s = registered("s1", instance);
        Instant now = T0.plusSeconds(30);

        assertThat(servers.setHealthLease(group, s.gameServerId(), instance, healthy(now, Duration.ofMinutes(10))))
                .hasValueSatisfying(w -> assertThat(w.healthLeaseExpiresAt()).isEqualTo(now.plusSeconds(600)));
        GameServer after = stored(s);
        assertThat(after.healthLeaseExpiresAt()).isEqualTo(now.plusSeconds(600));
        assertThat(after.lastHealthCheckTime()).isEqualTo(now);
        assertThat(after.pushConnectionId()).isEqualTo("c-1");

        HealthLease other = healthy(now.plusSeconds(1), Duration.ofMinutes(20));
        assertThat(servers.setHealthLease(group, s.gameServerId(), group + "-i2", other)).isEmpty();
        assertThat(servers.setHealthLease(group + "-x", s.gameServerId(), instance, other)).isEmpty();
        assertThat(servers.setHealthLease(group, group + "-missing", instance, other)).isEmpty();
        assertThat(servers.find(group + "-missing")).as("not created by a lease").isEmpty();
        assertThat(stored(s)).isEqualTo(after);
    }

    @Test
    void aLiveLeaseKeepsAServerClaimablePastTheHealthTimeoutAndAnEndedOneStopsItAtOnce() {
        GameServer leased = registered("leased", instance);
        GameServer ended = registered("ended", instance);
        servers.setHealthLease(group, leased.gameServerId(), instance, healthy(T0, Duration.ofMinutes(10)));
        Instant late = T0.plusSeconds(500); // the check time is past the health timeout, the lease is not
        servers.setHealthLease(group, ended.gameServerId(), instance,
                new HealthLease(late.minusSeconds(1), Optional.empty(), "c-1")); // an UNHEALTHY report just now

        assertThat(claim(leased, late)).isPresent();
        assertThat(claim(ended, late)).as("healthy by its check time, but its agent said it is not").isEmpty();
        GameServer expired = registered("expired", instance);
        servers.setHealthLease(group, expired.gameServerId(), instance, healthy(T0, Duration.ofSeconds(60)));
        assertThat(claim(expired, T0.plusSeconds(60))).as("the lease's end is exclusive").isEmpty();
    }

    @Test
    void aHeartbeatThroughTheApiLeavesLeaseModeAndAHealthyLeasePutsASilentServerBack() {
        GameServer s = registered("s1", instance);
        servers.setHealthLease(group, s.gameServerId(), instance, new HealthLease(T0, Optional.empty(), "c-1"));
        Instant now = T0.plusSeconds(10);
        assertThat(claim(s, now)).isEmpty(); // ended lease: out of the claim index as a silent server
        servers.update(group, s.gameServerId(), Optional.empty(),
                new ServerUpdate(Optional.empty(), Optional.empty(), Optional.of(now)));
        assertThat(stored(s).healthLeaseExpiresAt()).isNull();
        assertThat(claim(s, now.plusSeconds(1))).as("by its heartbeat").isPresent();

        GameServer silent = registered("silent", instance);
        Instant past = T0.plus(TIMEOUT).plusSeconds(1);
        assertThat(claim(silent, past)).isEmpty();
        assertThat(servers.claimCandidates(group, InstanceStatus.ACTIVE, past, Instant.EPOCH, 25).servers())
                .extracting(GameServer::gameServerId).doesNotContain(silent.gameServerId());
        servers.setHealthLease(group, silent.gameServerId(), instance, healthy(past, Duration.ofMinutes(10)));
        assertThat(servers.claimCandidates(group, InstanceStatus.ACTIVE, past, Instant.EPOCH, 25).servers())
                .extracting(GameServer::gameServerId).contains(silent.gameServerId());
        assertThat(claim(silent, past.plusSeconds(1))).isPresent();
    }

    @Test
    void endingTheLeasesOfAnInstanceEndsOnlyItsLiveOnes() {
        GameServer a = registered("a", instance);
        GameServer b = registered("b", instance);
        GameServer none = registered("none", instance);
        GameServer elsewhere = registered("elsewhere", group + "-i2");
        servers.setHealthLease(group, a.gameServerId(), instance, healthy(T0, Duration.ofMinutes(10)));
        servers.setHealthLease(group, b.gameServerId(), instance, new HealthLease(T0, Optional.empty(), "c-1"));
        servers.setHealthLease(group, elsewhere.gameServerId(), group + "-i2", healthy(T0, Duration.ofMinutes(10)));

        Instant now = T0.plusSeconds(40);
        servers.endHealthLeases(instance, now);

        assertThat(stored(a).healthLeaseExpiresAt()).isEqualTo(now);
        assertThat(stored(b).healthLeaseExpiresAt()).as("ended before: kept").isEqualTo(T0);
        assertThat(stored(none).healthLeaseExpiresAt()).isNull();
        assertThat(stored(elsewhere).healthLeaseExpiresAt()).isEqualTo(T0.plusSeconds(600));
        assertThat(claim(a, now.plusSeconds(1))).isEmpty();
    }

    @Test
    void theSweepTakesALeasedServerOnlyAHealthTimeoutAfterItsLeaseEnded() {
        GameServer live = registered("live", instance);
        GameServer ended = registered("ended", instance);
        servers.setHealthLease(group, live.gameServerId(), instance, healthy(T0, Duration.ofMinutes(10)));
        Instant end = T0.plusSeconds(100);
        servers.setHealthLease(group, ended.gameServerId(), instance, new HealthLease(end, Optional.empty(), "c-1"));

        assertThat(servers.deleteIfUnhealthy(live.gameServerId(), T0.plusSeconds(400)))
                .as("its check time is older than the cutoff, its lease is not").isFalse();
        assertThat(servers.deleteIfUnhealthy(ended.gameServerId(), end)).isFalse();
        assertThat(servers.deleteIfUnhealthy(ended.gameServerId(), end.plusMillis(1))).isTrue();
        assertThat(servers.find(ended.gameServerId())).isEmpty();
    }

    @Test
    void findSomeReadsTheServersThatExist() {
        GameServer a = registered("a", instance);
        GameServer b = registered("b", instance);
        assertThat(servers.findSome(List.of(a.gameServerId(), group + "-missing", b.gameServerId())))
                .extracting(GameServer::gameServerId).containsExactlyInAnyOrder(a.gameServerId(), b.gameServerId());
    }

    // ---- the process, with the lease --------------------------------------------------------

    private static final ProcessReport ACTIVE_TWO = new ProcessReport(ProcessState.Active, 3, List.of("p1", "p2"), 1, 0, 139,
            Map.of("game", 7002, "query", 8002));

    @Test
    void aReportedProcessIsKeptSummedUpOnTheServerAndWholeForFindProcess() {
        GameServer s = registered("s1", instance);
        Instant now = T0.plusSeconds(30);
        HealthLease lease = new HealthLease(now.plusSeconds(600), Optional.of(now), "c-1",
                Optional.of(new ReportedProcess(ACTIVE_TWO, now, T0, T0.plus(Duration.ofDays(1)))));

        GameServer written = servers.setHealthLease(group, s.gameServerId(), instance, lease).orElseThrow();
        assertThat(written.process()).isEqualTo(new ProcessSummary(ProcessState.Active, 3,
                Map.of("game", 7002, "query", 8002), ACTIVE_TWO.digest()));
        assertThat(stored(s).process()).isEqualTo(written.process());
        assertThat(stored(s).healthLeaseExpiresAt()).isEqualTo(now.plusSeconds(600));
        assertThat(servers.findProcess(stored(s))).contains(new GameServerProcess(group, s.gameServerId(), instance,
                ACTIVE_TWO, now));
        assertThat(claim(stored(s), now.plusSeconds(1))).as("a claim answers the server's ports from its own write")
                .map(GameServer::process).map(ProcessSummary::ports).contains(Map.of("game", 7002, "query", 8002));

        // A lease without a process leaves the process as it was.
        servers.setHealthLease(group, s.gameServerId(), instance, healthy(now.plusSeconds(300), Duration.ofMinutes(10)));
        assertThat(stored(s).process()).isEqualTo(written.process());
        assertThat(servers.findProcess(stored(s))).map(GameServerProcess::reportedAt).contains(now);
    }

    @Test
    void aProcessWithoutAStateOrExitCodeAndWithNoPlayersIsKeptAsSuch() {
        GameServer s = registered("s1", instance);
        ProcessReport starting = new ProcessReport(null, 0, List.of(), 0, 2, null);
        servers.setHealthLease(group, s.gameServerId(), instance, new HealthLease(T0.plusSeconds(600), Optional.of(T0), "c-1",
                Optional.of(new ReportedProcess(starting, T0, T0, T0.plus(Duration.ofDays(1))))));
        assertThat(stored(s).process()).isEqualTo(new ProcessSummary(null, 0, starting.digest()));
        assertThat(servers.findProcess(stored(s))).map(GameServerProcess::process).contains(starting);
        servers.setHealthLease(group, s.gameServerId(), instance, new HealthLease(T0.plusSeconds(600), Optional.of(T0), "c-1",
                Optional.of(new ReportedProcess(ACTIVE_TWO, T0.plusSeconds(30), T0, T0.plus(Duration.ofDays(1))))));
        assertThat(servers.findProcess(stored(s))).map(GameServerProcess::process).contains(ACTIVE_TWO);
        starting = new ProcessReport(ProcessState.Terminated, 0, List.of(), 0, 2, null);
        servers.setHealthLease(group, s.gameServerId(), instance, new HealthLease(T0.plusSeconds(600), Optional.of(T0), "c-1",
                Optional.of(new ReportedProcess(starting, T0.plusSeconds(60), T0, T0.plus(Duration.ofDays(1))))));
        assertThat(servers.findProcess(stored(s))).as("the exit code, players and ports gone with the new report")
                .map(GameServerProcess::process).contains(starting);
        assertThat(stored(s).process().ports()).isEmpty();
    }

    @Test
    void noProcessIsFoundForAServerThatReportedNoneNorForALaterServerOfTheSameId() {
        GameServer s = registered("s1", instance);
        assertThat(servers.findProcess(stored(s))).isEmpty();
        servers.setHealthLease(group, s.gameServerId(), instance, new HealthLease(T0.plusSeconds(600), Optional.of(T0), "c-1",
                Optional.of(new ReportedProcess(ACTIVE_TWO, T0, T0, T0.plus(Duration.ofDays(1))))));
        servers.deregister(group, s.gameServerId(), Optional.empty());
        GameServer again = s.toBuilder().registrationTime(T0.plusSeconds(90)).build();
        servers.register(again, GROUP_MAX_SIZE, ON_ONE_INSTANCE);
        assertThat(servers.findProcess(stored(again))).isEmpty();
        assertThat(stored(again).process()).isNull();
    }

    @Test
    void aProcessIsNotWrittenForAServerThatIsGoneOrElsewhere() {
        GameServer s = registered("s1", instance);
        HealthLease lease = new HealthLease(T0.plusSeconds(600), Optional.of(T0), "c-1",
                Optional.of(new ReportedProcess(ACTIVE_TWO, T0, T0, T0.plus(Duration.ofDays(1)))));
        assertThat(servers.setHealthLease(group, s.gameServerId(), group + "-i2", lease)).isEmpty();
        assertThat(stored(s).process()).isNull();
        assertThat(servers.setHealthLease(group, group + "-missing", instance, lease)).isEmpty();
    }
}

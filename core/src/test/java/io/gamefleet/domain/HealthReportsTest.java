package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static io.gamefleet.domain.Fleet.HEALTH_TIMEOUT;
import static io.gamefleet.domain.GameServerServiceTest.fails;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.HealthReports.Report;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** An agent's health reports over its push connection: leases, their ends, and the refusals. */
class HealthReportsTest {
    private static final Duration PERIOD = Duration.ofSeconds(30);
    private final Fleet fleet = new Fleet();
    private final HealthReports reports = fleet.healthReports();
    private final PushConnections connections = fleet.pushConnections();

    @BeforeEach
    void twoInstancesWithAnAgentEach() {
        fleet.activeGroup();
        fleet.launch("i-1", C5);
        fleet.launch("i-2", C5);
        connections.connect(Caller.onInstance("i-1"), GROUP, "i-1", "conn-1", OptionalInt.empty());
        connections.connect(Caller.onInstance("i-2"), GROUP, "i-2", "conn-2", OptionalInt.empty());
        fleet.register("gs-1", "i-1");
        fleet.register("gs-2", "i-1");
        fleet.register("gs-9", "i-2");
    }

    private static List<Report> healthy(String... ids) {
        return List.of(ids).stream().map(id -> new Report(id, true)).toList();
    }

    private int report(List<Report> r) {
        return reports.report("conn-1", GROUP, r, ProcessEvents.NONE);
    }

    @Test
    void aReportWritesEachServerOnceThenOnlyWhenItsLeaseNearsItsEnd() {
        assertThat(report(healthy("gs-1", "gs-2"))).as("the first report starts both leases").isEqualTo(2);
        assertThat(fleet.server("gs-1").healthLeaseExpiresAt()).isEqualTo(fleet.clock.instant().plus(HealthReports.LEASE));
        int writes = 0;
        int messages = 0;
        for (Duration t = PERIOD; t.compareTo(Duration.ofHours(1)) <= 0; t = t.plus(PERIOD)) {
            fleet.clock.advance(PERIOD);
            writes += report(healthy("gs-1", "gs-2"));
            messages++;
        }
        // 120 reports an hour; a lease is renewed once less than 5 of its 10 minutes are left:
        // every 5.5 min (11 periods), 10 times in the hour per server.
        assertThat(messages).isEqualTo(120);
        assertThat(writes).isEqualTo(2 * 10);
        assertThat(fleet.claim(GROUP).gameServerId()).isIn("gs-1", "gs-2", "gs-9");
    }

    @Test
    void aLeasedServerStaysClaimablePastTheHealthTimeoutUntilItsLeaseEnds() {
        report(healthy("gs-1", "gs-2"));
        fleet.heartbeat("gs-9"); // an API server: the health timeout
        fleet.clock.advance(HEALTH_TIMEOUT.plusSeconds(1));
        List<String> claimed = new ArrayList<>();
        claimed.add(fleet.claim(GROUP).gameServerId());
        claimed.add(fleet.claim(GROUP).gameServerId());
        assertThat(claimed).containsExactlyInAnyOrder("gs-1", "gs-2");
        fails(() -> fleet.claim(GROUP), ErrorKind.OUT_OF_CAPACITY, "no game server of game server group arena can be claimed now");
    }

    @Test
    void aSilentlyDeadInstancesServersAreClaimableForAtMostTheLease() {
        report(healthy("gs-1"));
        fleet.clock.advance(HealthReports.LEASE.minusMillis(1));
        assertThat(fleet.server("gs-1").isHealthyAt(fleet.clock.instant(), fleet.clock.instant().minus(HEALTH_TIMEOUT)))
                .isTrue();
        fleet.clock.advance(Duration.ofMillis(1));
        assertThat(fleet.server("gs-1").isHealthyAt(fleet.clock.instant(), fleet.clock.instant().minus(HEALTH_TIMEOUT)))
                .as("the lease has ended: no report renewed it").isFalse();
        fleet.clock.advance(HEALTH_TIMEOUT.plusMillis(1));
        fleet.balancer().run(fleet.group(GROUP));
        assertThat(fleet.servers.find("gs-1")).as("swept a health timeout after the lease's end").isEmpty();
        assertThat(fleet.servers.find("gs-2")).as("gs-2 had no lease: swept by its heartbeat's age").isEmpty();
    }

    @Test
    void anUnhealthyReportEndsTheLeaseAtOnceAndAHealthyOneStartsAnother() {
        report(healthy("gs-1", "gs-2"));
        fleet.clock.advance(PERIOD);
        assertThat(report(List.of(new Report("gs-1", false), new Report("gs-2", true)))).as("only the change").isEqualTo(1);
        assertThat(fleet.claim(GROUP).gameServerId()).isIn("gs-2", "gs-9");
        assertThat(fleet.claim(GROUP).gameServerId()).isIn("gs-2", "gs-9").isNotEqualTo("gs-1");
        fails(() -> fleet.claim(GROUP), ErrorKind.OUT_OF_CAPACITY, "no game server of game server group arena can be claimed now");
        fleet.clock.advance(PERIOD);
        assertThat(report(List.of(new Report("gs-1", false)))).as("still unhealthy: nothing to write").isZero();
        fleet.clock.advance(PERIOD);
        assertThat(report(healthy("gs-1"))).isEqualTo(1);
        assertThat(fleet.claim(GROUP).gameServerId()).isEqualTo("gs-1");
    }

    @Test
    void anUnhealthyReportOfAServerWithNoLeaseStopsItsClaimsToo() {
        assertThat(report(List.of(new Report("gs-1", false)))).isEqualTo(1);
        assertThat(fleet.server("gs-1").isHealthyAt(fleet.clock.instant(), fleet.clock.instant().minus(HEALTH_TIMEOUT)))
                .as("its registration was a heartbeat just now, but its agent says it is unhealthy").isFalse();
    }

    @Test
    void theConnectionsEndEndsItsInstancesLeasesAndAHeartbeatThroughTheApiTakesOver() {
        report(healthy("gs-1", "gs-2"));
        connections.connect(Caller.onInstance("i-2"), GROUP, "i-2", "conn-2b", OptionalInt.empty());
        connections.disconnect("conn-2"); // another instance's older connection: i-1's leases stay
        assertThat(fleet.server("gs-1").healthLeaseExpiresAt()).isAfter(fleet.clock.instant());
        fleet.clock.advance(PERIOD);
        connections.disconnect("conn-1");
        assertThat(fleet.server("gs-1").healthLeaseExpiresAt()).isEqualTo(fleet.clock.instant());
        assertThat(fleet.server("gs-2").healthLeaseExpiresAt()).isEqualTo(fleet.clock.instant());
        fleet.clock.advance(Duration.ofMillis(1));
        assertThat(fleet.server("gs-1").isHealthyAt(fleet.clock.instant(), fleet.clock.instant().minus(HEALTH_TIMEOUT)))
                .isFalse();
        fleet.heartbeat("gs-1"); // the agent falls back to UpdateGameServer
        assertThat(fleet.server("gs-1").healthLeaseExpiresAt()).isNull();
        assertThat(fleet.claim(GROUP).gameServerId()).isIn("gs-1", "gs-9");
    }

    @Test
    void aNewerConnectionsReportRepairsAStaleCopyAndTheOlderOneIsRefused() {
        connections.connect(Caller.onInstance("i-1"), GROUP, "i-1", "conn-1b", OptionalInt.empty());
        fleet.servers.setPushConnection("i-1", "conn-1"); // a copy behind its instance, as a racing registration leaves it
        assertThat(reports.report("conn-1b", GROUP, healthy("gs-1"), ProcessEvents.NONE)).isEqualTo(1);
        assertThat(fleet.server("gs-1").pushConnectionId()).isEqualTo("conn-1b");
        GameServer before = fleet.server("gs-1");
        fails(() -> reports.report("conn-1", GROUP, healthy("gs-1"), ProcessEvents.NONE), ErrorKind.UNAUTHORIZED,
                "game server gs-1 is not on this push connection's instance: an agent reports only its own instance's"
                        + " game servers");
        assertThat(fleet.server("gs-1")).isEqualTo(before);
    }

    @Test
    void aBadReportIsRefusedWholeAndChangesNothing() {
        GameServer one = fleet.server("gs-1");
        GameServer nine = fleet.server("gs-9");
        String notOurs = "game server gs-9 is not on this push connection's instance: an agent reports only its own"
                + " instance's game servers";
        fails(() -> report(healthy("gs-1", "gs-9")), ErrorKind.UNAUTHORIZED, notOurs);
        fails(() -> report(healthy("gs-9")), ErrorKind.UNAUTHORIZED, notOurs);
        fails(() -> report(healthy("gs-1", "gs-404")), ErrorKind.NOT_FOUND,
                "game server gs-404 is not registered in game server group arena");
        fails(() -> reports.report("conn-1", "elsewhere", healthy("gs-1"), ProcessEvents.NONE), ErrorKind.NOT_FOUND,
                "game server gs-1 is not registered in game server group elsewhere");
        fails(() -> report(healthy("gs-1", "gs-1")), ErrorKind.INVALID_REQUEST, "game server gs-1 is listed twice");
        fails(() -> report(List.of()), ErrorKind.INVALID_REQUEST, "a health report lists 1 to 100 game servers, not 0");
        List<Report> many = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            many.add(new Report("gs-" + i, true));
        }
        fails(() -> report(many), ErrorKind.INVALID_REQUEST, "a health report lists 1 to 100 game servers, not 101");
        assertThat(fleet.server("gs-1")).isEqualTo(one);
        assertThat(fleet.server("gs-9")).isEqualTo(nine);
    }
}

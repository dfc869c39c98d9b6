package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static io.gamefleet.domain.Fleet.M5;
import static io.gamefleet.domain.Fleet.TYPES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.gamefleet.domain.GameServerService.Claim;
import io.gamefleet.domain.InterruptionRepository.Interruption;
import io.gamefleet.domain.Metrics.GameServerCounts;
import io.gamefleet.domain.SpotBalancer.GroupReport;
import io.gamefleet.domain.fakes.FakeCompute;
import io.gamefleet.domain.fakes.RecordingMetrics.GameServersReport;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** One balancer run after another over ACTIVE groups on the fakes: viability, draining, protection, sweep, metrics. */
class SpotBalancerTest {
    private final Fleet fleet = new Fleet();
    private final String scalingGroup = GameServerGroup.autoScalingGroupName(GROUP);
    private int lost;

    private void group(UnaryOperator<GameServerGroup.Builder> options) {
        fleet.activeGroup(GROUP, options);
    }

    /** One run of the balancer; the report of {@link Fleet#GROUP}. */
    private GroupReport balance() {
        List<GroupReport> reports = fleet.balancer().runAll();
        assertThat(reports).as("balancer log: %s", fleet.log).extracting(GroupReport::group).containsExactly(GROUP);
        return reports.get(0);
    }

    /** A Spot interruption a minute ago of an instance of the type that is gone since. */
    private void lostToSpot(String type) {
        fleet.interruptions.record(new Interruption(GROUP, "i-lost-" + ++lost, type,
                fleet.clock.instant().minus(Duration.ofMinutes(1))), fleet.clock.instant().plus(Duration.ofDays(1)));
    }

    private InstanceStatus status(String instanceId) {
        return fleet.instances.find(GROUP, instanceId).orElseThrow().instanceStatus();
    }

    private int desired() {
        return fleet.scalingGroup(GROUP).desiredCapacity();
    }

    private List<String> scalingGroupTypes() {
        return fleet.scalingGroup(GROUP).instanceTypes().stream().map(InstanceDefinition::instanceType).toList();
    }

    /** The instance and decrement flag of each termination, in order. */
    private List<List<Object>> terminations() {
        return fleet.compute.calls(FakeCompute.TERMINATE_INSTANCE).stream().map(args -> args.subList(1, 3)).toList();
    }

    // ---- bookkeeping and sweep ---------------------------------------------------------

    @Test
    void newInstancesAreRecordedAndGoneOnesForgottenWithTheirServers() {
        group(b -> b);
        fleet.launch("i-old", C5);
        fleet.register("gs-old", "i-old");
        fleet.compute.removeInstance(scalingGroup, "i-old");
        fleet.replacement(GROUP, "i-new", M5, true);

        balance();

        assertThat(fleet.instances.listAll(GROUP)).extracting(GameServerInstance::instanceId, GameServerInstance::instanceStatus)
                .containsExactly(tuple("i-new", InstanceStatus.ACTIVE));
        assertThat(fleet.servers.find("gs-old")).isEmpty();
    }

    @Test
    void serversWithoutAHeartbeatPastTheHealthTimeoutAreDeregistered() {
        group(b -> b);
        fleet.launch("i-1", C5);
        fleet.register("gs-silent", "i-1");
        fleet.register("gs-beating", "i-1");

        fleet.clock.advance(Fleet.HEALTH_TIMEOUT);
        fleet.heartbeat("gs-beating");
        assertThat(balance().swept()).as("at the timeout itself it is still healthy").isZero();

        fleet.clock.advance(Duration.ofMillis(1));
        GroupReport report = balance();

        assertThat(report.swept()).isEqualTo(1);
        assertThat(fleet.servers.find("gs-silent")).isEmpty();
        assertThat(fleet.servers.find("gs-beating")).isPresent();
        assertThat(report.counts()).isEqualTo(new GameServerCounts(1, 0, 0, 0));
        assertThat(fleet.log).anyMatch(line -> line.startsWith("balancer: deregistered game server gs-silent of group arena: "
                + "no heartbeat since 2100-01-01T00:00:00Z (health timeout 60 s)"));
    }
}

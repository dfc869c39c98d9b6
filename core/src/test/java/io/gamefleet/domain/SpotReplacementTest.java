package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static io.gamefleet.domain.Fleet.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.domain.Compute.ComputeException;
import io.gamefleet.domain.SpotBalancer.GroupReport;
import io.gamefleet.domain.fakes.FakeCompute;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Spot interruption warning starts the interrupted instance's replacement at once: desired
 * capacity grows by one for the two minutes' notice (within MaxSize, once per instance), and goes
 * back down when the instance ends, by its termination event or by the balancer, whichever sees
 * it first, so the group is neither short during the notice nor one too large after it.
 */
class SpotReplacementTest {
    private static final String SCALING_GROUP = Fleet.SETTINGS.autoScalingGroupName(GROUP);
    private static final String INTERRUPTED = id(2);

    private final Fleet fleet = new Fleet();
    private final FakeCompute compute = fleet.compute;
    private final InstanceEvents events = fleet.events();
    private GameServerGroup group;

    /** Six c5 instances in service, desired capacity 6, MaxSize 8. */
    @BeforeEach
    void anActiveGroupServedBySixInstances() {
        group = fleet.activeGroup(GROUP, b -> b.instanceDefinitions(List.of(new InstanceDefinition(C5, null))).maxSize(8));
        for (int n = 0; n < 6; n++) {
            fleet.launch(id(n), C5);
        }
    }

    private static String id(int n) {
        return String.format("i-0%016d", n);
    }

    private int desired() {
        return fleet.scalingGroup(GROUP).desiredCapacity();
    }

    private List<List<Object>> desiredCapacityCalls() {
        return compute.calls(FakeCompute.SET_DESIRED_CAPACITY);
    }

    private GameServerInstance record(String instanceId) {
        return fleet.instances.find(GROUP, instanceId).orElseThrow();
    }

    @Test
    void aWarningRaisesDesiredCapacityAtOnceAndOnce() {
        assertThat(events.spotInterruptionWarning(INTERRUPTED, Optional.of(T0))).isTrue();

        assertThat(desiredCapacityCalls()).containsExactly(List.of(SCALING_GROUP, 7));
        assertThat(record(INTERRUPTED).instanceStatus()).isEqualTo(InstanceStatus.SPOT_TERMINATING);
        assertThat(record(INTERRUPTED).replacementRequested()).isTrue();

        // Delivered again, or again with another time: the interruption is handled once.
        events.spotInterruptionWarning(INTERRUPTED, Optional.of(T0));
        events.spotInterruptionWarning(INTERRUPTED, Optional.of(T0.plusSeconds(5)));
        assertThat(desiredCapacityCalls()).hasSize(1);
        assertThat(desired()).isEqualTo(7);
    }

    @Test
    void itsTerminationEventTakesTheInstanceOutWithTheRaise() {
        events.spotInterruptionWarning(INTERRUPTED, Optional.of(T0));
        fleet.replacement(GROUP, id(6), C5, true); // the replacement, launched at the warning

        // Two minutes later EC2 ends it, before the scaling group noticed: it takes exactly that instance out.
        assertThat(events.terminated(INTERRUPTED)).isTrue();
        assertThat(compute.calls(FakeCompute.TERMINATE_INSTANCE)).containsExactly(List.of(SCALING_GROUP, INTERRUPTED, true));
        assertThat(desired()).isEqualTo(6);
        assertThat(compute.describeInstances(SCALING_GROUP)).hasSize(6);

        // Neither a second event nor the balancer lowers it again.
        events.terminated(INTERRUPTED);
        GroupReport report = fleet.balancer().run(group);
        assertThat(report.desiredCapacity()).isEmpty();
        assertThat(desired()).isEqualTo(6);
        assertThat(desiredCapacityCalls()).hasSize(1);
    }

    @Test
    void theBalancerLowersItWhenTheScalingGroupDroppedTheInstanceFirst() {
        events.spotInterruptionWarning(INTERRUPTED, Optional.of(T0));
        fleet.replacement(GROUP, id(6), C5, true);
        compute.removeInstance(SCALING_GROUP, INTERRUPTED); // Auto Scaling noticed the end before the event came
        fleet.replacement(GROUP, id(7), C5, true); // and launched up to the raised capacity

        GroupReport report = fleet.balancer().run(group);
        assertThat(desiredCapacityCalls()).containsExactly(List.of(SCALING_GROUP, 7), List.of(SCALING_GROUP, 6));
        assertThat(report.desiredCapacity()).as("planned on from the lowered capacity").isEmpty();
        assertThat(fleet.instances.find(GROUP, INTERRUPTED)).isEmpty();

        // The termination event arrives late: nothing is left to lower.
        assertThat(events.terminated(INTERRUPTED)).isFalse();
        fleet.balancer().run(group);
        assertThat(desiredCapacityCalls()).hasSize(2);
        assertThat(compute.calls(FakeCompute.TERMINATE_INSTANCE)).isEmpty();
    }

    @Test
    void atMaxSizeTheScalingGroupReplacesItWhenItEnds() {
        compute.setDesiredCapacity(SCALING_GROUP, 8);
        events.spotInterruptionWarning(INTERRUPTED, Optional.of(T0));
        assertThat(desiredCapacityCalls()).hasSize(1);
        assertThat(record(INTERRUPTED).replacementRequested()).isFalse();

        events.terminated(INTERRUPTED);
        assertThat(compute.calls(FakeCompute.TERMINATE_INSTANCE)).isEmpty();
        assertThat(desired()).isEqualTo(8);
    }

    @Test
    void aDrainingInstanceWhoseReplacementWasStartedGetsNoSecond() {
        fleet.drain(GROUP, INTERRUPTED); // desired capacity 7: the balancer raised it when it began draining it

        events.spotInterruptionWarning(INTERRUPTED, Optional.of(T0));
        assertThat(desired()).isEqualTo(7);
        assertThat(record(INTERRUPTED).instanceStatus()).isEqualTo(InstanceStatus.SPOT_TERMINATING);
        assertThat(record(INTERRUPTED).replacementRequested()).isTrue();

        events.terminated(INTERRUPTED);
        assertThat(desired()).as("the drain's raise ends with it").isEqualTo(6);
    }

    @Test
    void notWhileTheGroupIsBeingDeleted() {
        fleet.groups.update(group.toBuilder().status(GameServerGroupStatus.DELETE_SCHEDULED).build());
        events.spotInterruptionWarning(INTERRUPTED, Optional.of(T0));
        assertThat(desiredCapacityCalls()).isEmpty();
        assertThat(record(INTERRUPTED).instanceStatus()).isEqualTo(InstanceStatus.SPOT_TERMINATING);
    }

    @Test
    void aRaiseAutoScalingRefusedIsTriedAgainByTheRetriedWarning() {
        compute.failNext(FakeCompute.SET_DESIRED_CAPACITY, true);
        assertThatThrownBy(() -> events.spotInterruptionWarning(INTERRUPTED, Optional.of(T0)))
                .isInstanceOf(ComputeException.class);
        assertThat(record(INTERRUPTED).replacementRequested()).isFalse();

        events.spotInterruptionWarning(INTERRUPTED, Optional.of(T0));
        assertThat(desired()).isEqualTo(7);
        assertThat(record(INTERRUPTED).replacementRequested()).isTrue();
    }

    @Test
    void theNoticeDoesNotHoldUpTheEndOfAnIdleDrainingInstance() {
        // One instance drains; its replacement is in service.
        fleet.drain(GROUP, id(5));
        fleet.replacement(GROUP, id(6), C5, true);
        // Another is interrupted; its replacement is in service too.
        events.spotInterruptionWarning(INTERRUPTED, Optional.of(T0));
        assertThat(desired()).isEqualTo(8);
        fleet.replacement(GROUP, id(7), C5, true);

        // Six ACTIVE instances serve, as the desired capacity stands for: the drained one ends.
        GroupReport report = fleet.balancer().run(group);
        assertThat(report.terminated()).containsExactly(id(5));
        assertThat(desired()).isEqualTo(7);
    }
}

package io.gamefleet.domain.fakes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.Compute.ComputeException;
import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.InstanceDefinition;
import io.gamefleet.domain.Metrics.GameServerCounts;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fakes that have no contract suite: what tests rely on them for. */
class FakesTest {
    private static final Instant T0 = Instant.parse("2100-01-01T00:00:00Z");

    private static GameServerGroup group() {
        return GameServerGroup.builder().name("g").minSize(0).maxSize(4).creationTime(T0).lastUpdatedTime(T0)
                .instanceDefinitions(List.of(new InstanceDefinition("c5.large", null), new InstanceDefinition("m5.large", "2")))
                .balancingStrategy(BalancingStrategy.ON_DEMAND_ONLY).build();
    }

    private static ComputeInstance instance(String id, boolean protectedFromScaleIn) {
        return new ComputeInstance(id, "c5.large", "us-east-1a", true, protectedFromScaleIn);
    }

    @Test
    void theClockMovesOnlyWhenMovedAndItsZonedCopiesMoveWithIt() {
        MutableClock clock = new MutableClock(T0);
        var paris = clock.withZone(ZoneId.of("Europe/Paris"));
        assertThat(clock.instant()).isEqualTo(T0);
        assertThat(clock.advance(Duration.ofSeconds(90))).isEqualTo(T0.plusSeconds(90));
        assertThat(paris.instant()).isEqualTo(T0.plusSeconds(90));
        clock.set(T0.minusSeconds(1));
        assertThat(clock.millis()).isEqualTo(T0.minusSeconds(1).toEpochMilli());
    }

    @Test
    void computeCreatesOnceAndRecordsEveryCall() {
        FakeCompute compute = new FakeCompute();
        String arn = compute.createScalingGroup(group());
        assertThat(compute.createScalingGroup(group())).isEqualTo(arn);

        var state = compute.describeScalingGroup("gamefleet-g").orElseThrow();
        assertThat(state.desiredCapacity()).isEqualTo(1);
        assertThat(state.instanceTypes()).isEqualTo(group().instanceDefinitions());
        assertThat(state.onDemandOnly()).isTrue();
        assertThat(compute.describeInstances("gamefleet-none")).isEmpty();

        compute.addInstance("gamefleet-g", instance("i-1", false));
        compute.setInstanceProtection("gamefleet-g", "i-1", true);
        compute.setDesiredCapacity("gamefleet-g", 3);
        assertThat(compute.describeInstances("gamefleet-g")).containsExactly(instance("i-1", true));
        assertThat(compute.scalingGroup("gamefleet-g").orElseThrow().desiredCapacity()).isEqualTo(3);
        assertThat(compute.calls(FakeCompute.CREATE_SCALING_GROUP)).hasSize(2);
        assertThat(compute.calls(FakeCompute.SET_DESIRED_CAPACITY)).containsExactly(List.of("gamefleet-g", 3));
        assertThat(compute.calls()).extracting(FakeCompute.Call::operation).containsExactly("createScalingGroup",
                "createScalingGroup", "describeScalingGroup", "describeScalingGroup", "setInstanceProtection",
                "setDesiredCapacity", "describeScalingGroup");
    }

    @Test
    void computeTerminatesAndDeletesAsAutoScalingWould() {
        FakeCompute compute = new FakeCompute();
        compute.createScalingGroup(group());
        compute.setDesiredCapacity("gamefleet-g", 2);
        compute.addInstance("gamefleet-g", instance("i-1", true));
        compute.addInstance("gamefleet-g", instance("i-2", false));

        compute.terminateInstance("gamefleet-g", "i-2", true);
        assertThat(compute.scalingGroup("gamefleet-g").orElseThrow().desiredCapacity()).isEqualTo(1);
        assertThat(compute.deleteScalingGroup("gamefleet-g", false)).as("a protected instance stays").isFalse();
        assertThat(compute.describeInstances("gamefleet-g")).extracting(ComputeInstance::instanceId).containsExactly("i-1");
        assertThat(compute.deleteScalingGroup("gamefleet-g", true)).isTrue();
        assertThat(compute.describeScalingGroup("gamefleet-g")).isEmpty();
        assertThat(compute.deleteScalingGroup("gamefleet-g", true)).as("gone already").isTrue();

        ComputeException missing = catchThrowableOfType(ComputeException.class,
                () -> compute.setDesiredCapacity("gamefleet-g", 1));
        assertThat(missing).isNotNull();
        assertThat(missing.retryable()).isFalse();
    }

    @Test
    void computeFailsWhatItIsToldTo() {
        FakeCompute compute = new FakeCompute();
        compute.failNext(FakeCompute.CREATE_SCALING_GROUP, true);
        ComputeException once = catchThrowableOfType(ComputeException.class, () -> compute.createScalingGroup(group()));
        assertThat(once.retryable()).isTrue();
        assertThat(compute.scalingGroup("gamefleet-g")).as("nothing created").isEmpty();
        compute.createScalingGroup(group());

        compute.fail(FakeCompute.DESCRIBE_SCALING_GROUP, false);
        for (int n = 0; n < 2; n++) {
            assertThat(catchThrowableOfType(ComputeException.class, () -> compute.describeInstances("gamefleet-g"))
                    .retryable()).isFalse();
        }
        compute.succeed(FakeCompute.DESCRIBE_SCALING_GROUP);
        assertThat(compute.describeScalingGroup("gamefleet-g")).isPresent();
        assertThat(compute.calls(FakeCompute.DESCRIBE_SCALING_GROUP)).as("failed calls too").hasSize(3);
        assertThatThrownBy(() -> compute.fail("describeInstances", true)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theWorkflowStarterRecordsStartsOrFails() {
        RecordingWorkflowStarter workflows = new RecordingWorkflowStarter();
        workflows.startActivation(group());
        workflows.failWith(new IllegalStateException("Step Functions is down"));
        assertThatThrownBy(() -> workflows.startDeletion(group())).hasMessage("Step Functions is down");
        workflows.succeed();
        workflows.startDeletion(group());

        assertThat(workflows.started()).containsExactly(
                new RecordingWorkflowStarter.Started(RecordingWorkflowStarter.Workflow.ACTIVATION, group()),
                new RecordingWorkflowStarter.Started(RecordingWorkflowStarter.Workflow.DELETION, group()));
        assertThat(workflows.started(RecordingWorkflowStarter.Workflow.DELETION)).containsExactly("g");
    }

    @Test
    void metricsKeepWhatWasPublished() {
        RecordingMetrics metrics = new RecordingMetrics();
        metrics.gameServers("g", new GameServerCounts(3, 1, 0, 0));
        metrics.gameServers("h", new GameServerCounts(0, 0, 0, 0));
        metrics.gameServers("g", new GameServerCounts(2, 2, 1, 0));
        metrics.interruption("g", "c5.large", 4);

        assertThat(metrics.lastCounts("g")).contains(new GameServerCounts(2, 2, 1, 0));
        assertThat(metrics.lastCounts("none")).isEmpty();
        assertThat(metrics.gameServers()).hasSize(3);
        assertThat(metrics.interruptions()).containsExactly(new RecordingMetrics.InterruptionReport("g", "c5.large", 4));
    }

    @Test
    void theTtlSweepRemovesOnlyExpiredGroups() {
        InMemoryGroupRepository groups = new InMemoryGroupRepository(new InMemoryGameServerRepository());
        GameServerGroup deleted = GameServerGroup.builder().name("old").creationTime(T0)
                .status(GameServerGroupStatus.DELETED).expiresAt(T0.plusSeconds(60)).build();
        groups.create(deleted);
        groups.create(group());

        groups.expire(T0.plusSeconds(60));
        assertThat(groups.find("old")).as("not yet past ExpiresAt").contains(deleted);
        groups.expire(T0.plusSeconds(61));
        assertThat(groups.find("old")).isEmpty();
        assertThat(groups.find("g")).isPresent();
    }
}

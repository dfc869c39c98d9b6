package io.gamefleet.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.Compute.ScalingGroupState;
import io.gamefleet.domain.ContainerCompute.ContainerCapacity;
import io.gamefleet.domain.fakes.FakeCompute;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each call reaches the adapter of its group's kind, and the other adapter is never built. */
class ComputeByKindTest {
    private final FakeCompute instances = new FakeCompute();
    private final FakeCompute containers = new FakeCompute();
    private int containerAdapterBuilt;
    private final Compute compute = new ComputeByKind(() -> instances, () -> {
        containerAdapterBuilt++;
        return containers;
    }, Fleet.SETTINGS);
    private static final String SERVICE = Fleet.SETTINGS.containerServiceName("arena");
    private static final String SCALING_GROUP = Fleet.SETTINGS.autoScalingGroupName("arena");

    @Test
    void aGroupOnEc2NeverReachesTheContainerAdapter() {
        GameServerGroup group = Fleet.draft("arena").autoScalingGroupName(SCALING_GROUP).build();
        compute.createScalingGroup(group);
        compute.setDesiredCapacity(SCALING_GROUP, 2);
        compute.setTargetTrackingScaleIn(group, false);
        compute.describeInstances(SCALING_GROUP);

        assertThat(instances.calls()).extracting(FakeCompute.Call::operation).containsExactly(
                FakeCompute.CREATE_SCALING_GROUP, FakeCompute.SET_DESIRED_CAPACITY, FakeCompute.SET_TARGET_TRACKING_SCALE_IN,
                FakeCompute.DESCRIBE_SCALING_GROUP);
        assertThat(containerAdapterBuilt).isZero();
    }

    /** A stage whose name ends in "tasks" has the container mark in its Auto Scaling groups' names: the prefix tells. */
    @Test
    void theDeploymentsPrefixTellsAServiceFromAnAutoScalingGroupOfAStageNamedLikeIt() {
        ServiceSettings tasksStage = new ServiceSettings("us-east-1", "123456789012", Fleet.CLAIM_TTL, Fleet.HEALTH_TIMEOUT,
                Fleet.DELETED_RETENTION, Fleet.ACTIVATION_TIMEOUT, "gamefleet-tasks_", Fleet.LIMITS, Fleet.LIFETIME);
        assertThat(tasksStage.namesContainerService(tasksStage.autoScalingGroupName("arena"))).isFalse();
        assertThat(tasksStage.namesContainerService(tasksStage.containerServiceName("arena"))).isTrue();
        new ComputeByKind(() -> instances, () -> containers, tasksStage)
                .describeScalingGroup(tasksStage.autoScalingGroupName("arena"));
        assertThat(instances.calls(FakeCompute.DESCRIBE_SCALING_GROUP)).hasSize(1);
        assertThat(containers.calls()).isEmpty();
    }

    @Test
    void aContainerGroupsCallsReachTheContainerAdapterByItsKindOrItsServicesName() {
        GameServerGroup group = GameServerGroup.builder().name("arena").minSize(1).maxSize(2).autoScalingGroupName(SERVICE)
                .containers(new ContainerCompute("game", "server", ContainerCapacity.FARGATE_SPOT, 0)).build();
        compute.createScalingGroup(group);
        containers.putScalingGroup(SERVICE, new ScalingGroupState(1, 1, 2, List.of(), false, List.of()));
        compute.describeScalingGroup(SERVICE);
        compute.launched(SERVICE, List.of("i-0123456789abcdef0"));
        compute.setInstanceTypes(SERVICE, List.of(), BalancingStrategy.SPOT_ONLY);
        compute.setInstanceProtection(SERVICE, "i-0123456789abcdef0", false);
        compute.terminateInstance(SERVICE, "i-0123456789abcdef0", true);
        compute.setTargetTrackingScaleIn(group, true);
        compute.deleteScalingGroup(SERVICE, true);

        assertThat(containers.calls()).extracting(FakeCompute.Call::operation).containsExactly(
                FakeCompute.CREATE_SCALING_GROUP, FakeCompute.DESCRIBE_SCALING_GROUP, FakeCompute.LAUNCHED,
                FakeCompute.SET_INSTANCE_TYPES, FakeCompute.SET_INSTANCE_PROTECTION, FakeCompute.TERMINATE_INSTANCE,
                FakeCompute.SET_TARGET_TRACKING_SCALE_IN, FakeCompute.DELETE_SCALING_GROUP);
        assertThat(instances.calls()).isEmpty();
    }
}

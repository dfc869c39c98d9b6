package io.gamefleet.domain;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The compute port over both kinds of group: EC2 Auto Scaling groups ({@code instances}) and a
 * container group's ECS service ({@code containers}). A new group goes by its kind; every other
 * call by the name of its scaling group or service ({@link ServiceSettings#namesContainerService}).
 * Each adapter is asked for on the first call of its kind, so a stage without container groups
 * never builds the other.
 */
public final class ComputeByKind implements Compute {
    private final Supplier<Compute> instances;
    private final Supplier<Compute> containers;
    private final ServiceSettings settings;

    public ComputeByKind(Supplier<Compute> instances, Supplier<Compute> containers, ServiceSettings settings) {
        this.instances = instances;
        this.containers = containers;
        this.settings = settings;
    }

    private Compute of(String scalingGroupName) {
        return (settings.namesContainerService(scalingGroupName) ? containers : instances).get();
    }

    private Compute of(GameServerGroup group) {
        return (group.isContainerGroup() ? containers : instances).get();
    }

    @Override
    public String createScalingGroup(GameServerGroup group) {
        return of(group).createScalingGroup(group);
    }

    @Override
    public Optional<ScalingGroupState> describeScalingGroup(String scalingGroupName) {
        return of(scalingGroupName).describeScalingGroup(scalingGroupName);
    }

    @Override
    public List<ComputeInstance> describeInstances(String scalingGroupName) {
        return of(scalingGroupName).describeInstances(scalingGroupName);
    }

    @Override
    public Map<String, LaunchedInstance> launched(String scalingGroupName, Collection<String> instanceIds) {
        return of(scalingGroupName).launched(scalingGroupName, instanceIds);
    }

    @Override
    public boolean deleteScalingGroup(String scalingGroupName, boolean force) {
        return of(scalingGroupName).deleteScalingGroup(scalingGroupName, force);
    }

    @Override
    public void setInstanceTypes(String scalingGroupName, List<InstanceDefinition> definitions, BalancingStrategy strategy) {
        of(scalingGroupName).setInstanceTypes(scalingGroupName, definitions, strategy);
    }

    @Override
    public void setDesiredCapacity(String scalingGroupName, int desiredCapacity) {
        of(scalingGroupName).setDesiredCapacity(scalingGroupName, desiredCapacity);
    }

    @Override
    public void setInstanceProtection(String scalingGroupName, String instanceId, boolean protectedFromScaleIn) {
        of(scalingGroupName).setInstanceProtection(scalingGroupName, instanceId, protectedFromScaleIn);
    }

    @Override
    public void setTargetTrackingScaleIn(GameServerGroup group, boolean scaleIn) {
        of(group).setTargetTrackingScaleIn(group, scaleIn);
    }

    @Override
    public void terminateInstance(String scalingGroupName, String instanceId, boolean decrementDesiredCapacity) {
        of(scalingGroupName).terminateInstance(scalingGroupName, instanceId, decrementDesiredCapacity);
    }
}

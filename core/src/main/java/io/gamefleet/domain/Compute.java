package io.gamefleet.domain;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The compute port: what Gamefleet asks of EC2 Auto Scaling. The AWS adapter is in
 * io.gamefleet.adapters.autoscaling; the local profile plugs in a simulated fleet. Every call is idempotent,
 * because workflow steps are retried.
 */
public interface Compute {

    /** Creates the group's scaling group, or finds the one created before; returns its ARN. */
    String createScalingGroup(GameServerGroup group);

    /** The scaling group as it is now; empty when it does not exist. */
    Optional<ScalingGroupState> describeScalingGroup(String scalingGroupName);

    /** The scaling group's instances; empty when the scaling group does not exist. */
    default List<ComputeInstance> describeInstances(String scalingGroupName) {
        return describeScalingGroup(scalingGroupName).map(ScalingGroupState::instances).orElse(List.of());
    }

    /**
     * The instances of a scaling group as EC2 describes them ({@link LaunchedInstance}), each by its
     * id (an instance EC2 does not know is left out). Asked once per instance, when Gamefleet records it.
     */
    Map<String, LaunchedInstance> launched(String scalingGroupName, Collection<String> instanceIds);

    /**
     * Starts deleting the scaling group and its instances (protected ones too when
     * {@code force}); true once it no longer exists.
     */
    boolean deleteScalingGroup(String scalingGroupName, boolean force);

    void setInstanceTypes(String scalingGroupName, List<InstanceDefinition> definitions, BalancingStrategy strategy);

    void setDesiredCapacity(String scalingGroupName, int desiredCapacity);

    void setInstanceProtection(String scalingGroupName, String instanceId, boolean protectedFromScaleIn);

    /**
     * Turns the scale-in of the group's target tracking policy ({@link GameServerGroup#autoScalingPolicy})
     * on or off (off: it only adds instances); nothing for a group without one.
     */
    void setTargetTrackingScaleIn(GameServerGroup group, boolean scaleIn);

    void terminateInstance(String scalingGroupName, String instanceId, boolean decrementDesiredCapacity);

    /**
     * Sizes, the instance types new instances may have with their weights (the mixed instances
     * policy's overrides), whether they are bought On-Demand only, and the instances.
     */
    record ScalingGroupState(int desiredCapacity, int minSize, int maxSize, List<InstanceDefinition> instanceTypes,
            boolean onDemandOnly, List<ComputeInstance> instances) {}

    /** An instance of a scaling group, as the scaling group says (it does not say when the instance launched). */
    record ComputeInstance(String instanceId, String instanceType, String availabilityZone, boolean inService,
            boolean protectedFromScaleIn) {}

    /**
     * An instance as EC2 describes it: when it launched (which its maximum lifetime counts from),
     * and its own addresses (private and public IPv4, IPv6, private and public DNS names), which its
     * game servers' ConnectionInfo must name.
     */
    record LaunchedInstance(Instant launchTime, List<String> addresses) {
        public LaunchedInstance {
            addresses = List.copyOf(addresses);
        }
    }

    /** A failure of the compute service; {@code retryable} when trying again may succeed. */
    final class ComputeException extends RuntimeException {
        private final boolean retryable;

        public ComputeException(String message, boolean retryable, Throwable cause) {
            super(message, cause);
            this.retryable = retryable;
        }

        public boolean retryable() {
            return retryable;
        }
    }
}

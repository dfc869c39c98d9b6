package io.gamefleet.domain;

import io.gamefleet.domain.Compute.ScalingGroupState;

/**
 * Desired capacity raised by one for the replacement of a Spot instance that is being
 * interrupted, so the replacement starts with the two minutes' notice, not after it; and
 * lowered by one again once the instance ends, so the group is not left one too large. The
 * instance record's replacementRequested says it stands raised; its conditional changes decide
 * which of the event handler and the balancer acts, so a repeated warning or a termination seen
 * by both changes desired capacity once.
 */
final class Replacements {
    private final InstanceRepository instances;
    private final Compute compute;

    Replacements(InstanceRepository instances, Compute compute) {
        this.instances = instances;
        this.compute = compute;
    }

    /** Within MaxSize; at MaxSize the scaling group replaces the instance once it has ended, as before. */
    void start(GameServerInstance interrupted, String scalingGroup) {
        ScalingGroupState s = compute.describeScalingGroup(scalingGroup).orElse(null);
        if (s == null || s.desiredCapacity() >= s.maxSize()
                || !instances.setReplacementRequested(interrupted.gameServerGroupName(), interrupted.instanceId(), true)) {
            return; // no room, or raised already (by this warning before, or by the balancer when it drained it)
        }
        try {
            compute.setDesiredCapacity(scalingGroup, s.desiredCapacity() + 1);
        } catch (RuntimeException e) {
            undo(interrupted, false); // not raised: a retried warning raises it
            throw e;
        }
    }

    /**
     * The interrupted instance ended (or is ending): desired capacity goes back down by one, if
     * it was raised for it and nobody lowered it yet. While the scaling group still lists the
     * instance, it is terminated with the decrement, which takes this very instance out and
     * never another; once the scaling group dropped it, desired capacity is set one lower.
     * Returns the scaling group as it is after, as far as this knows ({@code scaling} when nothing changed).
     */
    ScalingGroupState end(GameServerInstance ended, String scalingGroup, ScalingGroupState scaling) {
        if (ended.instanceStatus() != InstanceStatus.SPOT_TERMINATING || !ended.replacementRequested()
                || scaling.desiredCapacity() <= scaling.minSize()
                || !instances.setReplacementRequested(ended.gameServerGroupName(), ended.instanceId(), false)) {
            return scaling;
        }
        int lowered = scaling.desiredCapacity() - 1;
        try {
            if (scaling.instances().stream().anyMatch(i -> i.instanceId().equals(ended.instanceId()))) {
                compute.terminateInstance(scalingGroup, ended.instanceId(), true);
            } else {
                compute.setDesiredCapacity(scalingGroup, lowered);
            }
        } catch (RuntimeException e) {
            undo(ended, true); // not lowered: the balancer or a retried event lowers it
            throw e;
        }
        return new ScalingGroupState(lowered, scaling.minSize(), scaling.maxSize(), scaling.instanceTypes(),
                scaling.onDemandOnly(), scaling.instances().stream()
                        .filter(i -> !i.instanceId().equals(ended.instanceId())).toList());
    }

    private void undo(GameServerInstance instance, boolean requested) {
        try {
            instances.setReplacementRequested(instance.gameServerGroupName(), instance.instanceId(), requested);
        } catch (RuntimeException ignored) {
            // the first failure is the one to report
        }
    }
}

package io.gamefleet.domain;

import java.time.Instant;

/**
 * An instance of a group's Auto Scaling group, as Gamefleet tracks it (whether it is in service
 * and protected is the scaling group's to say, and read from it). {@code replacementRequested}:
 * desired capacity was raised for this instance's replacement (by the balancer when it began
 * draining it, or at its Spot interruption warning), so desired capacity goes down by one again
 * when the instance ends. {@code pushConnectionId}: the instance's agent's push connection, if one
 * is open (null otherwise).
 */
public record GameServerInstance(
        String gameServerGroupName,
        String instanceId,
        InstanceStatus instanceStatus,
        String instanceType,
        String availabilityZone,
        Instant launchTime,
        boolean replacementRequested,
        String pushConnectionId) {

    public GameServerInstance(String gameServerGroupName, String instanceId, InstanceStatus instanceStatus,
            String instanceType, String availabilityZone, Instant launchTime, boolean replacementRequested) {
        this(gameServerGroupName, instanceId, instanceStatus, instanceType, availabilityZone, launchTime,
                replacementRequested, null);
    }

    public GameServerInstance(String gameServerGroupName, String instanceId, InstanceStatus instanceStatus,
            String instanceType, String availabilityZone, Instant launchTime) {
        this(gameServerGroupName, instanceId, instanceStatus, instanceType, availabilityZone, launchTime, false);
    }

    /** A scaling group's instance Gamefleet has not recorded before: ACTIVE. */
    public static GameServerInstance active(String group, Compute.ComputeInstance i) {
        return new GameServerInstance(group, i.instanceId(), InstanceStatus.ACTIVE, i.instanceType(),
                i.availabilityZone(), i.launchTime());
    }

    public GameServerInstance withStatus(InstanceStatus status) {
        return new GameServerInstance(gameServerGroupName, instanceId, status, instanceType,
                availabilityZone, launchTime, replacementRequested, pushConnectionId);
    }
}

package io.gamefleet.domain;

import java.time.Instant;

/**
 * An instance of a group's Auto Scaling group, as Gamefleet tracks it. {@code inService} and
 * {@code protectedFromScaleIn} are what the scaling group reported when the record was made.
 * {@code replacementRequested}: the balancer raised desired capacity for this DRAINING instance,
 * so terminating it lowers desired capacity again.
 */
public record GameServerInstance(
        String gameServerGroupName,
        String instanceId,
        InstanceStatus instanceStatus,
        String instanceType,
        String availabilityZone,
        Instant launchTime,
        boolean inService,
        boolean protectedFromScaleIn,
        boolean replacementRequested) {

    public GameServerInstance(String gameServerGroupName, String instanceId, InstanceStatus instanceStatus,
            String instanceType, String availabilityZone, Instant launchTime, boolean inService,
            boolean protectedFromScaleIn) {
        this(gameServerGroupName, instanceId, instanceStatus, instanceType, availabilityZone, launchTime, inService,
                protectedFromScaleIn, false);
    }

    public GameServerInstance withStatus(InstanceStatus status) {
        return new GameServerInstance(gameServerGroupName, instanceId, status, instanceType,
                availabilityZone, launchTime, inService, protectedFromScaleIn, replacementRequested);
    }
}

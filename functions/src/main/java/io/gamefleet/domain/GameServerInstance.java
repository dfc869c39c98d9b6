package io.gamefleet.domain;

import java.time.Instant;

/**
 * An instance of a group's Auto Scaling group, as Gamefleet tracks it. {@code inService} is
 * whether the scaling group reports it InService; {@code protectedFromScaleIn} mirrors the
 * scaling group's instance protection.
 */
public record GameServerInstance(
        String gameServerGroupName,
        String instanceId,
        InstanceStatus instanceStatus,
        String instanceType,
        String availabilityZone,
        Instant launchTime,
        boolean inService,
        boolean protectedFromScaleIn) {

    public GameServerInstance withStatus(InstanceStatus status) {
        return new GameServerInstance(gameServerGroupName, instanceId, status, instanceType,
                availabilityZone, launchTime, inService, protectedFromScaleIn);
    }
}

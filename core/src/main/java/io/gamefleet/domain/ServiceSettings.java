package io.gamefleet.domain;

import java.time.Duration;

/**
 * The deployment settings the domain needs, read once from the environment at start.
 * {@code lifetime}: how long instances live ({@link InstanceLifetime}).
 */
public record ServiceSettings(
        String region,
        String accountId,
        Duration claimTtl,
        Duration healthTimeout,
        Duration deletedRetention,
        Duration activationTimeout,
        String scalingGroupPrefix,
        InstanceLimits instanceLimits,
        InstanceLifetime lifetime) {

    /** The Auto Scaling group a group created now gets: one name per deployment (stage) and group. */
    public String autoScalingGroupName(String groupName) {
        return scalingGroupPrefix + groupName;
    }

    /**
     * The ECS service a container group created now gets: the prefix, then {@code tasks_}, which no
     * Auto Scaling group's name has there (a group name cannot hold an underscore; an ECS service
     * name can).
     */
    public String containerServiceName(String groupName) {
        return scalingGroupPrefix + CONTAINER_SERVICE_MARK + groupName;
    }

    /** Whether a compute name is one of this deployment's ECS services' ({@link #containerServiceName}). */
    public boolean namesContainerService(String computeName) {
        return computeName.startsWith(scalingGroupPrefix + CONTAINER_SERVICE_MARK);
    }

    private static final String CONTAINER_SERVICE_MARK = "tasks_";

    public String groupArn(String groupName) {
        return "arn:aws:gamelift:" + region + ":" + accountId + ":gameservergroup/" + groupName;
    }

    /**
     * GameServerGroupNameOrArn: the name itself, or the name at the end of this deployment's ARN
     * for it. An ARN of another partition, region or account names no group here: accepting it
     * would let endless spellings of one group slip past IAM rules written for its name.
     */
    public String groupName(String nameOrArn) {
        if (!nameOrArn.startsWith("arn:")) {
            return nameOrArn;
        }
        String name = nameOrArn.substring(nameOrArn.lastIndexOf('/') + 1);
        if (!nameOrArn.equals(groupArn(name))) {
            throw GamefleetException.notFound("game server group " + nameOrArn + " does not exist in this deployment ("
                    + region + ", account " + accountId + ")");
        }
        return name;
    }
}

package io.gamefleet.domain;

/**
 * A container group's compute: an ECS service in the stack's cluster, running the task definition
 * the studio names ({@code taskDefinition}: family, family:revision or ARN) with the Gamefleet
 * agent added as a sidecar container. {@code gameServerContainer} is the container that runs the
 * game server; {@code capacity} where its tasks run; {@code onDemandBase} (FARGATE_SPOT only) how
 * many tasks run on FARGATE before any on FARGATE_SPOT.
 */
public record ContainerCompute(String taskDefinition, String gameServerContainer, ContainerCapacity capacity,
        int onDemandBase) {

    /** The agent's sidecar container, which Gamefleet adds to every task: no studio's container may take its name. */
    public static final String AGENT_CONTAINER = "gamefleet-agent";

    public ContainerCompute {
        if (onDemandBase < 0) {
            throw new IllegalArgumentException("onDemandBase must not be negative: " + onDemandBase);
        }
    }

    /** Where a container group's tasks run. */
    public enum ContainerCapacity {
        /** Fargate Spot, after a base of {@code onDemandBase} tasks on Fargate: x86-64 Linux only. */
        FARGATE_SPOT,
        /** The cluster's EC2 capacity providers (Spot and On-Demand Auto Scaling groups of the stack's). */
        EC2
    }
}

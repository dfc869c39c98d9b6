package io.gamefleet.domain;

import java.util.List;

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
    /** Fargate's capacity providers, as ECS names them: On-Demand, and Spot (the one whose viability the balancer judges). */
    public static final String FARGATE = "FARGATE";
    public static final String FARGATE_SPOT = "FARGATE_SPOT";

    public ContainerCompute {
        if (onDemandBase < 0) {
            throw new IllegalArgumentException("onDemandBase must not be negative: " + onDemandBase);
        }
    }

    /**
     * The capacity providers of a balancing strategy, each with its weight, as the group's
     * "instance types" (the ECS adapter adds {@code onDemandBase} as Fargate's base): SPOT_ONLY
     * Fargate Spot alone; SPOT_PREFERRED every task on Fargate Spot but the base (Fargate's weight
     * 0); ON_DEMAND_ONLY Fargate alone. EC2 capacity: none, the cluster's default strategy.
     */
    public List<InstanceDefinition> capacityProviders(BalancingStrategy balancing) {
        if (capacity == ContainerCapacity.EC2) {
            return List.of();
        }
        return switch (balancing) {
            case SPOT_ONLY -> List.of(new InstanceDefinition(FARGATE_SPOT, "1"));
            case SPOT_PREFERRED -> List.of(new InstanceDefinition(FARGATE, "0"), new InstanceDefinition(FARGATE_SPOT, "1"));
            case ON_DEMAND_ONLY -> List.of(new InstanceDefinition(FARGATE, "1"));
        };
    }

    /** Where a container group's tasks run. */
    public enum ContainerCapacity {
        /** Fargate Spot, after a base of {@code onDemandBase} tasks on Fargate: x86-64 Linux only. */
        FARGATE_SPOT,
        /** The cluster's EC2 capacity providers (Spot and On-Demand Auto Scaling groups of the stack's). */
        EC2
    }
}

package io.gamefleet.adapters.ecs;

import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.ContainerCompute;
import io.gamefleet.domain.ContainerCompute.ContainerCapacity;
import io.gamefleet.domain.InstanceDefinition;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.ecs.model.CapacityProviderStrategyItem;

/**
 * A container group's capacity provider strategy: FleetIQ's balancing strategy as Fargate's
 * weights, and back. The strategy is the group's "instance types": each capacity provider an
 * {@link InstanceDefinition} of its name and weight, so the balancer reads and narrows it as it
 * does an Auto Scaling group's overrides.
 */
final class CapacityProviderStrategies {
    static final String FARGATE = "FARGATE";
    static final String FARGATE_SPOT = "FARGATE_SPOT";

    private CapacityProviderStrategies() {}

    /**
     * SPOT_ONLY: Fargate Spot alone; SPOT_PREFERRED: the first {@code onDemandBase} tasks on Fargate,
     * every other on Fargate Spot; ON_DEMAND_ONLY: Fargate alone. EC2 capacity: none, so that ECS
     * uses the cluster's default strategy (its EC2 capacity providers).
     */
    static List<CapacityProviderStrategyItem> of(ContainerCompute compute, BalancingStrategy balancing) {
        if (compute.capacity() == ContainerCapacity.EC2) {
            return List.of();
        }
        return switch (balancing) {
            case SPOT_ONLY -> List.of(item(FARGATE_SPOT, 1, 0));
            case SPOT_PREFERRED -> List.of(item(FARGATE, 0, compute.onDemandBase()), item(FARGATE_SPOT, 1, 0));
            case ON_DEMAND_ONLY -> List.of(item(FARGATE, 1, 0));
        };
    }

    /** The strategy as instance definitions: each provider's name and weight. */
    static List<InstanceDefinition> definitions(List<CapacityProviderStrategyItem> strategy) {
        return strategy.stream().map(i -> new InstanceDefinition(i.capacityProvider(), String.valueOf(weight(i)))).toList();
    }

    /**
     * The strategy of these definitions, each provider keeping the base it has in {@code current};
     * where none is left with a weight (the balancer dropped Fargate Spot, leaving the weight-0
     * base), every provider gets weight 1: ECS refuses a strategy without one.
     */
    static List<CapacityProviderStrategyItem> of(List<InstanceDefinition> definitions,
            List<CapacityProviderStrategyItem> current) {
        Map<String, Integer> bases = current.stream().collect(Collectors.toMap(
                CapacityProviderStrategyItem::capacityProvider, CapacityProviderStrategies::base, (a, b) -> a));
        boolean anyWeight = definitions.stream().anyMatch(d -> d.weight() > 0);
        Function<InstanceDefinition, Integer> weight = d -> anyWeight ? d.weight() : 1;
        return definitions.stream()
                .map(d -> item(d.instanceType(), weight.apply(d), bases.getOrDefault(d.instanceType(), 0))).toList();
    }

    /** Whether every task runs on-demand: a strategy of Fargate alone (EC2's default strategy: unknown, so no). */
    static boolean onDemandOnly(List<CapacityProviderStrategyItem> strategy) {
        return !strategy.isEmpty() && strategy.stream().allMatch(i -> FARGATE.equals(i.capacityProvider()));
    }

    /** Whether two strategies are the same, an absent base or weight being 0 (as ECS reads it). */
    static boolean same(List<CapacityProviderStrategyItem> a, List<CapacityProviderStrategyItem> b) {
        Function<List<CapacityProviderStrategyItem>, List<List<Object>>> values = s -> s.stream()
                .map(i -> List.<Object>of(i.capacityProvider(), weight(i), base(i))).toList();
        return values.apply(a).equals(values.apply(b));
    }

    private static CapacityProviderStrategyItem item(String provider, int weight, int base) {
        CapacityProviderStrategyItem.Builder item = CapacityProviderStrategyItem.builder().capacityProvider(provider)
                .weight(weight);
        return (base > 0 ? item.base(base) : item).build();
    }

    private static int weight(CapacityProviderStrategyItem i) {
        return i.weight() == null ? 0 : i.weight();
    }

    private static int base(CapacityProviderStrategyItem i) {
        return i.base() == null ? 0 : i.base();
    }
}

package io.gamefleet.adapters.ecs;

import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.ContainerCompute;
import io.gamefleet.domain.InstanceDefinition;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.ecs.model.CapacityProviderStrategyItem;

/**
 * A container group's capacity provider strategy: FleetIQ's balancing strategy as Fargate's
 * weights ({@link ContainerCompute#capacityProviders}), and back. The strategy is the group's
 * "instance types": each capacity provider an {@link InstanceDefinition} of its name and weight, so
 * the balancer reads and narrows it as it does an Auto Scaling group's overrides.
 */
final class CapacityProviderStrategies {
    private CapacityProviderStrategies() {}

    /**
     * The group's own providers and weights, with {@code onDemandBase} as Fargate's base under
     * SPOT_PREFERRED (the tasks that run on Fargate before any on Fargate Spot). EC2 capacity: none,
     * so that ECS uses the cluster's default strategy (its EC2 capacity providers).
     */
    static List<CapacityProviderStrategyItem> of(ContainerCompute compute, BalancingStrategy balancing) {
        int base = balancing == BalancingStrategy.SPOT_PREFERRED ? compute.onDemandBase() : 0;
        return compute.capacityProviders(balancing).stream().map(d -> item(d.instanceType(), d.weight(),
                ContainerCompute.FARGATE.equals(d.instanceType()) ? base : 0)).toList();
    }

    /** The strategy as instance definitions: each provider's name and weight. */
    static List<InstanceDefinition> definitions(List<CapacityProviderStrategyItem> strategy) {
        return strategy.stream().map(i -> new InstanceDefinition(i.capacityProvider(), String.valueOf(weight(i)))).toList();
    }

    /**
     * The strategy of these definitions, each provider keeping the base it has in {@code current};
     * where none is left with a weight (Fargate Spot taken out of SPOT_PREFERRED's, leaving the
     * weight-0 base), every provider gets weight 1: ECS refuses a strategy without one.
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
        return !strategy.isEmpty() && strategy.stream().allMatch(i -> ContainerCompute.FARGATE.equals(i.capacityProvider()));
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

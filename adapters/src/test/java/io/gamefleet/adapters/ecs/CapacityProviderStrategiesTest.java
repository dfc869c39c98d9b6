package io.gamefleet.adapters.ecs;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.ContainerCompute;
import io.gamefleet.domain.ContainerCompute.ContainerCapacity;
import io.gamefleet.domain.InstanceDefinition;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ecs.model.CapacityProviderStrategyItem;

class CapacityProviderStrategiesTest {
    private static final ContainerCompute SPOT_WITH_BASE_2 =
            new ContainerCompute("arena:3", "server", ContainerCapacity.FARGATE_SPOT, 2);

    @Test
    void eachBalancingStrategyIsItsFargateWeights() {
        assertThat(CapacityProviderStrategies.of(SPOT_WITH_BASE_2, BalancingStrategy.SPOT_ONLY))
                .containsExactly(item("FARGATE_SPOT", 1, null));
        assertThat(CapacityProviderStrategies.of(SPOT_WITH_BASE_2, BalancingStrategy.SPOT_PREFERRED))
                .containsExactly(item("FARGATE", 0, 2), item("FARGATE_SPOT", 1, null));
        assertThat(CapacityProviderStrategies.of(SPOT_WITH_BASE_2, BalancingStrategy.ON_DEMAND_ONLY))
                .containsExactly(item("FARGATE", 1, null));
        assertThat(CapacityProviderStrategies.of(new ContainerCompute("arena:3", "server", ContainerCapacity.FARGATE_SPOT, 0),
                BalancingStrategy.SPOT_PREFERRED)).as("no base: Fargate is there for the balancer to narrow to")
                .containsExactly(item("FARGATE", 0, null), item("FARGATE_SPOT", 1, null));
    }

    @Test
    void ec2CapacityIsTheClustersDefaultStrategy() {
        for (BalancingStrategy balancing : BalancingStrategy.values()) {
            assertThat(CapacityProviderStrategies.of(new ContainerCompute("arena:3", "server", ContainerCapacity.EC2, 0),
                    balancing)).as("%s", balancing).isEmpty();
        }
    }

    @Test
    void theStrategyIsReadAsInstanceDefinitionsAndOnlyFargateAloneIsOnDemandOnly() {
        List<CapacityProviderStrategyItem> preferred =
                CapacityProviderStrategies.of(SPOT_WITH_BASE_2, BalancingStrategy.SPOT_PREFERRED);
        assertThat(CapacityProviderStrategies.definitions(preferred))
                .containsExactly(new InstanceDefinition("FARGATE", "0"), new InstanceDefinition("FARGATE_SPOT", "1"));
        assertThat(CapacityProviderStrategies.onDemandOnly(preferred)).isFalse();
        assertThat(CapacityProviderStrategies.onDemandOnly(List.of(item("FARGATE", 1, null)))).isTrue();
        assertThat(CapacityProviderStrategies.onDemandOnly(List.of())).as("EC2's default strategy").isFalse();
    }

    @Test
    void narrowedDefinitionsKeepTheirBasesAndOneWeightAtLeast() {
        List<CapacityProviderStrategyItem> preferred =
                CapacityProviderStrategies.of(SPOT_WITH_BASE_2, BalancingStrategy.SPOT_PREFERRED);
        assertThat(CapacityProviderStrategies.of(CapacityProviderStrategies.definitions(preferred), preferred))
                .as("unchanged").isEqualTo(preferred);
        assertThat(CapacityProviderStrategies.of(SPOT_WITH_BASE_2.capacityProviders(BalancingStrategy.ON_DEMAND_ONLY),
                preferred)).as("the balancer's Fargate alone keeps the base").containsExactly(item("FARGATE", 1, 2));
        assertThat(CapacityProviderStrategies.of(List.of(new InstanceDefinition("FARGATE", "0")), preferred))
                .as("Fargate Spot dropped: Fargate takes every task").containsExactly(item("FARGATE", 1, 2));
        assertThat(CapacityProviderStrategies.of(List.of(new InstanceDefinition("FARGATE_SPOT", "1")), preferred))
                .containsExactly(item("FARGATE_SPOT", 1, null));
    }

    @Test
    void anAbsentBaseOrWeightIsZero() {
        assertThat(CapacityProviderStrategies.same(List.of(item("FARGATE", 0, null)), List.of(item("FARGATE", 0, 0))))
                .isTrue();
        assertThat(CapacityProviderStrategies.same(List.of(CapacityProviderStrategyItem.builder().capacityProvider("FARGATE")
                .build()), List.of(item("FARGATE", 0, 0)))).isTrue();
        assertThat(CapacityProviderStrategies.same(List.of(item("FARGATE", 1, 2)), List.of(item("FARGATE", 1, 0)))).isFalse();
        assertThat(CapacityProviderStrategies.same(List.of(item("FARGATE", 1, null)), List.of())).isFalse();
    }

    private static CapacityProviderStrategyItem item(String provider, int weight, Integer base) {
        return CapacityProviderStrategyItem.builder().capacityProvider(provider).weight(weight).base(base).build();
    }
}

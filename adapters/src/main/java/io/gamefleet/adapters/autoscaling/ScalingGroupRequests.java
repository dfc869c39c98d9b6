package io.gamefleet.adapters.autoscaling;

import io.gamefleet.catalog.Catalog;
import io.gamefleet.domain.AutoScalingPolicy;
import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.InstanceDefinition;
import io.gamefleet.domain.LaunchTemplate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.autoscaling.model.CreateAutoScalingGroupRequest;
import software.amazon.awssdk.services.autoscaling.model.CustomizedMetricSpecification;
import software.amazon.awssdk.services.autoscaling.model.DeleteAutoScalingGroupRequest;
import software.amazon.awssdk.services.autoscaling.model.DescribeAutoScalingGroupsRequest;
import software.amazon.awssdk.services.autoscaling.model.InstancesDistribution;
import software.amazon.awssdk.services.autoscaling.model.LaunchTemplateOverrides;
import software.amazon.awssdk.services.autoscaling.model.LaunchTemplateSpecification;
import software.amazon.awssdk.services.autoscaling.model.MetricDimension;
import software.amazon.awssdk.services.autoscaling.model.MetricStatistic;
import software.amazon.awssdk.services.autoscaling.model.MixedInstancesPolicy;
import software.amazon.awssdk.services.autoscaling.model.PutScalingPolicyRequest;
import software.amazon.awssdk.services.autoscaling.model.SetDesiredCapacityRequest;
import software.amazon.awssdk.services.autoscaling.model.SetInstanceProtectionRequest;
import software.amazon.awssdk.services.autoscaling.model.Tag;
import software.amazon.awssdk.services.autoscaling.model.TargetTrackingConfiguration;
import software.amazon.awssdk.services.autoscaling.model.TerminateInstanceInAutoScalingGroupRequest;
import software.amazon.awssdk.services.autoscaling.model.UpdateAutoScalingGroupRequest;

/**
 * What Gamefleet asks Auto Scaling for: the SDK requests {@link AwsAutoScalingCompute} sends,
 * built from the domain's game server groups without calling anything.
 */
final class ScalingGroupRequests {
    static final String FLEETIQ_TAG_KEY = "GameLift";
    static final String FLEETIQ_TAG_VALUE = "GameServerGroups";
    static final String DEFAULT_TEMPLATE_VERSION = "$Default";
    /**
     * The least MaxInstanceLifetime Auto Scaling takes (0 clears it): a shorter stage lifetime is
     * left to the balancer alone (docs/deploy.md, "Instance lifetimes").
     */
    static final Duration MIN_MAX_INSTANCE_LIFETIME = Duration.ofSeconds(86_400);

    private ScalingGroupRequests() {
    }

    /**
     * {@code stage}: the deployment's, tagged on the group so that only this stage changes it.
     * {@code maxInstanceLifetime}: the stage's, as Auto Scaling's MaxInstanceLifetime (whole
     * seconds, rounded up so that Auto Scaling never ends an instance before Gamefleet does) where
     * Auto Scaling takes it; none when it is zero or below {@link #MIN_MAX_INSTANCE_LIFETIME}.
     */
    static CreateAutoScalingGroupRequest createRequest(GameServerGroup g, String stage, Duration maxInstanceLifetime) {
        String name = g.autoScalingGroupName();
        MixedInstancesPolicy policy = MixedInstancesPolicy.builder()
                .launchTemplate(software.amazon.awssdk.services.autoscaling.model.LaunchTemplate.builder()
                        .launchTemplateSpecification(templateSpecification(g.launchTemplate()))
                        .overrides(overrides(g.instanceDefinitions()))
                        .build())
                .instancesDistribution(distribution(g.balancingStrategy()))
                .build();
        return CreateAutoScalingGroupRequest.builder()
                .autoScalingGroupName(name)
                .mixedInstancesPolicy(policy)
                .minSize(g.minSize())
                .maxSize(g.maxSize())
                .desiredCapacity(initialDesiredCapacity(g.minSize(), g.maxSize()))
                .vpcZoneIdentifier(g.vpcSubnets().isEmpty() ? null : String.join(",", g.vpcSubnets()))
                .tags(tags(g, stage))
                // Gamefleet's balancer replaces Spot instances itself, after their gameplay ends.
                .capacityRebalance(false)
                // Protection follows game servers' utilization, set per instance when they are claimed.
                .newInstancesProtectedFromScaleIn(false)
                .maxInstanceLifetime(maxInstanceLifetime(maxInstanceLifetime))
                .build();
    }

    private static Integer maxInstanceLifetime(Duration lifetime) {
        if (lifetime.compareTo(MIN_MAX_INSTANCE_LIFETIME) < 0) {
            return null;
        }
        long seconds = lifetime.plusSeconds(1).minusNanos(1).toSeconds();
        return (int) Math.min(Integer.MAX_VALUE, seconds);
    }

    /** The target tracking policy, named as the group; empty when the group has no AutoScalingPolicy. */
    static Optional<PutScalingPolicyRequest> scalingPolicyRequest(GameServerGroup g) {
        return scalingPolicyRequest(g, true);
    }

    /** As {@link #scalingPolicyRequest(GameServerGroup)}, scaling in or (a standby buffer's group) not. */
    static Optional<PutScalingPolicyRequest> scalingPolicyRequest(GameServerGroup g, boolean scaleIn) {
        AutoScalingPolicy policy = g.autoScalingPolicy();
        if (policy == null) {
            return Optional.empty();
        }
        CustomizedMetricSpecification metric = CustomizedMetricSpecification.builder()
                .metricName(Catalog.PERCENT_UTILIZED_GAME_SERVERS)
                .namespace(Catalog.METRICS_NAMESPACE)
                .dimensions(MetricDimension.builder().name("GameServerGroup").value(g.name()).build())
                .statistic(MetricStatistic.AVERAGE)
                .build();
        return Optional.of(PutScalingPolicyRequest.builder()
                .autoScalingGroupName(g.autoScalingGroupName())
                .policyName(g.name())
                .policyType("TargetTrackingScaling")
                .targetTrackingConfiguration(TargetTrackingConfiguration.builder()
                        .customizedMetricSpecification(metric)
                        .targetValue(policy.targetValue())
                        .disableScaleIn(!scaleIn)
                        .build())
                .estimatedInstanceWarmup(policy.estimatedInstanceWarmup())
                .build());
    }

    /** Only the overrides and the distribution: the launch template stays as created. */
    static UpdateAutoScalingGroupRequest instanceTypesRequest(String name, List<InstanceDefinition> definitions,
            BalancingStrategy strategy) {
        return UpdateAutoScalingGroupRequest.builder()
                .autoScalingGroupName(name)
                .mixedInstancesPolicy(MixedInstancesPolicy.builder()
                        .launchTemplate(software.amazon.awssdk.services.autoscaling.model.LaunchTemplate.builder()
                                .overrides(overrides(definitions))
                                .build())
                        .instancesDistribution(distribution(strategy))
                        .build())
                .build();
    }

    /** MaxSize 0 too, so the scaling policy cannot launch instances into a group being deleted. */
    static UpdateAutoScalingGroupRequest drainRequest(String name) {
        return UpdateAutoScalingGroupRequest.builder()
                .autoScalingGroupName(name).minSize(0).maxSize(0).desiredCapacity(0).build();
    }

    /** ForceDelete also terminates instances that are still launching or protected. */
    static DeleteAutoScalingGroupRequest deleteRequest(String name) {
        return DeleteAutoScalingGroupRequest.builder().autoScalingGroupName(name).forceDelete(true).build();
    }

    static DescribeAutoScalingGroupsRequest describeRequest(String name) {
        return DescribeAutoScalingGroupsRequest.builder().autoScalingGroupNames(name).build();
    }

    /** Gamefleet's own decisions must not wait for the cooldown of the last scaling activity. */
    static SetDesiredCapacityRequest desiredCapacityRequest(String name, int desiredCapacity) {
        return SetDesiredCapacityRequest.builder()
                .autoScalingGroupName(name).desiredCapacity(desiredCapacity).honorCooldown(false).build();
    }

    static SetInstanceProtectionRequest protectionRequest(String name, String instanceId, boolean protect) {
        return SetInstanceProtectionRequest.builder()
                .autoScalingGroupName(name).instanceIds(instanceId).protectedFromScaleIn(protect).build();
    }

    /** The single-instance form; the group name belongs to the batch (InstanceIds) form only. */
    static TerminateInstanceInAutoScalingGroupRequest terminateRequest(String instanceId, boolean decrement) {
        return TerminateInstanceInAutoScalingGroupRequest.builder()
                .instanceId(instanceId).shouldDecrementDesiredCapacity(decrement).build();
    }

    /** At least one instance, so the group can serve as soon as it is created. */
    static int initialDesiredCapacity(int minSize, int maxSize) {
        return Math.min(Math.max(minSize, 1), maxSize);
    }

    private static InstancesDistribution distribution(BalancingStrategy strategy) {
        return switch (strategy) {
            // SPOT_PREFERRED's fallback to On-Demand is the balancer's job (it rewrites the
            // distribution when no Spot type is viable), so both start all-Spot.
            case SPOT_ONLY, SPOT_PREFERRED -> InstancesDistribution.builder()
                    .onDemandBaseCapacity(0)
                    .onDemandPercentageAboveBaseCapacity(0)
                    .spotAllocationStrategy("price-capacity-optimized")
                    .build();
            case ON_DEMAND_ONLY -> InstancesDistribution.builder()
                    .onDemandBaseCapacity(0)
                    .onDemandPercentageAboveBaseCapacity(100)
                    .onDemandAllocationStrategy("prioritized")
                    .build();
        };
    }

    private static LaunchTemplateSpecification templateSpecification(LaunchTemplate template) {
        return LaunchTemplateSpecification.builder()
                .launchTemplateId(template.launchTemplateId())
                .launchTemplateName(template.launchTemplateName())
                .version(template.version() == null ? DEFAULT_TEMPLATE_VERSION : template.version())
                .build();
    }

    private static List<LaunchTemplateOverrides> overrides(List<InstanceDefinition> definitions) {
        return definitions.stream()
                .map(d -> LaunchTemplateOverrides.builder()
                        .instanceType(d.instanceType())
                        .weightedCapacity(Integer.toString(d.weight()))
                        .build())
                .toList();
    }

    /**
     * The reserved tags come first and win: FleetIQ's managed policy keys on GameLift, and
     * Gamefleet's IAM conditions on its own keys, so a caller's tag must not replace any of them
     * (CreateGameServerGroup refuses those keys; this is the second line). Only they reach the
     * instances: a caller's tags stay on the Auto Scaling group, as FleetIQ keeps them on the game
     * server group, so that no caller can put tags that attribute-based access control trusts on
     * an instance.
     */
    private static List<Tag> tags(GameServerGroup g, String stage) {
        List<Tag> tags = new ArrayList<>();
        tags.add(tag(FLEETIQ_TAG_KEY, FLEETIQ_TAG_VALUE, true));
        tags.add(tag(Catalog.MANAGED_TAG_KEY, g.name(), true));
        tags.add(tag(Catalog.STAGE_TAG_KEY, stage, true));
        g.tags().stream()
                .filter(t -> !t.key().equals(FLEETIQ_TAG_KEY) && !t.key().equals(Catalog.MANAGED_TAG_KEY)
                        && !t.key().equals(Catalog.STAGE_TAG_KEY))
                .forEach(t -> tags.add(tag(t.key(), t.value(), false)));
        return tags;
    }

    private static Tag tag(String key, String value, boolean propagateAtLaunch) {
        return Tag.builder().key(key).value(value).propagateAtLaunch(propagateAtLaunch).build();
    }
}

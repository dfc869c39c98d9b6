package io.gamefleet.adapters.autoscaling;

import static io.gamefleet.adapters.autoscaling.AwsAutoScalingComputeTest.ASG;
import static io.gamefleet.adapters.autoscaling.AwsAutoScalingComputeTest.STAGE;
import static io.gamefleet.adapters.autoscaling.AwsAutoScalingComputeTest.group;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.gamefleet.catalog.Catalog;
import io.gamefleet.domain.AutoScalingPolicy;
import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.InstanceDefinition;
import io.gamefleet.domain.LaunchTemplate;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.autoscaling.model.CreateAutoScalingGroupRequest;
import software.amazon.awssdk.services.autoscaling.model.CustomizedMetricSpecification;
import software.amazon.awssdk.services.autoscaling.model.DeleteAutoScalingGroupRequest;
import software.amazon.awssdk.services.autoscaling.model.InstancesDistribution;
import software.amazon.awssdk.services.autoscaling.model.LaunchTemplateOverrides;
import software.amazon.awssdk.services.autoscaling.model.MetricStatistic;
import software.amazon.awssdk.services.autoscaling.model.PutScalingPolicyRequest;
import software.amazon.awssdk.services.autoscaling.model.SetDesiredCapacityRequest;
import software.amazon.awssdk.services.autoscaling.model.Tag;
import software.amazon.awssdk.services.autoscaling.model.UpdateAutoScalingGroupRequest;

/** The requests alone; {@link AwsAutoScalingComputeTest} sends them to a scripted client. */
class ScalingGroupRequestsTest {
    /** The stage's default maximum lifetime, PlayFab's 10 days. */
    private static final Duration LIFETIME = Duration.ofHours(240);

    // --- CreateAutoScalingGroup -------------------------------------------------------------

    /**
     * Auto Scaling's MaxInstanceLifetime, in whole seconds rounded up (it never ends an instance
     * before Gamefleet would); none below its minimum of a day, or where the stage has no limit:
     * the balancer ends those instances.
     */
    @Test
    void createRequestSetsMaxInstanceLifetimeWhereAutoScalingTakesIt() {
        assertThat(ScalingGroupRequests.createRequest(group().build(), STAGE, LIFETIME).maxInstanceLifetime())
                .isEqualTo(864_000);
        assertThat(ScalingGroupRequests.createRequest(group().build(), STAGE, Duration.ofDays(1)).maxInstanceLifetime())
                .isEqualTo(86_400);
        assertThat(ScalingGroupRequests.createRequest(group().build(), STAGE, Duration.ofDays(1).plusMillis(1))
                .maxInstanceLifetime()).isEqualTo(86_401);
        assertThat(ScalingGroupRequests.createRequest(group().build(), STAGE, Duration.ofDays(1).minusMillis(1))
                .maxInstanceLifetime()).isNull();
        assertThat(ScalingGroupRequests.createRequest(group().build(), STAGE, Duration.ofMinutes(4))
                .maxInstanceLifetime()).isNull();
        assertThat(ScalingGroupRequests.createRequest(group().build(), STAGE, Duration.ZERO).maxInstanceLifetime()).isNull();
    }

    @Test
    void createRequestNamesTheGroupAndCarriesTheLaunchTemplateWithOneOverridePerDefinition() {
        CreateAutoScalingGroupRequest r = ScalingGroupRequests.createRequest(group().build(), STAGE, LIFETIME);

        assertThat(r.autoScalingGroupName()).isEqualTo(ASG);
        var template = r.mixedInstancesPolicy().launchTemplate();
        assertThat(template.launchTemplateSpecification().launchTemplateId()).isEqualTo("lt-0123");
        assertThat(template.launchTemplateSpecification().launchTemplateName()).isNull();
        assertThat(template.launchTemplateSpecification().version()).isEqualTo("$Default");
        assertThat(template.overrides()).extracting(LaunchTemplateOverrides::instanceType, LaunchTemplateOverrides::weightedCapacity)
                .containsExactly(tuple("c5.large", "1"),
                        tuple("c5.xlarge", "2"));
        assertThat(r.launchTemplate()).isNull();
        assertThat(r.capacityRebalance()).isFalse();
        assertThat(r.newInstancesProtectedFromScaleIn()).isFalse();
    }

    @Test
    void createRequestUsesTheTemplateNameAndVersionWhenGiven() {
        CreateAutoScalingGroupRequest r = ScalingGroupRequests.createRequest(
                group().launchTemplate(new LaunchTemplate(null, "game-template", "7")).build(), STAGE, LIFETIME);

        var spec = r.mixedInstancesPolicy().launchTemplate().launchTemplateSpecification();
        assertThat(spec.launchTemplateId()).isNull();
        assertThat(spec.launchTemplateName()).isEqualTo("game-template");
        assertThat(spec.version()).isEqualTo("7");
    }

    @Test
    void spotStrategiesAreAllSpotWithPriceCapacityOptimizedAllocation() {
        for (BalancingStrategy s : List.of(BalancingStrategy.SPOT_ONLY, BalancingStrategy.SPOT_PREFERRED)) {
            InstancesDistribution d = ScalingGroupRequests.createRequest(group().balancingStrategy(s).build(), STAGE, LIFETIME)
                    .mixedInstancesPolicy().instancesDistribution();
            assertThat(d.onDemandBaseCapacity()).as(s.name()).isZero();
            assertThat(d.onDemandPercentageAboveBaseCapacity()).as(s.name()).isZero();
            assertThat(d.spotAllocationStrategy()).as(s.name()).isEqualTo("price-capacity-optimized");
            assertThat(d.onDemandAllocationStrategy()).as(s.name()).isNull();
        }
    }

    @Test
    void onDemandOnlyIsAllOnDemandInOverridePriorityOrder() {
        InstancesDistribution d = ScalingGroupRequests.createRequest(
                group().balancingStrategy(BalancingStrategy.ON_DEMAND_ONLY).build(), STAGE, LIFETIME)
                .mixedInstancesPolicy().instancesDistribution();

        assertThat(d.onDemandBaseCapacity()).isZero();
        assertThat(d.onDemandPercentageAboveBaseCapacity()).isEqualTo(100);
        assertThat(d.onDemandAllocationStrategy()).isEqualTo("prioritized");
        assertThat(d.spotAllocationStrategy()).isNull();
    }

    @Test
    void sizesAndDesiredCapacityStartAtLeastOneButNeverAboveMax() {
        CreateAutoScalingGroupRequest fromZero =
                ScalingGroupRequests.createRequest(group().minSize(0).maxSize(10).build(), STAGE, LIFETIME);
        assertThat(fromZero.minSize()).isZero();
        assertThat(fromZero.maxSize()).isEqualTo(10);
        assertThat(fromZero.desiredCapacity()).isEqualTo(1);

        assertThat(ScalingGroupRequests.createRequest(group().minSize(3).maxSize(10).build(), STAGE, LIFETIME).desiredCapacity())
                .isEqualTo(3);
        assertThat(ScalingGroupRequests.createRequest(group().minSize(0).maxSize(0).build(), STAGE, LIFETIME).desiredCapacity())
                .isZero();
        assertThat(ScalingGroupRequests.initialDesiredCapacity(5, 5)).isEqualTo(5);
    }

    @Test
    void subnetsAreJoinedWithCommasAndOmittedWhenNone() {
        assertThat(ScalingGroupRequests.createRequest(
                group().vpcSubnets(List.of("subnet-a", "subnet-b", "subnet-c")).build(), STAGE, LIFETIME).vpcZoneIdentifier()).isEqualTo("subnet-a,subnet-b,subnet-c");
        assertThat(ScalingGroupRequests.createRequest(group().build(), STAGE, LIFETIME).vpcZoneIdentifier()).isNull();
    }

    @Test
    void tagsMarkTheGroupForFleetIqAndGamefleetAndOnlyTheReservedOnesPropagateToInstances() {
        CreateAutoScalingGroupRequest r = ScalingGroupRequests.createRequest(group()
                .tags(List.of(new io.gamefleet.domain.Tag("team", "blue"), new io.gamefleet.domain.Tag("stage", "prod")))
                .build(), STAGE, LIFETIME);

        assertThat(r.tags()).extracting(Tag::key, Tag::value).containsExactly(
                tuple("GameLift", "GameServerGroups"),
                tuple(Catalog.MANAGED_TAG_KEY, "arena"),
                tuple(Catalog.STAGE_TAG_KEY, STAGE),
                tuple("team", "blue"),
                tuple("stage", "prod"));
        assertThat(r.tags()).extracting(Tag::propagateAtLaunch).containsExactly(true, true, true, false, false);
    }

    @Test
    void callerTagsCannotReplaceTheReservedTags() {
        CreateAutoScalingGroupRequest r = ScalingGroupRequests.createRequest(group()
                .tags(List.of(new io.gamefleet.domain.Tag("GameLift", "mine"),
                        new io.gamefleet.domain.Tag(Catalog.MANAGED_TAG_KEY, "other-group"),
                        new io.gamefleet.domain.Tag(Catalog.STAGE_TAG_KEY, "other-stage")))
                .build(), STAGE, LIFETIME);

        assertThat(r.tags()).extracting(Tag::key, Tag::value).containsExactly(
                tuple("GameLift", "GameServerGroups"),
                tuple(Catalog.MANAGED_TAG_KEY, "arena"),
                tuple(Catalog.STAGE_TAG_KEY, STAGE));
    }

    // --- PutScalingPolicy -------------------------------------------------------------------

    @Test
    void noScalingPolicyWithoutAnAutoScalingPolicy() {
        assertThat(ScalingGroupRequests.scalingPolicyRequest(group().build())).isEmpty();
    }

    @Test
    void scalingPolicyTracksPercentUtilizedGameServersOfTheGroup() {
        PutScalingPolicyRequest r = ScalingGroupRequests.scalingPolicyRequest(
                group().autoScalingPolicy(new AutoScalingPolicy(120, 66.5)).build()).orElseThrow();

        assertThat(r.autoScalingGroupName()).isEqualTo(ASG);
        assertThat(r.policyName()).isEqualTo("arena");
        assertThat(r.policyType()).isEqualTo("TargetTrackingScaling");
        assertThat(r.estimatedInstanceWarmup()).isEqualTo(120);
        assertThat(r.targetTrackingConfiguration().targetValue()).isEqualTo(66.5);
        CustomizedMetricSpecification m = r.targetTrackingConfiguration().customizedMetricSpecification();
        assertThat(m.metricName()).isEqualTo("PercentUtilizedGameServers");
        assertThat(m.namespace()).isEqualTo(Catalog.METRICS_NAMESPACE);
        assertThat(m.statistic()).isEqualTo(MetricStatistic.AVERAGE);
        assertThat(m.dimensions()).singleElement().satisfies(d -> {
            assertThat(d.name()).isEqualTo("GameServerGroup");
            assertThat(d.value()).isEqualTo("arena");
        });
        assertThat(r.targetTrackingConfiguration().predefinedMetricSpecification()).isNull();
        assertThat(r.targetTrackingConfiguration().disableScaleIn()).isFalse();
    }

    /** A standby buffer's group: the same policy, put again, adding instances only. */
    @Test
    void aStandbyBuffersGroupsPolicyDoesNotScaleIn() {
        GameServerGroup g = group().autoScalingPolicy(new AutoScalingPolicy(120, 66.5)).build();
        PutScalingPolicyRequest off = ScalingGroupRequests.scalingPolicyRequest(g, false).orElseThrow();

        assertThat(off.targetTrackingConfiguration().disableScaleIn()).isTrue();
        assertThat(off.toBuilder().targetTrackingConfiguration(off.targetTrackingConfiguration().toBuilder()
                .disableScaleIn(false).build()).build()).isEqualTo(ScalingGroupRequests.scalingPolicyRequest(g).orElseThrow());
        assertThat(ScalingGroupRequests.scalingPolicyRequest(group().build(), false)).isEmpty();
    }

    @Test
    void scalingPolicyLeavesWarmupOutWhenNotGiven() {
        PutScalingPolicyRequest r = ScalingGroupRequests.scalingPolicyRequest(
                group().autoScalingPolicy(new AutoScalingPolicy(null, 50)).build()).orElseThrow();

        assertThat(r.estimatedInstanceWarmup()).isNull();
        assertThat(r.targetTrackingConfiguration().targetValue()).isEqualTo(50.0);
    }

    // --- The other requests -----------------------------------------------------------------

    @Test
    void instanceTypesUpdateCarriesOnlyOverridesAndDistribution() {
        UpdateAutoScalingGroupRequest r = ScalingGroupRequests.instanceTypesRequest(ASG,
                List.of(new InstanceDefinition("m5.large", "3")), BalancingStrategy.ON_DEMAND_ONLY);

        assertThat(r.autoScalingGroupName()).isEqualTo(ASG);
        assertThat(r.mixedInstancesPolicy().launchTemplate().launchTemplateSpecification()).isNull();
        assertThat(r.mixedInstancesPolicy().launchTemplate().overrides())
                .extracting(LaunchTemplateOverrides::instanceType, LaunchTemplateOverrides::weightedCapacity)
                .containsExactly(tuple("m5.large", "3"));
        assertThat(r.mixedInstancesPolicy().instancesDistribution().onDemandPercentageAboveBaseCapacity()).isEqualTo(100);
        assertThat(r.launchTemplate()).isNull();
        assertThat(r.minSize()).isNull();
        assertThat(r.maxSize()).isNull();
        assertThat(r.desiredCapacity()).isNull();
    }

    @Test
    void desiredCapacityIgnoresCooldown() {
        SetDesiredCapacityRequest r = ScalingGroupRequests.desiredCapacityRequest(ASG, 4);
        assertThat(r.autoScalingGroupName()).isEqualTo(ASG);
        assertThat(r.desiredCapacity()).isEqualTo(4);
        assertThat(r.honorCooldown()).isFalse();
    }

    @Test
    void protectionAndTerminationRequests() {
        var protect = ScalingGroupRequests.protectionRequest(ASG, "i-1", true);
        assertThat(protect.autoScalingGroupName()).isEqualTo(ASG);
        assertThat(protect.instanceIds()).containsExactly("i-1");
        assertThat(protect.protectedFromScaleIn()).isTrue();
        assertThat(ScalingGroupRequests.protectionRequest(ASG, "i-1", false).protectedFromScaleIn()).isFalse();

        var terminate = ScalingGroupRequests.terminateRequest("i-2", true);
        assertThat(terminate.instanceId()).isEqualTo("i-2");
        assertThat(terminate.shouldDecrementDesiredCapacity()).isTrue();
        assertThat(ScalingGroupRequests.terminateRequest("i-2", false).shouldDecrementDesiredCapacity()).isFalse();
    }

    @Test
    void deleteIsForcedAndDrainingZeroesEverySize() {
        DeleteAutoScalingGroupRequest delete = ScalingGroupRequests.deleteRequest(ASG);
        assertThat(delete.autoScalingGroupName()).isEqualTo(ASG);
        assertThat(delete.forceDelete()).isTrue();

        UpdateAutoScalingGroupRequest drain = ScalingGroupRequests.drainRequest(ASG);
        assertThat(drain.autoScalingGroupName()).isEqualTo(ASG);
        assertThat(drain.minSize()).isZero();
        assertThat(drain.maxSize()).isZero();
        assertThat(drain.desiredCapacity()).isZero();
    }
}

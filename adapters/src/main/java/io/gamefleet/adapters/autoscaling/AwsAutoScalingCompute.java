package io.gamefleet.adapters.autoscaling;

import io.gamefleet.catalog.Catalog;
import io.gamefleet.domain.AutoScalingPolicy;
import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.Compute;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.InstanceDefinition;
import io.gamefleet.domain.LaunchTemplate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.autoscaling.AutoScalingClient;
import software.amazon.awssdk.services.autoscaling.model.AutoScalingGroup;
import software.amazon.awssdk.services.autoscaling.model.CreateAutoScalingGroupRequest;
import software.amazon.awssdk.services.autoscaling.model.CustomizedMetricSpecification;
import software.amazon.awssdk.services.autoscaling.model.DeleteAutoScalingGroupRequest;
import software.amazon.awssdk.services.autoscaling.model.DescribeAutoScalingGroupsRequest;
import software.amazon.awssdk.services.autoscaling.model.Instance;
import software.amazon.awssdk.services.autoscaling.model.InstancesDistribution;
import software.amazon.awssdk.services.autoscaling.model.LaunchTemplateOverrides;
import software.amazon.awssdk.services.autoscaling.model.LaunchTemplateSpecification;
import software.amazon.awssdk.services.autoscaling.model.LifecycleState;
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
 * The compute port on EC2 Auto Scaling. One Auto Scaling group per game server group, shaped
 * the way FleetIQ shapes its own: a MixedInstancesPolicy whose overrides are the instance
 * definitions, and target tracking on PercentUtilizedGameServers.
 */
public final class AwsAutoScalingCompute implements Compute {
    static final String FLEETIQ_TAG_KEY = "GameLift";
    static final String FLEETIQ_TAG_VALUE = "GameServerGroups";
    static final String DEFAULT_TEMPLATE_VERSION = "$Default";

    /** Error codes that say "not now" rather than "no"; the SDK's own retryable() misses some. */
    private static final Set<String> RETRYABLE_CODES = Set.of("Throttling", "RequestLimitExceeded",
            "ServiceUnavailable", "InternalFailure", "ResourceContention", "ScalingActivityInProgress");
    /** Errors of DeleteAutoScalingGroup/UpdateAutoScalingGroup while the group is still busy. */
    private static final Set<String> BUSY_CODES = Set.of("ScalingActivityInProgress", "ResourceInUse");
    /** AutoScalingGroup.status() while a deletion runs; absent otherwise. */
    private static final String DELETE_IN_PROGRESS = "Delete in progress";

    private final AutoScalingClient autoScaling;
    private final Clock clock;
    private final String stage;
    private final String scalingGroupPrefix;

    /**
     * {@code clock}: the time it reports as an instance's launch time (see {@link #toInstance}).
     * {@code stage} and {@code scalingGroupPrefix}: the deployment's; it changes only the scaling
     * groups tagged with this stage and with the game server group their name is for.
     */
    public AwsAutoScalingCompute(AutoScalingClient autoScaling, Clock clock, String stage, String scalingGroupPrefix) {
        this.autoScaling = autoScaling;
        this.clock = clock;
        this.stage = stage;
        this.scalingGroupPrefix = scalingGroupPrefix;
    }

    @Override
    public String createScalingGroup(GameServerGroup group) {
        String name = group.autoScalingGroupName();
        boolean existed = false;
        try {
            autoScaling.createAutoScalingGroup(createRequest(group));
        } catch (AwsServiceException e) {
            // A retried workflow step finds the group its first attempt created.
            if (!"AlreadyExists".equals(errorCode(e))) {
                throw failure("create", name, e);
            }
            existed = true;
        } catch (SdkException e) {
            throw failure("create", name, e);
        }
        AutoScalingGroup created = find(name).orElseThrow(() -> new ComputeException(
                "Auto Scaling created " + name + " but does not list it yet", true, null));
        // Adopting a same-named group someone else made would let Gamefleet scale and delete it.
        if (existed && !owned(created)) {
            throw new ComputeException("An Auto Scaling group named " + name
                    + " already exists and was not created by Gamefleet for game server group " + group.name()
                    + " of stage " + stage, false, null);
        }
        scalingPolicyRequest(group).ifPresent(
                request -> call("put the scaling policy on", name, () -> autoScaling.putScalingPolicy(request)));
        return created.autoScalingGroupARN();
    }

    @Override
    public Optional<ScalingGroupState> describeScalingGroup(String scalingGroupName) {
        // Another stage's or another group's is not this group's scaling group: it is left alone.
        return find(scalingGroupName).filter(this::owned).map(g -> new ScalingGroupState(g.desiredCapacity(), g.minSize(), g.maxSize(),
                g.mixedInstancesPolicy() == null ? List.of() : g.mixedInstancesPolicy().launchTemplate().overrides()
                        .stream().map(o -> new InstanceDefinition(o.instanceType(), o.weightedCapacity())).toList(),
                g.mixedInstancesPolicy() != null && g.mixedInstancesPolicy().instancesDistribution() != null
                        && Integer.valueOf(100).equals(
                                g.mixedInstancesPolicy().instancesDistribution().onDemandPercentageAboveBaseCapacity()),
                g.instances().stream().map(this::toInstance).toList()));
    }

    /**
     * FORCE deletes the group with its instances at once. SAFE first shrinks the group to zero
     * and deletes it only once it has no instances left: scale-in skips protected instances, so
     * those with gameplay stay until their protection is lifted. A same-named group that is not
     * this game server group's (of another stage, or found when its creation was refused) is
     * none of its own: it is left as it is, and the deletion is done.
     */
    @Override
    public boolean deleteScalingGroup(String scalingGroupName, boolean force) {
        Optional<AutoScalingGroup> found = find(scalingGroupName);
        if (found.isEmpty() || !owned(found.get())) {
            return true;
        }
        AutoScalingGroup group = found.get();
        if (DELETE_IN_PROGRESS.equals(group.status())) {
            return false;
        }
        try {
            if (!force && !group.instances().isEmpty()) {
                if (!drained(group)) {
                    autoScaling.updateAutoScalingGroup(drainRequest(scalingGroupName));
                }
                return false;
            }
            autoScaling.deleteAutoScalingGroup(deleteRequest(scalingGroupName));
        } catch (AwsServiceException e) {
            if (errorCode(e) != null && BUSY_CODES.contains(errorCode(e))) {
                return false;
            }
            throw failure("delete", scalingGroupName, e);
        } catch (SdkException e) {
            throw failure("delete", scalingGroupName, e);
        }
        return find(scalingGroupName).isEmpty();
    }

    @Override
    public void setInstanceTypes(String scalingGroupName, List<InstanceDefinition> definitions, BalancingStrategy strategy) {
        requireOwned(scalingGroupName);
        call("change the instance types of", scalingGroupName,
                () -> autoScaling.updateAutoScalingGroup(instanceTypesRequest(scalingGroupName, definitions, strategy)));
    }

    @Override
    public void setDesiredCapacity(String scalingGroupName, int desiredCapacity) {
        requireOwned(scalingGroupName);
        call("set the desired capacity of", scalingGroupName,
                () -> autoScaling.setDesiredCapacity(desiredCapacityRequest(scalingGroupName, desiredCapacity)));
    }

    @Override
    public void setInstanceProtection(String scalingGroupName, String instanceId, boolean protectedFromScaleIn) {
        requireOwned(scalingGroupName);
        call("change the scale-in protection of " + instanceId + " in", scalingGroupName,
                () -> autoScaling.setInstanceProtection(protectionRequest(scalingGroupName, instanceId, protectedFromScaleIn)));
    }

    @Override
    public void terminateInstance(String scalingGroupName, String instanceId, boolean decrementDesiredCapacity) {
        // The request names the instance only: it must be one of this group's own.
        if (requireOwned(scalingGroupName).instances().stream().noneMatch(i -> instanceId.equals(i.instanceId()))) {
            throw new ComputeException("Instance " + instanceId + " is not in Auto Scaling group " + scalingGroupName
                    + "; it was not terminated", false, null);
        }
        call("terminate " + instanceId + " in", scalingGroupName,
                () -> autoScaling.terminateInstanceInAutoScalingGroup(
                        terminateRequest(instanceId, decrementDesiredCapacity)));
    }

    CreateAutoScalingGroupRequest createRequest(GameServerGroup g) {
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
                .tags(tags(g))
                // Gamefleet's balancer replaces Spot instances itself, after their gameplay ends.
                .capacityRebalance(false)
                // Protection follows game servers' utilization, set per instance when they are claimed.
                .newInstancesProtectedFromScaleIn(false)
                .build();
    }

    /** The target tracking policy, named as the group; empty when the group has no AutoScalingPolicy. */
    static Optional<PutScalingPolicyRequest> scalingPolicyRequest(GameServerGroup g) {
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
    private List<Tag> tags(GameServerGroup g) {
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

    /**
     * The Auto Scaling API does not report when an instance launched (EC2's DescribeInstances does,
     * at the price of the EC2 SDK in every function). The time of this description stands in: an
     * instance's record keeps the time Gamefleet first saw it, which the activation and each balancer
     * run put within a balancer period of the launch, close enough to pack claims onto older instances.
     */
    private ComputeInstance toInstance(Instance i) {
        return new ComputeInstance(i.instanceId(), i.instanceType(), i.availabilityZone(),
                clock.instant(),
                i.lifecycleState() == LifecycleState.IN_SERVICE,
                Boolean.TRUE.equals(i.protectedFromScaleIn()));
    }

    private static boolean drained(AutoScalingGroup g) {
        return g.minSize() == 0 && g.maxSize() == 0 && g.desiredCapacity() == 0;
    }

    /**
     * Whether the scaling group is this stage's, for the game server group its name is for: its
     * stage tag is this stage and its group tag that group (the name alone may be another stage's,
     * when one stage's prefix is the start of another's).
     */
    private boolean owned(AutoScalingGroup g) {
        String name = g.autoScalingGroupName();
        return name.startsWith(scalingGroupPrefix) && tagged(g, Catalog.STAGE_TAG_KEY, stage)
                && tagged(g, Catalog.MANAGED_TAG_KEY, name.substring(scalingGroupPrefix.length()));
    }

    private static boolean tagged(AutoScalingGroup g, String key, String value) {
        return g.tags().stream().anyMatch(t -> key.equals(t.key()) && value.equals(t.value()));
    }

    /** The scaling group, before any change to it: refused unless it is this stage's and this group's. */
    private AutoScalingGroup requireOwned(String name) {
        AutoScalingGroup g = find(name).orElseThrow(() -> new ComputeException(
                "Auto Scaling group " + name + " does not exist; it was not changed", false, null));
        if (!owned(g)) {
            throw new ComputeException("Auto Scaling group " + name + " is not Gamefleet's for stage " + stage
                    + " (its " + Catalog.STAGE_TAG_KEY + " and " + Catalog.MANAGED_TAG_KEY
                    + " tags say otherwise); it was not changed", false, null);
        }
        return g;
    }

    private Optional<AutoScalingGroup> find(String name) {
        return call("describe", name, () -> autoScaling.describeAutoScalingGroups(describeRequest(name)))
                .autoScalingGroups().stream()
                .filter(g -> name.equals(g.autoScalingGroupName()))
                .findFirst();
    }

    private static <T> T call(String action, String name, Supplier<T> request) {
        try {
            return request.get();
        } catch (SdkException e) {
            throw failure(action, name, e);
        }
    }

    static ComputeException failure(String action, String name, SdkException e) {
        String code = errorCode(e);
        boolean retryable = e.retryable() || (code != null && RETRYABLE_CODES.contains(code));
        String message = e instanceof AwsServiceException service
                ? "Auto Scaling refused to " + action + " " + name + ": " + awsMessage(service)
                : "Could not reach Auto Scaling to " + action + " " + name + ": " + e.getMessage();
        return new ComputeException(message, retryable, e);
    }

    private static String errorCode(SdkException e) {
        return e instanceof AwsServiceException service && service.awsErrorDetails() != null
                ? service.awsErrorDetails().errorCode()
                : null;
    }

    private static String awsMessage(AwsServiceException e) {
        return e.awsErrorDetails() != null && e.awsErrorDetails().errorMessage() != null
                ? e.awsErrorDetails().errorMessage()
                : e.getMessage();
    }
}

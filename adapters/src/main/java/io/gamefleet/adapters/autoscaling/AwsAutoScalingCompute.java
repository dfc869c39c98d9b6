package io.gamefleet.adapters.autoscaling;

import io.gamefleet.adapters.compute.ComputeFailures;
import io.gamefleet.adapters.ec2.Ec2Instances;
import io.gamefleet.catalog.Catalog;
import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.Compute;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.InstanceDefinition;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.autoscaling.AutoScalingClient;
import software.amazon.awssdk.services.autoscaling.model.AutoScalingGroup;
import software.amazon.awssdk.services.autoscaling.model.Instance;
import software.amazon.awssdk.services.autoscaling.model.LifecycleState;

/**
 * The compute port on EC2 Auto Scaling. One Auto Scaling group per game server group, shaped
 * the way FleetIQ shapes its own: a MixedInstancesPolicy whose overrides are the instance
 * definitions, and target tracking on PercentUtilizedGameServers (the requests built by
 * {@link ScalingGroupRequests}). This class calls Auto Scaling, changes only the groups it owns,
 * and maps Auto Scaling's errors to {@link ComputeException}s.
 */
public final class AwsAutoScalingCompute implements Compute {
    /** Error codes that say "not now" rather than "no"; the SDK's own retryable() misses some. */
    private static final ComputeFailures FAILURES = new ComputeFailures("Auto Scaling", Set.of("Throttling",
            "RequestLimitExceeded", "ServiceUnavailable", "InternalFailure", "ResourceContention",
            "ScalingActivityInProgress"));
    /** Errors of DeleteAutoScalingGroup/UpdateAutoScalingGroup while the group is still busy. */
    private static final Set<String> BUSY_CODES = Set.of("ScalingActivityInProgress", "ResourceInUse");
    /** AutoScalingGroup.status() while a deletion runs; absent otherwise. */
    private static final String DELETE_IN_PROGRESS = "Delete in progress";

    private final AutoScalingClient autoScaling;
    private final Ec2Instances ec2;
    private final String stage;
    private final String scalingGroupPrefix;
    private final Duration maxInstanceLifetime;

    /**
     * {@code ec2}: EC2's answer for a new instance's launch time and addresses. {@code stage} and
     * {@code scalingGroupPrefix}: the deployment's; it changes only the scaling groups tagged with
     * this stage and with the game server group their name is for. {@code maxInstanceLifetime}: the
     * stage's (zero: none), which the scaling groups it creates get where Auto Scaling takes it
     * ({@link ScalingGroupRequests#createRequest}).
     */
    public AwsAutoScalingCompute(AutoScalingClient autoScaling, Ec2Instances ec2, String stage,
            String scalingGroupPrefix, Duration maxInstanceLifetime) {
        this.autoScaling = autoScaling;
        this.ec2 = ec2;
        this.stage = stage;
        this.scalingGroupPrefix = scalingGroupPrefix;
        this.maxInstanceLifetime = maxInstanceLifetime;
    }

    @Override
    public String createScalingGroup(GameServerGroup group) {
        String name = group.autoScalingGroupName();
        boolean existed = false;
        try {
            autoScaling.createAutoScalingGroup(ScalingGroupRequests.createRequest(group, stage, maxInstanceLifetime));
        } catch (AwsServiceException e) {
            // A retried workflow step finds the group its first attempt created.
            if (!"AlreadyExists".equals(ComputeFailures.errorCode(e))) {
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
        ScalingGroupRequests.scalingPolicyRequest(group).ifPresent(
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
                g.instances().stream().map(AwsAutoScalingCompute::toInstance).toList()));
    }

    /** EC2's DescribeInstances ({@link Ec2Instances}): Auto Scaling does not know an instance's launch time or addresses. */
    @Override
    public Map<String, LaunchedInstance> launched(String scalingGroupName, Collection<String> instanceIds) {
        return ec2.of(instanceIds);
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
                    autoScaling.updateAutoScalingGroup(ScalingGroupRequests.drainRequest(scalingGroupName));
                }
                return false;
            }
            autoScaling.deleteAutoScalingGroup(ScalingGroupRequests.deleteRequest(scalingGroupName));
        } catch (AwsServiceException e) {
            if (ComputeFailures.errorCode(e) != null && BUSY_CODES.contains(ComputeFailures.errorCode(e))) {
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
                () -> autoScaling.updateAutoScalingGroup(
                        ScalingGroupRequests.instanceTypesRequest(scalingGroupName, definitions, strategy)));
    }

    @Override
    public void setTargetTrackingScaleIn(GameServerGroup group, boolean scaleIn) {
        ScalingGroupRequests.scalingPolicyRequest(group, scaleIn).ifPresent(request -> call(
                "set the scaling policy's scale-in on", group.autoScalingGroupName(),
                () -> autoScaling.putScalingPolicy(request)));
    }

    @Override
    public void setDesiredCapacity(String scalingGroupName, int desiredCapacity) {
        requireOwned(scalingGroupName);
        call("set the desired capacity of", scalingGroupName,
                () -> autoScaling.setDesiredCapacity(
                        ScalingGroupRequests.desiredCapacityRequest(scalingGroupName, desiredCapacity)));
    }

    @Override
    public void setInstanceProtection(String scalingGroupName, String instanceId, boolean protectedFromScaleIn) {
        requireOwned(scalingGroupName);
        call("change the scale-in protection of " + instanceId + " in", scalingGroupName,
                () -> autoScaling.setInstanceProtection(
                        ScalingGroupRequests.protectionRequest(scalingGroupName, instanceId, protectedFromScaleIn)));
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
                        ScalingGroupRequests.terminateRequest(instanceId, decrementDesiredCapacity)));
    }

    /** Auto Scaling does not say when an instance launched: EC2 does, once, when it is recorded ({@link #launched}). */
    private static ComputeInstance toInstance(Instance i) {
        return new ComputeInstance(i.instanceId(), i.instanceType(), i.availabilityZone(),
                i.lifecycleState() == LifecycleState.IN_SERVICE,
                Boolean.TRUE.equals(i.protectedFromScaleIn()));
    }

    private static boolean drained(AutoScalingGroup g) {
        return g.minSize() == 0 && g.maxSize() == 0 && g.desiredCapacity() == 0;
    }

    /**
     * Whether the scaling group is this stage's, for the game server group its name is for: its
     * stage tag is this stage and its group tag that group, named with the stage's prefix or, for a
     * group created before the prefix had its underscore, with its former one (a name of the former
     * kind may also be another stage's: prod's eu-arena and prod-eu's arena were both
     * gamefleet-prod-eu-arena, which the stage tag tells apart).
     */
    private boolean owned(AutoScalingGroup g) {
        return tagged(g, Catalog.STAGE_TAG_KEY, stage)
                && (named(g, scalingGroupPrefix) || named(g, Catalog.formerScalingGroupPrefix(stage)));
    }

    /** Whether the group is named {@code prefix} and the game server group its group tag names. */
    private static boolean named(AutoScalingGroup g, String prefix) {
        String name = g.autoScalingGroupName();
        return name.startsWith(prefix) && tagged(g, Catalog.MANAGED_TAG_KEY, name.substring(prefix.length()));
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
        return call("describe", name, () -> autoScaling.describeAutoScalingGroups(ScalingGroupRequests.describeRequest(name)))
                .autoScalingGroups().stream()
                .filter(g -> name.equals(g.autoScalingGroupName()))
                .findFirst();
    }

    private static <T> T call(String action, String name, Supplier<T> request) {
        return FAILURES.call(action, name, request);
    }

    static ComputeException failure(String action, String name, SdkException e) {
        return FAILURES.failure(action, name, e);
    }
}

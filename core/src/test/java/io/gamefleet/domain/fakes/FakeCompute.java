package io.gamefleet.domain.fakes;

import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.Compute;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.InstanceDefinition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A compute port whose scaling groups a test scripts ({@link #putScalingGroup}, {@link #addInstance}).
 * It records every call, failed ones too, and fails the operations it is told to with a
 * {@link Compute.ComputeException}. It launches nothing by itself: a raised desired capacity is
 * only recorded, and instances appear when the test adds them. Calls on a scaling group that does
 * not exist fail (not retryable), as Auto Scaling refuses them.
 */
public final class FakeCompute implements Compute {
    public static final String CREATE_SCALING_GROUP = "createScalingGroup";
    public static final String DESCRIBE_SCALING_GROUP = "describeScalingGroup";
    public static final String DELETE_SCALING_GROUP = "deleteScalingGroup";
    public static final String SET_INSTANCE_TYPES = "setInstanceTypes";
    public static final String SET_DESIRED_CAPACITY = "setDesiredCapacity";
    public static final String SET_INSTANCE_PROTECTION = "setInstanceProtection";
    public static final String TERMINATE_INSTANCE = "terminateInstance";
    public static final String SET_TARGET_TRACKING_SCALE_IN = "setTargetTrackingScaleIn";
    public static final String LAUNCHED = "launched";
    private static final Set<String> OPERATIONS = Set.of(CREATE_SCALING_GROUP, DESCRIBE_SCALING_GROUP,
            DELETE_SCALING_GROUP, SET_INSTANCE_TYPES, SET_DESIRED_CAPACITY, SET_INSTANCE_PROTECTION, TERMINATE_INSTANCE,
            LAUNCHED, SET_TARGET_TRACKING_SCALE_IN);

    /** One call of the port: the operation (its method name) and its arguments as given. */
    public record Call(String operation, List<Object> arguments) {}

    /** {@code times}: how many more calls fail; negative for every call. */
    private record Failure(boolean retryable, int times) {}

    /** When an instance launched, as EC2 says, unless the test said when ({@link #addInstance}): the tests' start. */
    public static final Instant DEFAULT_LAUNCH_TIME = Instant.parse("2100-01-01T00:00:00Z");

    /** What every instance's addresses are unless a test says otherwise ({@link #setAddresses}). */
    public static final List<String> ADDRESSES = List.of("10.0.0.1", "ip-10-0-0-1.ec2.internal");

    private final Map<String, ScalingGroupState> scalingGroups = new HashMap<>();
    private final Map<String, List<String>> addresses = new HashMap<>();
    private final Map<String, Instant> launchTimes = new HashMap<>();
    private final Map<String, String> arns = new HashMap<>();
    private final List<Call> calls = new ArrayList<>();
    private final Map<String, Failure> failures = new HashMap<>();

    // ---- scripting -----------------------------------------------------------------------

    public synchronized void putScalingGroup(String name, ScalingGroupState state) {
        scalingGroups.put(name, state);
        arns.putIfAbsent(name, arn(name));
    }

    public synchronized Optional<ScalingGroupState> scalingGroup(String name) {
        return Optional.ofNullable(scalingGroups.get(name));
    }

    /**
     * Adds or replaces (by id) an instance of an existing scaling group, launched at {@code launchTime}
     * (what EC2 says of it).
     */
    public synchronized void addInstance(String scalingGroupName, ComputeInstance instance, Instant launchTime) {
        launchTimes.put(instance.instanceId(), launchTime);
        addInstance(scalingGroupName, instance);
    }

    /** Adds or replaces (by id) an instance of an existing scaling group, launched when EC2 says (now, if not told). */
    public synchronized void addInstance(String scalingGroupName, ComputeInstance instance) {
        change(scalingGroupName, s -> {
            List<ComputeInstance> instances = new ArrayList<>(s.instances());
            instances.removeIf(i -> i.instanceId().equals(instance.instanceId()));
            instances.add(instance);
            return withInstances(s, instances);
        });
    }

    /** An instance that went away by itself (a Spot interruption, a failed health check). */
    public synchronized void removeInstance(String scalingGroupName, String instanceId) {
        change(scalingGroupName, s -> withInstances(s, s.instances().stream()
                .filter(i -> !i.instanceId().equals(instanceId)).toList()));
    }

    /** The instance's own addresses, as EC2 describes them; an empty list: EC2 does not describe it (yet). */
    public synchronized void setAddresses(String instanceId, List<String> instanceAddresses) {
        addresses.put(instanceId, List.copyOf(instanceAddresses));
    }

    /** Every later call of {@code operation} fails, until {@link #succeed}. */
    public synchronized void fail(String operation, boolean retryable) {
        failures.put(known(operation), new Failure(retryable, -1));
    }

    /** The next call of {@code operation} fails; later ones do not. */
    public synchronized void failNext(String operation, boolean retryable) {
        failures.put(known(operation), new Failure(retryable, 1));
    }

    public synchronized void succeed(String operation) {
        failures.remove(known(operation));
    }

    public synchronized List<Call> calls() {
        return List.copyOf(calls);
    }

    /** The arguments of each call of one operation, in order. */
    public synchronized List<List<Object>> calls(String operation) {
        known(operation);
        return calls.stream().filter(c -> c.operation().equals(operation)).map(Call::arguments).toList();
    }

    // ---- the port ------------------------------------------------------------------------

    /**
     * The instances of any scaling group as EC2 describes them: launched when {@link #addInstance}
     * said ({@link #DEFAULT_LAUNCH_TIME} if it did not), with {@link #ADDRESSES} unless set otherwise.
     */
    @Override
    public synchronized Map<String, LaunchedInstance> launched(String scalingGroupName,
            java.util.Collection<String> instanceIds) {
        call(LAUNCHED, List.copyOf(instanceIds));
        Map<String, LaunchedInstance> found = new HashMap<>();
        for (String id : instanceIds) {
            boolean exists = scalingGroups.values().stream().anyMatch(s -> s.instances().stream()
                    .anyMatch(i -> i.instanceId().equals(id)));
            List<String> given = addresses.getOrDefault(id, ADDRESSES);
            if (exists && !given.isEmpty()) {
                found.put(id, new LaunchedInstance(launchTimes.getOrDefault(id, DEFAULT_LAUNCH_TIME), given));
            }
        }
        return found;
    }

    /**
     * Creates it with the group's sizes and types (a container group's: its capacity providers, as
     * the ECS adapter reads them) and no instances, or finds the one created before.
     */
    @Override
    public synchronized String createScalingGroup(GameServerGroup group) {
        call(CREATE_SCALING_GROUP, group);
        String name = group.autoScalingGroupName();
        if (!scalingGroups.containsKey(name)) {
            int desired = Math.min(Math.max(group.minSize(), 1), group.maxSize());
            List<InstanceDefinition> types = group.isContainerGroup()
                    ? group.containers().capacityProviders(group.balancingStrategy()) : group.instanceDefinitions();
            putScalingGroup(name, new ScalingGroupState(desired, group.minSize(), group.maxSize(), types,
                    group.balancingStrategy() == BalancingStrategy.ON_DEMAND_ONLY, List.of()));
        }
        return arns.get(name);
    }

    @Override
    public synchronized Optional<ScalingGroupState> describeScalingGroup(String scalingGroupName) {
        call(DESCRIBE_SCALING_GROUP, scalingGroupName);
        return scalingGroup(scalingGroupName);
    }

    /** Terminates its instances (protected ones only when forced) and is gone once it has none. */
    @Override
    public synchronized boolean deleteScalingGroup(String scalingGroupName, boolean force) {
        call(DELETE_SCALING_GROUP, scalingGroupName, force);
        ScalingGroupState s = scalingGroups.get(scalingGroupName);
        if (s == null) {
            return true;
        }
        List<ComputeInstance> kept = s.instances().stream().filter(i -> !force && i.protectedFromScaleIn()).toList();
        if (kept.isEmpty()) {
            scalingGroups.remove(scalingGroupName);
            return true;
        }
        scalingGroups.put(scalingGroupName, new ScalingGroupState(0, s.minSize(), s.maxSize(), s.instanceTypes(),
                s.onDemandOnly(), kept));
        return false;
    }

    @Override
    public synchronized void setInstanceTypes(String scalingGroupName, List<InstanceDefinition> definitions,
            BalancingStrategy strategy) {
        call(SET_INSTANCE_TYPES, scalingGroupName, definitions, strategy);
        change(scalingGroupName, s -> new ScalingGroupState(s.desiredCapacity(), s.minSize(), s.maxSize(),
                List.copyOf(definitions), strategy == BalancingStrategy.ON_DEMAND_ONLY, s.instances()));
    }

    @Override
    public synchronized void setDesiredCapacity(String scalingGroupName, int desiredCapacity) {
        call(SET_DESIRED_CAPACITY, scalingGroupName, desiredCapacity);
        change(scalingGroupName, s -> new ScalingGroupState(desiredCapacity, s.minSize(), s.maxSize(),
                s.instanceTypes(), s.onDemandOnly(), s.instances()));
    }

    @Override
    public synchronized void setInstanceProtection(String scalingGroupName, String instanceId,
            boolean protectedFromScaleIn) {
        call(SET_INSTANCE_PROTECTION, scalingGroupName, instanceId, protectedFromScaleIn);
        change(scalingGroupName, s -> withInstances(s, s.instances().stream()
                .map(i -> !i.instanceId().equals(instanceId) ? i : new ComputeInstance(i.instanceId(),
                        i.instanceType(), i.availabilityZone(), i.inService(), protectedFromScaleIn))
                .toList()));
    }

    @Override
    public synchronized void setTargetTrackingScaleIn(GameServerGroup group, boolean scaleIn) {
        call(SET_TARGET_TRACKING_SCALE_IN, group.autoScalingGroupName(), scaleIn);
    }

    @Override
    public synchronized void terminateInstance(String scalingGroupName, String instanceId,
            boolean decrementDesiredCapacity) {
        call(TERMINATE_INSTANCE, scalingGroupName, instanceId, decrementDesiredCapacity);
        change(scalingGroupName, s -> {
            List<ComputeInstance> left = s.instances().stream().filter(i -> !i.instanceId().equals(instanceId)).toList();
            int desired = decrementDesiredCapacity && left.size() < s.instances().size()
                    ? Math.max(0, s.desiredCapacity() - 1) : s.desiredCapacity();
            return new ScalingGroupState(desired, s.minSize(), s.maxSize(), s.instanceTypes(), s.onDemandOnly(), left);
        });
    }

    // ---- helpers -------------------------------------------------------------------------

    /** Records the call, then fails it if told to. */
    private void call(String operation, Object... arguments) {
        calls.add(new Call(operation, Arrays.asList(arguments)));
        Failure failure = failures.get(operation);
        if (failure == null) {
            return;
        }
        if (failure.times() == 1) {
            failures.remove(operation);
        }
        throw new ComputeException("FakeCompute was told to fail " + operation, failure.retryable(), null);
    }

    private void change(String scalingGroupName, java.util.function.UnaryOperator<ScalingGroupState> change) {
        ScalingGroupState s = scalingGroups.get(scalingGroupName);
        if (s == null) {
            throw new ComputeException("Auto Scaling group " + scalingGroupName + " does not exist", false, null);
        }
        scalingGroups.put(scalingGroupName, change.apply(s));
    }

    private static ScalingGroupState withInstances(ScalingGroupState s, List<ComputeInstance> instances) {
        return new ScalingGroupState(s.desiredCapacity(), s.minSize(), s.maxSize(), s.instanceTypes(),
                s.onDemandOnly(), List.copyOf(instances));
    }

    private static String arn(String name) {
        return "arn:aws:autoscaling:us-east-1:123456789012:autoScalingGroup:fake:autoScalingGroupName/" + name;
    }

    private static String known(String operation) {
        if (!OPERATIONS.contains(operation)) {
            throw new IllegalArgumentException("no Compute operation is called " + operation);
        }
        return operation;
    }
}

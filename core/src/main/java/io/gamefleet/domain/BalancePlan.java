package io.gamefleet.domain;

import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.Compute.ScalingGroupState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What one balancer run decides for one group, from what it observed: a pure function, so the
 * Spot balancing rules are tested without DynamoDB or Auto Scaling.
 *
 * <p>Rules (FleetIQ's Spot balancing process):
 * <ul>
 * <li>An instance type is not viable while its interruption rate, interruptions in the window ÷
 *     instances of the type the group ran in it (those running now plus those interrupted), is
 *     above the threshold. Not viable types leave the scaling group's instance types at once
 *     and return when viable again. SPOT_PREFERRED with no viable type falls back to On-Demand
 *     (every type); SPOT_ONLY then launches nothing new.</li>
 * <li>Instances of non-viable types become DRAINING and desired capacity grows by as many, so
 *     replacements launch (within MaxSize). The serving capacity, desired minus draining minus
 *     interrupted instances whose replacement started at their warning, holds.
 *     While SPOT_PREFERRED runs On-Demand, no further instance is drained.</li>
 * <li>A draining instance without UTILIZED or claimed game servers is terminated once the
 *     in-service ACTIVE instances reach the serving capacity: desired shrinks with it if it grew
 *     for its replacement; at MaxSize the scaling group replaces it instead, one a run. When no
 *     replacement will come (SPOT_ONLY without a viable type) idle ones end at once, desired
 *     shrinking down to MinSize. Draining instances with games are left to finish them, protected
 *     or not.</li>
 * <li>A container group on Fargate Spot has one type judged so, FARGATE_SPOT, its tasks there its
 *     instances. Not viable, it leaves a SPOT_PREFERRED group's capacity provider strategy (every
 *     task on FARGATE) and returns when viable again; a SPOT_ONLY group has nothing to replace it.
 *     No task is drained and desired capacity stays: ECS's deployment of the new strategy replaces
 *     the tasks ({@link #containers}). Container groups on EC2 capacity are not balanced.</li>
 * <li>None of that runs for ON_DEMAND_ONLY groups or while REPLACE_INSTANCE_TYPES is suspended
 *     (an Auto Scaling group still follows updates of the definitions: see {@link #unbalanced});
 *     instance protection (FULL_PROTECTION: protected while it has a UTILIZED or claimed game
 *     server; a container group's task so whatever its policy), the health sweep and metrics always run.</li>
 * </ul>
 *
 * <p>Lifetimes (PlayFab's, {@link InstanceLifetime}), for every group, balanced or not:
 * <ul>
 * <li>An ACTIVE instance that is retiring becomes DRAINING ({@link #retire}), desired capacity
 *     unchanged: it takes no claim and lives to its end, its matches with it. The Spot rule does not
 *     end it while it is idle unless it was drained for Spot (its type is not viable, or its
 *     replacement was requested).</li>
 * <li>An instance in service at or past its end is ended, protected or not (protection stops Auto
 *     Scaling's own MaxInstanceLifetime, not a termination Gamefleet asks for): desired capacity
 *     shrinks with it if it grew for its replacement, else the scaling group launches one. Being
 *     interrupted, it is left to its interruption.</li>
 * </ul>
 */
public record BalancePlan(
        Set<String> nonViableTypes,
        Optional<InstanceTypeChange> instanceTypes,
        List<String> drain,
        Set<String> replaced,
        List<String> retire,
        Optional<Integer> desiredCapacity,
        List<Termination> terminate,
        Map<String, Boolean> protection) {

    /**
     * An instance to end: a draining one (desired capacity shrinks with it only if it grew for its
     * replacement; otherwise, MaxSize reached, the scaling group replaces it, one a run), or one at
     * the end of its lifetime ({@code lifetimeEnded}), whatever its games.
     */
    public record Termination(String instanceId, boolean decrementDesiredCapacity, boolean lifetimeEnded) {
        public Termination(String instanceId, boolean decrementDesiredCapacity) {
            this(instanceId, decrementDesiredCapacity, false);
        }
    }

    /** The scaling group's new instance types and the purchase option they are bought with. */
    public record InstanceTypeChange(List<InstanceDefinition> definitions, BalancingStrategy purchase) {}

    /**
     * Per instance: its recorded status, whether a game is on it (UTILIZED or live claim), whether
     * desired capacity grew for its replacement when it started draining, and where it is in its
     * lifetime: retiring (less than the guaranteed lifetime left), ended.
     */
    public record InstanceView(ComputeInstance instance, InstanceStatus status, boolean hasGames,
            boolean replacementRequested, boolean retiring, boolean ended) {
        /** An instance well within its lifetime. */
        public InstanceView(ComputeInstance instance, InstanceStatus status, boolean hasGames,
                boolean replacementRequested) {
            this(instance, status, hasGames, replacementRequested, false, false);
        }
    }

    public static BalancePlan decide(GameServerGroup group, ScalingGroupState scaling, List<InstanceView> instances,
            Map<String, Long> interruptionsByType, double threshold) {
        List<Termination> ended = new ArrayList<>();
        List<InstanceView> living = new ArrayList<>();
        for (InstanceView v : instances) {
            if (v.ended() && v.instance().inService() && v.status() != InstanceStatus.SPOT_TERMINATING) {
                ended.add(new Termination(v.instance().instanceId(), v.replacementRequested(), true));
            } else {
                living.add(v);
            }
        }
        Map<String, Boolean> protection = new LinkedHashMap<>();
        for (InstanceView v : living) {
            // A container group's task is protected while it has a game whatever the policy: ECS ends
            // unprotected tasks at scale-in, where Auto Scaling under NO_PROTECTION is what FleetIQ's users asked for.
            boolean wanted = v.hasGames() && (group.isContainerGroup()
                    || group.protectionPolicy() == GameServerProtectionPolicy.FULL_PROTECTION);
            if (v.status() != InstanceStatus.SPOT_TERMINATING && wanted != v.instance().protectedFromScaleIn()) {
                protection.put(v.instance().instanceId(), wanted);
            }
        }
        if (group.isContainerGroup()) {
            return containers(group, scaling, instances, interruptionsByType, threshold, retiring(living, List.of()),
                    ended, protection);
        }
        boolean balancing = group.balancingStrategy() != BalancingStrategy.ON_DEMAND_ONLY
                && !group.isSuspended(GameServerGroupAction.REPLACE_INSTANCE_TYPES);
        if (!balancing) {
            return new BalancePlan(Set.of(), change(unbalanced(group, scaling), scaling), List.of(), Set.of(),
                    retiring(living, List.of()), Optional.empty(), ended, protection);
        }

        Set<String> nonViable = nonViableTypes(group.instanceDefinitions().stream().map(InstanceDefinition::instanceType)
                .toList(), instances, interruptionsByType, threshold);
        List<InstanceDefinition> viable = group.instanceDefinitions().stream()
                .filter(d -> !nonViable.contains(d.instanceType())).toList();
        boolean replacements = !viable.isEmpty() || group.balancingStrategy() == BalancingStrategy.SPOT_PREFERRED;
        InstanceTypeChange target = viable.isEmpty()
                ? new InstanceTypeChange(group.instanceDefinitions(),
                        replacements ? BalancingStrategy.ON_DEMAND_ONLY : group.balancingStrategy())
                : new InstanceTypeChange(viable, group.balancingStrategy());
        Optional<InstanceTypeChange> typeChange = replacements ? change(target, scaling) : Optional.empty();

        // While SPOT_PREFERRED runs On-Demand, instances are not drained: they are the On-Demand
        // replacements (the Spot ones were drained when the fallback began).
        boolean drainNew = !(scaling.onDemandOnly() && group.balancingStrategy() == BalancingStrategy.SPOT_PREFERRED);
        List<String> drain = new ArrayList<>();
        int draining = 0;
        int inServiceActive = 0;
        int interruptedReplaced = 0;
        List<InstanceView> idleDraining = new ArrayList<>();
        for (InstanceView v : living) {
            InstanceStatus status = v.status();
            boolean forSpot = nonViable.contains(v.instance().instanceType());
            if (drainNew && status == InstanceStatus.ACTIVE && forSpot) {
                drain.add(v.instance().instanceId());
                status = InstanceStatus.DRAINING;
            } else if (status == InstanceStatus.ACTIVE && v.retiring()) {
                status = InstanceStatus.DRAINING; // retired below: it lives to its end
            }
            if (status == InstanceStatus.DRAINING) {
                draining++;
                // One draining for its lifetime alone waits for its end, idle or not.
                if (!v.hasGames() && (!v.retiring() || forSpot || v.replacementRequested())) {
                    idleDraining.add(v);
                }
            } else if (status == InstanceStatus.ACTIVE && v.instance().inService()) {
                inServiceActive++;
            } else if (status == InstanceStatus.SPOT_TERMINATING && v.replacementRequested()) {
                interruptedReplaced++;
            }
        }
        Set<String> replaced = new LinkedHashSet<>();
        int desired = scaling.desiredCapacity();
        for (String id : drain) {
            if (replacements && desired < scaling.maxSize()) {
                desired++;
                replaced.add(id);
            }
        }
        // Idle draining instances end once the ACTIVE instances the desired capacity stands for are
        // in service (not the interrupted ones it was raised for). Those whose replacement was
        // requested take desired capacity down with them; the others (MaxSize reached) are
        // replaced by the scaling group, one a run.
        int expectedActive = desired - draining - interruptedReplaced;
        List<Termination> terminate = new ArrayList<>();
        if (!replacements) {
            // Nothing new may launch: desired capacity shrinks with each, down to MinSize.
            int remaining = desired;
            for (InstanceView v : idleDraining) {
                boolean decrement = remaining > scaling.minSize();
                terminate.add(new Termination(v.instance().instanceId(), decrement));
                remaining -= decrement ? 1 : 0;
            }
        } else if (expectedActive > 0 && inServiceActive >= expectedActive) {
            boolean unreplacedEnded = false;
            for (InstanceView v : idleDraining) {
                if (v.replacementRequested()) {
                    terminate.add(new Termination(v.instance().instanceId(), true));
                } else if (!drain.contains(v.instance().instanceId()) && !unreplacedEnded) {
                    terminate.add(new Termination(v.instance().instanceId(), false));
                    unreplacedEnded = true;
                }
            }
        }
        terminate.addAll(ended);
        Optional<Integer> desiredChange = desired != scaling.desiredCapacity() ? Optional.of(desired) : Optional.empty();
        return new BalancePlan(nonViable, typeChange, drain, replaced, retiring(living, drain), desiredChange, terminate,
                protection);
    }

    /**
     * A container group's plan: Fargate Spot judged as an instance type is, its tasks the instances
     * of that type. Under SPOT_PREFERRED, while it is not viable, the service's strategy is Fargate
     * alone (its base kept by the adapter) and the group's own strategy returns once it is viable;
     * under SPOT_ONLY nothing can take its place, so the strategy stays and ECS goes on replacing
     * interrupted tasks on Fargate Spot. Nothing is drained and desired capacity stays: a new
     * strategy is a new deployment of the service, in which ECS starts tasks on the new strategy
     * before it stops old ones (within the service's maximum percent) and stops none protected
     * from scale-in (task protection holds against deployments as against scale-in) until its
     * protection is lifted. Each task it stops is out of claims from then on
     * ({@link InstanceEvents#stopping}), counted as no interruption.
     */
    private static BalancePlan containers(GameServerGroup group, ScalingGroupState scaling, List<InstanceView> instances,
            Map<String, Long> interruptionsByType, double threshold, List<String> retiring, List<Termination> ended,
            Map<String, Boolean> protection) {
        ContainerCompute compute = group.containers();
        BalancingStrategy balancing = group.balancingStrategy();
        if (compute.capacity() != ContainerCompute.ContainerCapacity.FARGATE_SPOT
                || balancing == BalancingStrategy.ON_DEMAND_ONLY
                || group.isSuspended(GameServerGroupAction.REPLACE_INSTANCE_TYPES)) {
            return new BalancePlan(Set.of(), Optional.empty(), List.of(), Set.of(), retiring, Optional.empty(), ended,
                    protection);
        }
        Set<String> nonViable = nonViableTypes(List.of(ContainerCompute.FARGATE_SPOT), instances, interruptionsByType,
                threshold);
        Optional<InstanceTypeChange> typeChange = Optional.empty();
        if (balancing == BalancingStrategy.SPOT_PREFERRED) {
            BalancingStrategy purchase = nonViable.isEmpty() ? balancing : BalancingStrategy.ON_DEMAND_ONLY;
            typeChange = change(new InstanceTypeChange(compute.capacityProviders(purchase), purchase), scaling);
        }
        return new BalancePlan(nonViable, typeChange, List.of(), Set.of(), retiring, Optional.empty(), ended, protection);
    }

    /** The ACTIVE instances that are retiring and that the Spot rule does not drain this run. */
    private static List<String> retiring(List<InstanceView> living, List<String> drained) {
        return living.stream().filter(v -> v.retiring() && v.status() == InstanceStatus.ACTIVE)
                .map(v -> v.instance().instanceId()).filter(id -> !drained.contains(id)).toList();
    }

    /**
     * The instance types of a group that is not balanced, so that an update of its definitions
     * still reaches the scaling group. ON_DEMAND_ONLY: every type, On-Demand. REPLACE_INSTANCE_TYPES
     * suspended: the types stay as balancing left them, so a type it took out stays out and a type
     * an update adds waits for the resume; weights and removals follow the definitions at once.
     */
    private static InstanceTypeChange unbalanced(GameServerGroup group, ScalingGroupState scaling) {
        if (group.balancingStrategy() == BalancingStrategy.ON_DEMAND_ONLY) {
            return new InstanceTypeChange(group.instanceDefinitions(), BalancingStrategy.ON_DEMAND_ONLY);
        }
        Set<String> current = new LinkedHashSet<>();
        scaling.instanceTypes().forEach(d -> current.add(d.instanceType()));
        List<InstanceDefinition> kept = group.instanceDefinitions().stream()
                .filter(d -> current.contains(d.instanceType())).toList();
        return new InstanceTypeChange(kept.isEmpty() ? group.instanceDefinitions() : kept,
                scaling.onDemandOnly() ? BalancingStrategy.ON_DEMAND_ONLY : group.balancingStrategy());
    }

    /** The target, if the scaling group's types, weights or purchase option differ from it. */
    private static Optional<InstanceTypeChange> change(InstanceTypeChange target, ScalingGroupState scaling) {
        boolean changed = !weights(target.definitions()).equals(weights(scaling.instanceTypes()))
                || (target.purchase() == BalancingStrategy.ON_DEMAND_ONLY) != scaling.onDemandOnly();
        return changed ? Optional.of(target) : Optional.empty();
    }

    private static Map<String, Integer> weights(List<InstanceDefinition> definitions) {
        Map<String, Integer> weights = new LinkedHashMap<>();
        definitions.forEach(d -> weights.put(d.instanceType(), d.weight()));
        return weights;
    }

    /** Of these types, those whose interruption rate in the window is above the threshold. */
    private static Set<String> nonViableTypes(List<String> types, List<InstanceView> instances,
            Map<String, Long> interruptionsByType, double threshold) {
        Set<String> nonViable = new LinkedHashSet<>();
        for (String type : types) {
            long interrupted = interruptionsByType.getOrDefault(type, 0L);
            if (interrupted == 0) {
                continue;
            }
            long running = instances.stream()
                    .filter(v -> v.status() != InstanceStatus.SPOT_TERMINATING)
                    .filter(v -> type.equals(v.instance().instanceType()))
                    .count();
            if ((double) interrupted / (running + interrupted) > threshold) {
                nonViable.add(type);
            }
        }
        return nonViable;
    }
}

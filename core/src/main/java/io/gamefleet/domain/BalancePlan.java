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
 * <li>None of that runs for ON_DEMAND_ONLY groups or while REPLACE_INSTANCE_TYPES is suspended
 *     (their scaling group still follows updates of the definitions: see {@link #unbalanced});
 *     instance protection (FULL_PROTECTION: protected while it has a UTILIZED or claimed game
 *     server), the health sweep and metrics always run.</li>
 * </ul>
 */
public record BalancePlan(
        Set<String> nonViableTypes,
        Optional<InstanceTypeChange> instanceTypes,
        List<String> drain,
        Set<String> replaced,
        Optional<Integer> desiredCapacity,
        List<Termination> terminate,
        Map<String, Boolean> protection) {

    /**
     * A draining instance to end. Desired capacity shrinks with it only if it grew for its
     * replacement; otherwise (MaxSize reached) the scaling group replaces it, one a run.
     */
    public record Termination(String instanceId, boolean decrementDesiredCapacity) {}

    /** The scaling group's new instance types and the purchase option they are bought with. */
    public record InstanceTypeChange(List<InstanceDefinition> definitions, BalancingStrategy purchase) {}

    /**
     * Per instance: its recorded status, whether a game is on it (UTILIZED or live claim), and
     * whether desired capacity grew for its replacement when it started draining.
     */
    public record InstanceView(ComputeInstance instance, InstanceStatus status, boolean hasGames,
            boolean replacementRequested) {}

    public static BalancePlan decide(GameServerGroup group, ScalingGroupState scaling, List<InstanceView> instances,
            Map<String, Long> interruptionsByType, double threshold) {
        Map<String, Boolean> protection = new LinkedHashMap<>();
        for (InstanceView v : instances) {
            boolean wanted = group.protectionPolicy() == GameServerProtectionPolicy.FULL_PROTECTION && v.hasGames();
            if (v.status() != InstanceStatus.SPOT_TERMINATING && wanted != v.instance().protectedFromScaleIn()) {
                protection.put(v.instance().instanceId(), wanted);
            }
        }
        boolean balancing = group.balancingStrategy() != BalancingStrategy.ON_DEMAND_ONLY
                && !group.isSuspended(GameServerGroupAction.REPLACE_INSTANCE_TYPES);
        if (!balancing) {
            return new BalancePlan(Set.of(), change(unbalanced(group, scaling), scaling), List.of(), Set.of(),
                    Optional.empty(), List.of(), protection);
        }

        Set<String> nonViable = nonViableTypes(group, instances, interruptionsByType, threshold);
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
        for (InstanceView v : instances) {
            InstanceStatus status = v.status();
            if (drainNew && status == InstanceStatus.ACTIVE && nonViable.contains(v.instance().instanceType())) {
                drain.add(v.instance().instanceId());
                status = InstanceStatus.DRAINING;
            }
            if (status == InstanceStatus.DRAINING) {
                draining++;
                if (!v.hasGames()) {
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
        Optional<Integer> desiredChange = desired != scaling.desiredCapacity() ? Optional.of(desired) : Optional.empty();
        return new BalancePlan(nonViable, typeChange, drain, replaced, desiredChange, terminate, protection);
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

    static Set<String> nonViableTypes(GameServerGroup group, List<InstanceView> instances,
            Map<String, Long> interruptionsByType, double threshold) {
        Set<String> nonViable = new LinkedHashSet<>();
        for (InstanceDefinition d : group.instanceDefinitions()) {
            long interrupted = interruptionsByType.getOrDefault(d.instanceType(), 0L);
            if (interrupted == 0) {
                continue;
            }
            long running = instances.stream()
                    .filter(v -> v.status() != InstanceStatus.SPOT_TERMINATING)
                    .filter(v -> v.instance().instanceType().equals(d.instanceType()))
                    .count();
            if ((double) interrupted / (running + interrupted) > threshold) {
                nonViable.add(d.instanceType());
            }
        }
        return nonViable;
    }
}

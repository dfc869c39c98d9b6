package io.gamefleet.domain;

import io.gamefleet.domain.StandbyState.Evaluation;
import io.gamefleet.domain.StandbyState.HeldTier;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What one standby evaluation decides for one group, from what it observed: a pure function, so
 * the buffer's rules are tested without DynamoDB or Auto Scaling.
 *
 * <ul>
 * <li>The target is the buffer that applies now ({@link StandbyPolicy#bufferAt}), multiplied by
 *     the deepest dynamic tier whose threshold the StandingBy servers are below, or by a tier
 *     that applied within its ramp-down (whichever multiplies more).</li>
 * <li>Desired capacity = the instances that take no claim (draining, interrupted, retiring) +
 *     ceil((servers in use on the others + target) ÷ servers per instance), within MinSize and
 *     MaxSize. Servers per instance are measured: the most registered on one instance of the group.
 *     Before any server registered, one instance is asked for (to measure) and none is ended.</li>
 * <li>Capacity grows at once. It shrinks only once the group has had more than it needs for the
 *     scale-in cooldown, and then only by ending instances that hold no claimed or utilized
 *     server, newest first; the cooldown then starts again, so each step down waits for one (while
 *     too few are idle, the rest are ended as they become idle).</li>
 * </ul>
 */
public record StandbyPlan(Optional<Integer> raiseTo, List<String> scaleIn, StandbyState next) {

    /**
     * A group as the evaluation saw it: servers in use (claimed or UTILIZED) in all and on the
     * instances that take claims, StandingBy servers, servers per instance (0: none registered), the
     * instances counted in desired capacity that take no claim, the scaling group's sizes, and its
     * in-service claimable instances that hold no game, in the order they would be ended.
     */
    public record View(Instant now, long inUse, long inUseOnClaimable, long standingBy, int serversPerInstance,
            int unclaimableInstances, int desiredCapacity, int minSize, int maxSize, List<String> idleInstances) {
        public View {
            idleInstances = List.copyOf(idleInstances);
        }
    }

    public static StandbyPlan decide(StandbyPolicy policy, StandbyState state, View v) {
        Instant now = v.now();
        long base = policy.bufferAt(now).servers(v.inUse());
        Optional<HeldTier> held = state.heldTier().filter(h -> h.until().isAfter(now));
        Optional<StandbyPolicy.DynamicTier> tier = policy.tierFor(v.standingBy(), base);
        double multiplier = Math.max(tier.map(StandbyPolicy.DynamicTier::multiplier).orElse(1.0),
                held.map(HeldTier::multiplier).orElse(1.0));
        Optional<HeldTier> nextHeld = tier.isPresent()
                ? Optional.of(new HeldTier(multiplier, now.plus(policy.rampDown()))) : held;
        long target = (long) Math.ceil(base * multiplier);

        int needed;
        if (v.serversPerInstance() == 0) {
            needed = Math.max(v.desiredCapacity(), v.unclaimableInstances() + (target > 0 || v.inUse() > 0 ? 1 : 0));
        } else {
            long servers = v.inUseOnClaimable() + target;
            long instances = (servers + v.serversPerInstance() - 1) / v.serversPerInstance();
            needed = (int) Math.min(Integer.MAX_VALUE, v.unclaimableInstances() + instances);
        }
        int wanted = Math.max(v.minSize(), Math.min(v.maxSize(), needed));

        Optional<Integer> raiseTo = Optional.empty();
        List<String> scaleIn = List.of();
        Optional<Instant> surplusSince = Optional.empty();
        int desired = v.desiredCapacity();
        if (wanted > v.desiredCapacity()) {
            raiseTo = Optional.of(wanted);
            desired = wanted;
        } else if (wanted < v.desiredCapacity() && v.serversPerInstance() > 0) {
            Instant since = state.surplusSince().orElse(now);
            if (now.isBefore(since.plus(policy.scaleInCooldown()))) {
                surplusSince = Optional.of(since);
            } else {
                int surplus = v.desiredCapacity() - wanted;
                scaleIn = v.idleInstances().stream().limit(surplus).toList();
                desired -= scaleIn.size();
                // Instances with games are waited for, the cooldown already served.
                surplusSince = scaleIn.size() < surplus ? Optional.of(since) : Optional.empty();
            }
        }
        Evaluation evaluation = new Evaluation(now, target, v.standingBy(), v.inUse(), v.serversPerInstance(), desired,
                multiplier);
        return new StandbyPlan(raiseTo, scaleIn, new StandbyState(surplusSince, nextHeld, Optional.of(evaluation),
                state.targetTrackingScaleInOff()));
    }
}

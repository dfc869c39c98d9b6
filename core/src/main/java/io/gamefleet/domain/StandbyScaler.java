package io.gamefleet.domain;

import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.Compute.ScalingGroupState;
import io.gamefleet.domain.StandbyRepository.Standby;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * A group's standby buffer kept, at each balancer run ({@link StandbyPlan} decides): desired
 * capacity raised, idle instances ended; between runs, as claims and deregistrations ask
 * ({@link #raise}), raised only. While a buffer is on, FleetIQ's target tracking policy
 * (if the group has one) may still add instances but no longer removes any: its scale-in is turned
 * off, so that the two never undo each other, and back on when the buffer is.
 */
public final class StandbyScaler {
    /**
     * How long after an evaluation of a group (a run's or a request's) a request's is not made:
     * the requests of every container of a busy group list its servers once in this time at most.
     */
    public static final Duration REQUESTED_EVALUATION_INTERVAL = Duration.ofSeconds(5);

    private final StandbyRepository standby;
    private final Compute compute;
    private final ServiceSettings settings;
    private final Consumer<String> log;

    public StandbyScaler(StandbyRepository standby, Compute compute, ServiceSettings settings, Consumer<String> log) {
        this.standby = standby;
        this.compute = compute;
        this.settings = settings;
        this.log = log;
    }

    /**
     * What a run did: the instances it ended, and whether the buffer holds the group's target
     * tracking's scale-in off (on, and the group has an {@code AutoScalingPolicy}), which a
     * container group's tracking, done by the balancer ({@link ContainerTargetTracking}), heeds.
     */
    public record Kept(List<String> ended, boolean trackingScaleInOff) {
        static final Kept NOTHING = new Kept(List.of(), false);
    }

    /**
     * Evaluates the group's buffer, if it has one, on the run's view of its servers and instances
     * and the scaling group as it is now; {@code end} ends an idle instance (false when a claim
     * came meanwhile).
     */
    public Kept run(GameServerGroup group, List<GameServer> all, Map<String, GameServerInstance> recorded,
            Instant now, Predicate<String> end) {
        Optional<Standby> found = policyOf(group);
        if (found.isEmpty()) {
            return Kept.NOTHING;
        }
        Standby s = found.get();
        boolean active = s.policy().active();
        boolean trackingOff = holdsTrackingScaleInOff(group, s);
        if (group.autoScalingPolicy() != null && trackingOff != s.state().targetTrackingScaleInOff()) {
            compute.setTargetTrackingScaleIn(group, !trackingOff);
            log.accept("balancer: group " + group.name() + "'s target tracking " + (trackingOff
                    ? "no longer scales in: its standby buffer does" : "scales in again: its standby buffer is off"));
        }
        if (!active) {
            if (s.state().targetTrackingScaleInOff()) {
                standby.saveState(group.name(), s.revision(), StandbyState.initial());
            }
            return new Kept(List.of(), trackingOff);
        }
        Optional<StandbyPlan> plan = plan(group, s, all, recorded, now);
        if (plan.isEmpty()) {
            return new Kept(List.of(), trackingOff);
        }
        List<String> ended = plan.get().scaleIn().stream().filter(end).toList();
        if (!ended.isEmpty()) {
            log.accept("balancer: group " + group.name() + " ended idle instances " + ended + ": its standby buffer of "
                    + plan.get().next().lastEvaluation().orElseThrow().target() + " servers needs fewer");
        }
        // Written at every run: its evaluation (what the console and DescribeStandbyPolicy show) is new each time.
        standby.saveState(group.name(), s.revision(), plan.get().next().withTargetTrackingScaleInOff(trackingOff));
        return new Kept(ended, trackingOff);
    }

    /**
     * An evaluation a claim or a deregistration asked for ({@link StandbyEvaluations}), between the
     * balancer's runs: it only raises desired capacity, and writes its evaluation alone (no instance
     * ends but at a run, whose state, cooldown included, stays the runs' alone). None within
     * {@link #REQUESTED_EVALUATION_INTERVAL} of the last evaluation; {@code all} and {@code recorded}
     * are read only for a group whose buffer is on. The desired capacity it set.
     */
    public Optional<Integer> raise(GameServerGroup group, Supplier<List<GameServer>> all,
            Supplier<Map<String, GameServerInstance>> recorded, Instant now) {
        Optional<Standby> found = policyOf(group).filter(s -> s.policy().active())
                .filter(s -> s.state().lastEvaluation().map(e -> !now.isBefore(e.at().plus(REQUESTED_EVALUATION_INTERVAL))
                        || now.isBefore(e.at())).orElse(true));
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Optional<StandbyPlan> plan = plan(group, found.get(), all.get(), recorded.get(), now);
        plan.flatMap(p -> p.next().lastEvaluation())
                .ifPresent(e -> standby.saveEvaluation(group.name(), found.get().revision(), e));
        return plan.flatMap(StandbyPlan::raiseTo);
    }

    private static boolean holdsTrackingScaleInOff(GameServerGroup group, Standby s) {
        return s.policy().active() && group.autoScalingPolicy() != null;
    }

    /** The group's own policy: one put for an earlier group of its name is not its. */
    private Optional<Standby> policyOf(GameServerGroup group) {
        return standby.find(group.name()).filter(s -> s.groupCreationTime().equals(group.creationTime()));
    }

    /** The plan on the scaling group as it is now, its raise made; empty when the scaling group is gone. */
    private Optional<StandbyPlan> plan(GameServerGroup group, Standby s, List<GameServer> all,
            Map<String, GameServerInstance> recorded, Instant now) {
        Optional<ScalingGroupState> scaling = compute.describeScalingGroup(group.autoScalingGroupName());
        if (scaling.isEmpty()) {
            return Optional.empty();
        }
        StandbyPlan plan = StandbyPlan.decide(s.policy(), s.state(), view(all, recorded, scaling.get(), now));
        plan.raiseTo().ifPresent(d -> {
            compute.setDesiredCapacity(group.autoScalingGroupName(), d);
            log.accept("standby: group " + group.name() + " raised to " + d + " instances for its buffer of "
                    + plan.next().lastEvaluation().orElseThrow().target() + " servers");
        });
        return Optional.of(plan);
    }

    /** What {@link StandbyPlan} needs, from the run's view. */
    StandbyPlan.View view(List<GameServer> all, Map<String, GameServerInstance> recorded, ScalingGroupState scaling,
            Instant now) {
        Instant cutoff = now.minus(settings.healthTimeout());
        Predicate<String> claimable = id -> {
            GameServerInstance i = recorded.get(id);
            // An instance not recorded yet is one just launched: it will take claims.
            return i == null || i.instanceStatus() == InstanceStatus.ACTIVE
                    && !settings.lifetime().retiring(i.launchTime(), now);
        };
        long inUse = 0;
        long inUseOnClaimable = 0;
        long standingBy = 0;
        for (GameServer s : all) {
            boolean game = s.utilizationStatus() == UtilizationStatus.UTILIZED || s.isClaimedAt(now);
            boolean onClaimable = claimable.test(s.instanceId());
            if (game) {
                inUse++;
                inUseOnClaimable += onClaimable ? 1 : 0;
            } else if (onClaimable && s.isHealthyAt(now, cutoff)) {
                standingBy++;
            }
        }
        Map<String, Long> perInstance = all.stream().collect(Collectors.groupingBy(GameServer::instanceId,
                Collectors.counting()));
        int serversPerInstance = (int) perInstance.values().stream().mapToLong(Long::longValue).max().orElse(0);
        Set<String> withGames = all.stream()
                .filter(s -> s.utilizationStatus() == UtilizationStatus.UTILIZED || s.isClaimedAt(now))
                .map(GameServer::instanceId).collect(Collectors.toSet());
        int unclaimable = (int) scaling.instances().stream().filter(c -> !claimable.test(c.instanceId())).count();
        List<String> idle = scaling.instances().stream()
                .filter(c -> c.inService() && claimable.test(c.instanceId()) && !withGames.contains(c.instanceId()))
                .sorted(Comparator.comparing((ComputeInstance c) -> launchTime(recorded, c)).reversed())
                .map(ComputeInstance::instanceId).toList();
        return new StandbyPlan.View(now, inUse, inUseOnClaimable, standingBy, serversPerInstance, unclaimable,
                scaling.desiredCapacity(), scaling.minSize(), scaling.maxSize(), idle);
    }

    private static Instant launchTime(Map<String, GameServerInstance> recorded, ComputeInstance c) {
        GameServerInstance i = recorded.get(c.instanceId());
        return i == null || i.launchTime() == null ? Instant.MAX : i.launchTime();
    }
}

package io.gamefleet.domain;

import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.Compute.ScalingGroupState;
import io.gamefleet.domain.StandbyRepository.Standby;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A group's standby buffer kept, at each balancer run ({@link StandbyPlan} decides): desired
 * capacity raised, idle instances ended. While a buffer is on, FleetIQ's target tracking policy
 * (if the group has one) may still add instances but no longer removes any: its scale-in is turned
 * off, so that the two never undo each other, and back on when the buffer is.
 */
public final class StandbyScaler {
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
     * Evaluates the group's buffer, if it has one, on the run's view of its servers and instances
     * and the scaling group as it is now; {@code end} ends an idle instance (false when a claim
     * came meanwhile). The instances it ended.
     */
    public List<String> run(GameServerGroup group, List<GameServer> all, Map<String, GameServerInstance> recorded,
            Instant now, Predicate<String> end) {
        Optional<Standby> found = standby.find(group.name())
                .filter(s -> s.groupCreationTime().equals(group.creationTime()));
        if (found.isEmpty()) {
            return List.of();
        }
        Standby s = found.get();
        boolean active = s.policy().active();
        boolean trackingOff = active && group.autoScalingPolicy() != null;
        if (group.autoScalingPolicy() != null && trackingOff != s.state().targetTrackingScaleInOff()) {
            compute.setTargetTrackingScaleIn(group, !trackingOff);
            log.accept("balancer: group " + group.name() + "'s target tracking " + (trackingOff
                    ? "no longer scales in: its standby buffer does" : "scales in again: its standby buffer is off"));
        }
        if (!active) {
            if (s.state().targetTrackingScaleInOff()) {
                standby.saveState(group.name(), s.revision(), StandbyState.initial());
            }
            return List.of();
        }
        Optional<ScalingGroupState> scaling = compute.describeScalingGroup(group.autoScalingGroupName());
        if (scaling.isEmpty()) {
            return List.of();
        }
        StandbyPlan plan = StandbyPlan.decide(s.policy(), s.state(), view(all, recorded, scaling.get(), now));
        plan.raiseTo().ifPresent(d -> {
            compute.setDesiredCapacity(group.autoScalingGroupName(), d);
            log.accept("balancer: group " + group.name() + " raised to " + d + " instances for its standby buffer of "
                    + plan.next().lastEvaluation().orElseThrow().target() + " servers");
        });
        List<String> ended = plan.scaleIn().stream().filter(end).toList();
        if (!ended.isEmpty()) {
            log.accept("balancer: group " + group.name() + " ended idle instances " + ended + ": its standby buffer of "
                    + plan.next().lastEvaluation().orElseThrow().target() + " servers needs fewer");
        }
        StandbyState next = plan.next().withTargetTrackingScaleInOff(trackingOff);
        if (!next.equals(s.state())) {
            standby.saveState(group.name(), s.revision(), next);
        }
        return ended;
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

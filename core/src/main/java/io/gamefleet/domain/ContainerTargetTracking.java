package io.gamefleet.domain;

import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.Compute.ScalingGroupState;
import io.gamefleet.domain.Metrics.GameServerCounts;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * FleetIQ's target tracking ({@link AutoScalingPolicy}) for a container group, decided at each
 * balancer run: a pure function, so the rule is tested without ECS.
 *
 * <p>Why the balancer and not Application Auto Scaling: an EC2 group's policy is an EC2 Auto
 * Scaling target tracking policy on the PercentUtilizedGameServers metric the balancer publishes.
 * An ECS service's would need a second AWS service (Application Auto Scaling, its scalable target
 * and its CloudWatch alarms), its IAM, and a second simulation on the local profile, all to act on
 * counts the balancer has already read. So the balancer applies target tracking's rule itself,
 * every balancer period, on the same counts it publishes.
 *
 * <ul>
 * <li>Wanted tasks = ceil(counted tasks × PercentUtilizedGameServers ÷ TargetValue), within MinSize
 *     and MaxSize and never below the tasks holding a game (a claimed or UTILIZED server).
 *     PercentUtilizedGameServers is the metric's own ({@link GameServerCounts#percentUtilized}).
 *     A TargetValue of 0 (FleetIQ allows it) wants MaxSize while any server is utilized, and no
 *     change while none is.</li>
 * <li>Counted tasks are in service, not interrupted and recorded, and either hold a registered game
 *     server or were launched at least EstimatedInstanceWarmup ago (if the policy has one): a task
 *     still starting has no server in the metric, so counting it would ask for more tasks again
 *     for the same load (FleetIQ's warm-up is the time a new instance takes to register its game
 *     servers).</li>
 * <li>Scale-out is at once: desired count raised to the wanted tasks.</li>
 * <li>Scale-in lowers it by ending idle tasks (in service, ACTIVE, no game), newest first, as
 *     the standby buffer does, never by a lower desired count: ECS would choose the tasks it
 *     stops, and could choose one whose server was claimed after this run read it. None while the group's
 *     standby buffer holds target tracking's scale-in off ({@link StandbyScaler}).</li>
 * </ul>
 *
 * {@code wanted}: the tasks the rule wants; {@code raiseTo}: the desired count to set;
 * {@code scaleIn}: the idle tasks to end, each with its decrement.
 */
public record ContainerTargetTracking(int wanted, Optional<Integer> raiseTo, List<String> scaleIn) {

    /** A whole number computed in floating point a hair above it (2.0000000000000004) is that number. */
    private static final double ROUNDING = 1e-9;

    /**
     * A container group as the run saw it: its service's desired count and sizes, its counted
     * tasks, the tasks holding a game, the group's counts, whether its standby buffer holds
     * scale-in off, and its idle tasks in the order they would be ended.
     */
    public record View(int desiredCount, int minSize, int maxSize, int countedTasks, int tasksWithGames,
            GameServerCounts counts, boolean scaleInHeldOff, List<String> idleTasks) {
        public View {
            idleTasks = List.copyOf(idleTasks);
        }
    }

    public static ContainerTargetTracking decide(AutoScalingPolicy policy, View v) {
        int needed = needed(policy.targetValue(), v);
        int wanted = Math.max(v.minSize(), Math.min(v.maxSize(), Math.max(needed, v.tasksWithGames())));
        if (wanted > v.desiredCount()) {
            return new ContainerTargetTracking(wanted, Optional.of(wanted), List.of());
        }
        if (wanted < v.desiredCount() && !v.scaleInHeldOff()) {
            return new ContainerTargetTracking(wanted, Optional.empty(),
                    v.idleTasks().stream().limit(v.desiredCount() - wanted).toList());
        }
        return new ContainerTargetTracking(wanted, Optional.empty(), List.of());
    }

    /** Target tracking's capacity for the metric to reach its target, before the sizes. */
    private static int needed(double target, View v) {
        double percent = v.counts().percentUtilized();
        if (target <= 0) {
            return percent > 0 ? v.maxSize() : v.desiredCount();
        }
        double tasks = v.countedTasks() * percent / target;
        return tasks >= v.maxSize() ? v.maxSize() : (int) Math.ceil(tasks - ROUNDING);
    }

    /**
     * The view of a run: {@code service} as described after the run's other changes, the tasks
     * it recorded (the ones it made DRAINING for their lifetime among them) and their servers.
     */
    public static View view(AutoScalingPolicy policy, ScalingGroupState service, Map<String, GameServerInstance> recorded,
            List<GameServer> all, GameServerCounts counts, boolean scaleInHeldOff, Instant now) {
        Optional<Instant> warmedBy = Optional.ofNullable(policy.estimatedInstanceWarmup()).map(now::minusSeconds);
        Set<String> registered = all.stream().map(GameServer::instanceId).collect(Collectors.toSet());
        Set<String> withGames = all.stream().filter(s -> s.utilizationStatus() == UtilizationStatus.UTILIZED
                || s.isClaimedAt(now)).map(GameServer::instanceId).collect(Collectors.toSet());
        int counted = 0;
        int holdingGames = 0;
        for (ComputeInstance task : service.instances()) {
            GameServerInstance i = recorded.get(task.instanceId());
            if (i != null && i.instanceStatus() == InstanceStatus.SPOT_TERMINATING) {
                continue;
            }
            holdingGames += withGames.contains(task.instanceId()) ? 1 : 0;
            boolean warmedUp = registered.contains(task.instanceId())
                    || warmedBy.filter(by -> i != null && !launchTime(i).isAfter(by)).isPresent();
            counted += task.inService() && i != null && warmedUp ? 1 : 0;
        }
        List<String> idle = service.instances().stream()
                .filter(t -> t.inService() && !withGames.contains(t.instanceId()))
                .filter(t -> recorded.containsKey(t.instanceId())
                        && recorded.get(t.instanceId()).instanceStatus() == InstanceStatus.ACTIVE)
                .sorted(Comparator.comparing((ComputeInstance t) -> launchTime(recorded.get(t.instanceId()))).reversed())
                .map(ComputeInstance::instanceId).toList();
        return new View(service.desiredCapacity(), service.minSize(), service.maxSize(), counted, holdingGames, counts,
                scaleInHeldOff, idle);
    }

    private static Instant launchTime(GameServerInstance i) {
        return i.launchTime() == null ? Instant.MIN : i.launchTime();
    }
}

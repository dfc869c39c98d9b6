package io.gamefleet.domain;

import io.gamefleet.domain.BalancePlan.InstanceView;
import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.Compute.ScalingGroupState;
import io.gamefleet.domain.InterruptionRepository.Interruption;
import io.gamefleet.domain.Metrics.GameServerCounts;
import io.gamefleet.domain.Metrics.ProcessCounts;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The scheduled balancer: for every ACTIVE group, one query of its game servers, one of its
 * instances, one of its recent interruptions and one describe of its scaling group; then a few
 * calls per instance that changes (see {@link BalancePlan} for the rules, Spot balancing and
 * lifetimes). Game servers are written only when their instance changes status or when they are
 * swept. Each retiring instance's agent is told so at every run ({@link InstanceNotices#retiring}).
 * A container group's AutoScalingPolicy is applied by the run itself ({@link ContainerTargetTracking}).
 */
public final class SpotBalancer {
    private final GroupRepository groups;
    private final GameServerRepository servers;
    private final InstanceRepository instances;
    private final InterruptionRepository interruptions;
    private final Compute compute;
    private final Replacements replacements;
    private final InstanceNotices notices;
    private final Metrics metrics;
    private final ServiceSettings settings;
    private final Duration viabilityWindow;
    private final double viabilityThreshold;
    private final Duration period;
    private final Clock clock;
    private final Consumer<String> log;
    private final StandbyScaler standby;
    private final GroupSummaryRepository summaries;

    /**
     * {@code period}: how often it runs, so that a retiring notice goes out at the last run before
     * the retirement begins; {@code notices}: what the retiring instances' agents are told;
     * {@code standby}: the groups' standby buffers, kept at each run ({@link StandbyScaler});
     * {@code summaries}: where each run leaves the group's counts ({@link GroupSummary}).
     */
    public SpotBalancer(GroupRepository groups, GameServerRepository servers, InstanceRepository instances,
            InterruptionRepository interruptions, Compute compute, Metrics metrics, ServiceSettings settings,
            Duration viabilityWindow, double viabilityThreshold, Duration period, Clock clock, Consumer<String> log,
            InstanceNotices notices, StandbyRepository standby, GroupSummaryRepository summaries) {
        this.standby = new StandbyScaler(standby, compute, settings, log);
        this.summaries = summaries;
        this.period = period;
        this.notices = notices;
        this.groups = groups;
        this.servers = servers;
        this.instances = instances;
        this.interruptions = interruptions;
        this.compute = compute;
        this.replacements = new Replacements(instances, compute);
        this.metrics = metrics;
        this.settings = settings;
        this.viabilityWindow = viabilityWindow;
        this.viabilityThreshold = viabilityThreshold;
        this.clock = clock;
        this.log = log;
    }

    /**
     * What a run did to one group, for logs and tests: {@code retired}, the instances it made
     * DRAINING for their lifetime; {@code terminated}, those it ended, drained ones and those at the
     * end of their lifetime.
     */
    public record GroupReport(String group, int swept, Set<String> nonViableTypes, List<String> drained,
            List<String> retired, List<String> terminated, Optional<Integer> desiredCapacity, GameServerCounts counts) {}

    /** Balances every ACTIVE group; a failure in one group is logged and the others still run. */
    public List<GroupReport> runAll() {
        List<GroupReport> reports = new java.util.ArrayList<>();
        Optional<String> cursor = Optional.empty();
        do {
            Page<GameServerGroup> page = groups.list(100, cursor);
            for (GameServerGroup g : page.items()) {
                if (g.status() == GameServerGroupStatus.ACTIVE) {
                    try {
                        reports.add(run(g));
                    } catch (RuntimeException e) {
                        log.accept("balancer: group " + g.name() + " failed this run: " + e);
                    }
                }
            }
            cursor = page.cursor();
        } while (cursor.isPresent());
        return reports;
    }

    /**
     * The evaluation of one group's standby buffer that a claim or a deregistration asked for
     * ({@link StandbyScaler#raise}): nothing for a group that is not ACTIVE or has no buffer on.
     * The desired capacity it set, if it raised it.
     */
    public Optional<Integer> keepStandby(String groupName) {
        Optional<GameServerGroup> group = groups.find(groupName).filter(g -> g.status() == GameServerGroupStatus.ACTIVE);
        if (group.isEmpty()) {
            return Optional.empty();
        }
        return standby.raise(group.get(), () -> servers.listAll(groupName),
                () -> instances.listAll(groupName).stream().collect(Collectors.toMap(GameServerInstance::instanceId,
                        i -> i)), clock.instant());
    }

    public GroupReport run(GameServerGroup group) {
        Instant now = clock.instant();
        String name = group.name();
        Optional<ScalingGroupState> found = compute.describeScalingGroup(group.autoScalingGroupName());
        if (found.isEmpty()) {
            log.accept("balancer: group " + name + " has no Auto Scaling group " + group.autoScalingGroupName());
            return new GroupReport(name, 0, Set.of(), List.of(), List.of(), List.of(), Optional.empty(),
                    new GameServerCounts(0, 0, 0, 0));
        }
        ScalingGroupState scaling = found.get();
        Map<String, GameServerInstance> recorded = instances.listAll(name).stream()
                .collect(Collectors.toMap(GameServerInstance::instanceId, i -> i));
        // A copy this run keeps up to date as it sweeps and forgets (the port's list may be unmodifiable).
        List<GameServer> all = new ArrayList<>(servers.listAll(name));

        // Instances: record new ones, forget those the scaling group no longer has.
        Set<String> live = new HashSet<>();
        List<ComputeInstance> added = new ArrayList<>();
        for (ComputeInstance c : scaling.instances()) {
            live.add(c.instanceId());
            if (!recorded.containsKey(c.instanceId())) {
                added.add(c);
            }
        }
        record(name, group.autoScalingGroupName(), added, recorded);
        for (GameServerInstance gone : List.copyOf(recorded.values())) {
            if (!live.contains(gone.instanceId())) {
                // An interrupted instance's replacement was started at its warning: undone here
                // unless its termination event did it, and planned on from the lowered capacity.
                scaling = replacements.end(gone, group.autoScalingGroupName(), scaling);
                forget(gone, all);
                recorded.remove(gone.instanceId());
            }
        }

        // Health sweep.
        Instant cutoff = now.minus(settings.healthTimeout());
        int swept = 0;
        for (GameServer s : List.copyOf(all)) {
            if (s.isSilentSince(cutoff) && servers.deleteIfUnhealthy(s.gameServerId(), cutoff)) {
                swept++;
                all.remove(s);
                String since = s.healthLeaseExpiresAt() != null ? "its agent's health lease ended at " + s.healthLeaseExpiresAt()
                        : "no heartbeat since " + s.lastHealthCheckTime();
                log.accept("balancer: deregistered game server " + s.gameServerId() + " of group " + name
                        + ": " + since + " (health timeout "
                        + settings.healthTimeout().toSeconds() + " s)");
            }
        }

        sweepClosedConnections(name, recorded.values(), all, now);

        // A server registered while its instance changed status carries the old one: repair it.
        Map<String, List<GameServer>> byInstance = all.stream().collect(Collectors.groupingBy(GameServer::instanceId));
        // The copies kept in byInstance follow each status written, so that a refused retire puts
        // servers back to the status they have, not the one read at the start.
        byInstance.replaceAll((instanceId, onIt) -> {
            GameServerInstance instance = recorded.get(instanceId);
            if (instance != null && instance.instanceStatus() != InstanceStatus.ACTIVE) {
                List<GameServer> stale = onIt.stream().filter(g -> g.instanceStatus() != instance.instanceStatus()).toList();
                if (!stale.isEmpty()) {
                    servers.setInstanceStatus(stale, instance.instanceStatus());
                    return withStatus(onIt, instance.instanceStatus());
                }
            }
            return onIt;
        });

        // Plan and act.
        InstanceLifetime lifetime = settings.lifetime();
        List<InstanceView> views = scaling.instances().stream().map(c -> {
            GameServerInstance i = recorded.get(c.instanceId());
            return new InstanceView(c, i.instanceStatus(),
                    byInstance.getOrDefault(c.instanceId(), List.of()).stream().anyMatch(s -> hasGame(s, now)),
                    i.replacementRequested(), lifetime.retiring(i.launchTime(), now), lifetime.ended(i.launchTime(), now));
        }).toList();
        Map<String, Long> interruptedByType = interruptions.since(name, now.minus(viabilityWindow)).stream()
                .collect(Collectors.groupingBy(Interruption::instanceType, Collectors.counting()));
        BalancePlan plan = BalancePlan.decide(group, scaling, views, interruptedByType, viabilityThreshold);

        plan.instanceTypes().ifPresent(change -> {
            compute.setInstanceTypes(group.autoScalingGroupName(), change.definitions(), change.purchase());
            log.accept("balancer: group " + name + " now launches " + change.definitions().stream()
                    .map(InstanceDefinition::instanceType).toList() + " (" + change.purchase() + "); not viable: "
                    + plan.nonViableTypes());
        });
        if (group.isContainerGroup() && group.balancingStrategy() == BalancingStrategy.SPOT_ONLY
                && !plan.nonViableTypes().isEmpty()) {
            log.accept("balancer: group " + name + ": " + plan.nonViableTypes() + " is not viable and, SPOT_ONLY, nothing"
                    + " replaces it: ECS goes on replacing its interrupted tasks on it");
        }
        List<String> drained = new java.util.ArrayList<>();
        for (String id : plan.drain()) {
            // Conditional: a Spot interruption that came first keeps the instance SPOT_TERMINATING.
            if (instances.changeStatus(name, id, InstanceStatus.ACTIVE, InstanceStatus.DRAINING,
                    plan.replaced().contains(id))) {
                recorded.put(id, recorded.get(id).withStatus(InstanceStatus.DRAINING));
                servers.setInstanceStatus(byInstance.getOrDefault(id, List.of()), InstanceStatus.DRAINING);
                byInstance.computeIfPresent(id, (i, onIt) -> withStatus(onIt, InstanceStatus.DRAINING));
                drained.add(id);
            }
        }
        List<String> retired = new ArrayList<>();
        for (String id : plan.retire()) {
            if (instances.changeStatus(name, id, InstanceStatus.ACTIVE, InstanceStatus.DRAINING, false)) {
                recorded.put(id, recorded.get(id).withStatus(InstanceStatus.DRAINING));
                servers.setInstanceStatus(byInstance.getOrDefault(id, List.of()), InstanceStatus.DRAINING);
                byInstance.computeIfPresent(id, (i, onIt) -> withStatus(onIt, InstanceStatus.DRAINING));
                retired.add(id);
                log.accept("balancer: instance " + id + " of group " + name + " is retiring: its maximum lifetime ends at "
                        + lifetime.end(recorded.get(id).launchTime()).orElseThrow() + "; it takes no claim until then");
            }
        }
        ScalingGroupState planned = scaling;
        Optional<Integer> desired = plan.desiredCapacity().map(d -> moveDesiredCapacity(group, d - planned.desiredCapacity(),
                planned));
        plan.protection().forEach((id, protect) -> compute.setInstanceProtection(group.autoScalingGroupName(), id, protect));
        List<String> terminated = new java.util.ArrayList<>();
        for (BalancePlan.Termination t : plan.terminate()) {
            // The servers read at the start must still be unclaimed: a claim since then keeps the instance.
            // At the end of its lifetime it goes whatever its games (its agent ended them before).
            if (!t.lifetimeEnded() && !servers.retire(byInstance.getOrDefault(t.instanceId(), List.of()))) {
                log.accept("balancer: draining instance " + t.instanceId() + " of group " + name
                        + " got a claim or a game during this run; it stays for now");
                continue;
            }
            compute.terminateInstance(group.autoScalingGroupName(), t.instanceId(), t.decrementDesiredCapacity());
            GameServerInstance ended = recorded.remove(t.instanceId());
            forget(ended, all);
            terminated.add(t.instanceId());
            log.accept(t.lifetimeEnded()
                    ? "balancer: ended instance " + t.instanceId() + " of group " + name + " at the end of its maximum"
                            + " lifetime (launched " + ended.launchTime() + ")"
                            + (t.decrementDesiredCapacity() ? "" : "; its scaling group launches its replacement")
                    : "balancer: terminated draining instance " + t.instanceId() + " of group " + name);
        }

        StandbyScaler.Kept kept = standby.run(group, all, recorded, now, id -> endIdle(group, id, byInstance, recorded, all));
        terminated.addAll(kept.ended());
        // After the protection above: a task that holds a game is protected before any count goes down.
        terminated.addAll(trackTarget(group, all, recorded, byInstance, now, kept.trackingScaleInOff()));

        tellRetiring(recorded.values(), now);
        GameServerCounts counts = count(all, recorded, now);
        ProcessCounts processes = processes(all);
        metrics.gameServers(name, counts);
        metrics.processes(name, processes);
        summaries.save(name, summary(all, recorded, counts, processes, now));
        return new GroupReport(name, swept, plan.nonViableTypes(), drained, retired, terminated, desired, counts);
    }

    /**
     * A container group's target tracking, which the balancer does itself ({@link ContainerTargetTracking}),
     * on its service as it is after the run's other changes: desired count raised, or idle tasks
     * ended. The tasks it ended.
     */
    private List<String> trackTarget(GameServerGroup group, List<GameServer> all, Map<String, GameServerInstance> recorded,
            Map<String, List<GameServer>> byInstance, Instant now, boolean scaleInHeldOff) {
        AutoScalingPolicy policy = group.autoScalingPolicy();
        if (!group.isContainerGroup() || policy == null) {
            return List.of();
        }
        Optional<ScalingGroupState> service = compute.describeScalingGroup(group.autoScalingGroupName());
        if (service.isEmpty()) {
            return List.of();
        }
        GameServerCounts counts = count(all, recorded, now);
        ContainerTargetTracking tracking = ContainerTargetTracking.decide(policy, ContainerTargetTracking.view(policy,
                service.get(), recorded, all, counts, scaleInHeldOff, now));
        String why = String.format(Locale.ROOT, "%.1f%% of its game servers utilized, target %s%%: %d tasks",
                counts.percentUtilized(), policy.targetValue(), tracking.wanted());
        tracking.raiseTo().ifPresent(d -> {
            compute.setDesiredCapacity(group.autoScalingGroupName(), d);
            log.accept("balancer: group " + group.name() + " raised to " + d + " tasks by target tracking (" + why + ")");
        });
        List<String> ended = tracking.scaleIn().stream().filter(id -> endIdle(group, id, byInstance, recorded, all))
                .toList();
        if (!ended.isEmpty()) {
            log.accept("balancer: group " + group.name() + " ended idle tasks " + ended + " by target tracking (" + why + ")");
        }
        return ended;
    }

    /**
     * Every retiring instance's agent, told at each run until its end ({@link InstanceNotices#retiring}),
     * from the last run before its retirement begins: told at most a period early, never late, its
     * game servers hear of the end at least the guaranteed lifetime before it. Once the channel
     * cannot be reached, the rest wait for the next run.
     */
    private void tellRetiring(Collection<GameServerInstance> recorded, Instant now) {
        InstanceLifetime lifetime = settings.lifetime();
        for (GameServerInstance i : recorded) {
            if (lifetime.retiring(i.launchTime(), now.plus(period)) && !lifetime.ended(i.launchTime(), now)
                    && !notices.retiring(i, lifetime.end(i.launchTime()).orElseThrow())) {
                return;
            }
        }
    }

    /**
     * Push connections API Gateway has certainly closed (it closes each within its lifetime),
     * whose {@code $disconnect} never came: cleared from the instance and its servers' copies, each
     * with a conditional UpdateItem, so that an agent's newer connection is never cleared.
     */
    private void sweepClosedConnections(String group, Collection<GameServerInstance> recorded, List<GameServer> all,
            Instant now) {
        for (GameServerInstance i : recorded) {
            String closed = i.pushConnectionId();
            if (!i.pushConnectionOutlived(now) || !instances.clearPushConnection(group, i.instanceId(), closed)) {
                continue;
            }
            all.stream().filter(s -> closed.equals(s.pushConnectionId()))
                    .forEach(s -> servers.clearPushConnection(s.gameServerId(), closed));
            log.accept("balancer: cleared push connection " + closed + " of instance " + i.instanceId() + " of group "
                    + group + ": made at " + i.pushConnectedAt() + ", so closed by API Gateway since");
        }
    }

    /**
     * Moves desired capacity by what the plan changed, from its value now rather than the one the
     * run read: a raise made meanwhile (a Spot warning's replacement) is kept. Within the group's
     * sizes; the value set.
     */
    private int moveDesiredCapacity(GameServerGroup group, int change, ScalingGroupState read) {
        ScalingGroupState now = compute.describeScalingGroup(group.autoScalingGroupName()).orElse(read);
        int target = Math.max(now.minSize(), Math.min(now.maxSize(), now.desiredCapacity() + change));
        if (target != now.desiredCapacity()) {
            compute.setDesiredCapacity(group.autoScalingGroupName(), target);
        }
        return target;
    }

    /**
     * Instances new to Gamefleet, recorded with EC2's launch time and their own addresses (one EC2
     * does not describe yet is recorded at a later run; if EC2 cannot be asked, none is this run).
     */
    private void record(String group, String scalingGroupName, List<ComputeInstance> added, Map<String, GameServerInstance> recorded) {
        if (added.isEmpty()) {
            return;
        }
        Map<String, Compute.LaunchedInstance> launched;
        try {
            launched = compute.launched(scalingGroupName, added.stream().map(ComputeInstance::instanceId).toList());
        } catch (Compute.ComputeException e) {
            log.accept("balancer: the new instances of group " + group + " are recorded at a later run: " + e.getMessage());
            return;
        }
        for (ComputeInstance c : added) {
            if (launched.containsKey(c.instanceId())) {
                GameServerInstance instance = GameServerInstance.active(group, c, launched.get(c.instanceId()));
                instances.addIfAbsent(instance);
                recorded.put(c.instanceId(), instance);
            }
        }
    }

    /**
     * Ends an idle instance for the standby buffer or a container group's target tracking, desired
     * capacity with it, if its servers read at the start are still unclaimed (taken out of claims at
     * once); false when a claim came meanwhile. It is forgotten before it is ended: ECS sends a
     * task's state change as soon as it is asked to stop, which, finding the task still recorded,
     * would be handled as a stopping instance's. Should the end fail, the next run records it again.
     */
    private boolean endIdle(GameServerGroup group, String instanceId, Map<String, List<GameServer>> byInstance,
            Map<String, GameServerInstance> recorded, List<GameServer> all) {
        if (!servers.retire(byInstance.getOrDefault(instanceId, List.of()))) {
            log.accept("balancer: idle instance " + instanceId + " of group " + group.name()
                    + " got a claim or a game during this run; it stays for now");
            return false;
        }
        GameServerInstance ended = recorded.remove(instanceId);
        if (ended != null) {
            forget(ended, all);
        }
        compute.terminateInstance(group.autoScalingGroupName(), instanceId, true);
        return true;
    }

    /** An instance that is gone: its game servers and its record go too, and what counted its servers. */
    private void forget(GameServerInstance instance, List<GameServer> all) {
        for (GameServer s : List.copyOf(all)) {
            if (s.instanceId().equals(instance.instanceId())) {
                servers.delete(s.gameServerId());
                all.remove(s);
            }
        }
        servers.forgetInstance(instance.instanceId());
        instances.delete(instance.gameServerGroupName(), instance.instanceId());
    }

    private static List<GameServer> withStatus(List<GameServer> onIt, InstanceStatus status) {
        return onIt.stream().map(s -> s.toBuilder().instanceStatus(status).build()).toList();
    }

    private static boolean hasGame(GameServer s, Instant now) {
        return s.utilizationStatus() == UtilizationStatus.UTILIZED || s.isClaimedAt(now);
    }

    /**
     * FleetIQ's counts. An AVAILABLE server on a retiring instance is left out, as one on an
     * interrupted instance is: no claim lands on it, so target tracking sees the capacity it is not.
     */
    private GameServerCounts count(List<GameServer> all, Map<String, GameServerInstance> recorded, Instant now) {
        long available = 0;
        long utilized = 0;
        long drainingAvailable = 0;
        long drainingUtilized = 0;
        Map<String, InstanceStatus> status = new HashMap<>();
        Set<String> retiring = new HashSet<>();
        recorded.forEach((id, i) -> {
            status.put(id, i.instanceStatus());
            if (settings.lifetime().retiring(i.launchTime(), now)) {
                retiring.add(id);
            }
        });
        for (GameServer s : all) {
            InstanceStatus st = status.getOrDefault(s.instanceId(), s.instanceStatus());
            boolean inUse = s.utilizationStatus() == UtilizationStatus.UTILIZED;
            if (st == InstanceStatus.SPOT_TERMINATING || (!inUse && retiring.contains(s.instanceId()))) {
                continue;
            }
            if (inUse) {
                utilized++;
            } else {
                available++;
            }
            if (st == InstanceStatus.DRAINING) {
                if (inUse) {
                    drainingUtilized++;
                } else {
                    drainingAvailable++;
                }
            }
        }
        return new GameServerCounts(available, utilized, drainingAvailable, drainingUtilized);
    }

    /**
     * What a console shows of the group: the counts of this run, and which of the AVAILABLE ones a
     * claim could take now (no live claim, an ACTIVE instance that is not retiring).
     */
    private GroupSummary summary(List<GameServer> all, Map<String, GameServerInstance> recorded,
            GameServerCounts counts, ProcessCounts processes, Instant now) {
        long claimable = 0;
        long claimed = 0;
        long onSpotTerminating = 0;
        for (GameServer s : all) {
            GameServerInstance instance = recorded.get(s.instanceId());
            InstanceStatus st = instance == null ? s.instanceStatus() : instance.instanceStatus();
            if (st == InstanceStatus.SPOT_TERMINATING) {
                onSpotTerminating++;
            } else if (s.utilizationStatus() != UtilizationStatus.UTILIZED) {
                if (s.isClaimedAt(now)) {
                    claimed++;
                } else if (st == InstanceStatus.ACTIVE
                        && (instance == null || !settings.lifetime().retiring(instance.launchTime(), now))) {
                    claimable++;
                }
            }
        }
        return new GroupSummary(now, all.size(), counts, claimable, claimed, onSpotTerminating, processes);
    }

    /** The servers' processes, as their items hold them ({@link ProcessSummary}), counted by state. */
    private static ProcessCounts processes(List<GameServer> all) {
        Map<ProcessState, Long> byState = new EnumMap<>(ProcessState.class);
        long players = 0;
        for (GameServer s : all) {
            if (s.process() != null) {
                players += s.process().connectedPlayers();
                if (s.process().state() != null) {
                    byState.merge(s.process().state(), 1L, Long::sum);
                }
            }
        }
        return new ProcessCounts(byState.getOrDefault(ProcessState.Initializing, 0L),
                byState.getOrDefault(ProcessState.StandingBy, 0L), byState.getOrDefault(ProcessState.Active, 0L),
                byState.getOrDefault(ProcessState.Terminating, 0L), players);
    }
}

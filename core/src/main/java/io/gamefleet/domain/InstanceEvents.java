package io.gamefleet.domain;

import io.gamefleet.domain.InterruptionRepository.Interruption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * EC2 events about the instances Gamefleet manages (PlayFab's "terminating" notice, FleetIQ's
 * SPOT_TERMINATING): a Spot interruption warning takes the instance's game servers out of
 * claims at once, counts against its type's viability and starts its replacement (see
 * {@link Replacements}; a container group's task: ECS starts it); an instance stopping for another reason only leaves claims
 * ({@link #stopping}); a terminated instance is forgotten with its game servers. Events for
 * instances of no group are ignored. Safe to receive twice.
 */
public final class InstanceEvents {
    private final GroupRepository groups;
    private final InstanceRepository instances;
    private final GameServerRepository servers;
    private final InterruptionRepository interruptions;
    private final Compute compute;
    private final Replacements replacements;
    private final Metrics metrics;
    private final Duration viabilityWindow;
    private final Clock clock;
    private final Consumer<String> log;

    public InstanceEvents(GroupRepository groups, InstanceRepository instances, GameServerRepository servers,
            InterruptionRepository interruptions, Compute compute, Metrics metrics, Duration viabilityWindow,
            Clock clock, Consumer<String> log) {
        this.groups = groups;
        this.instances = instances;
        this.servers = servers;
        this.interruptions = interruptions;
        this.compute = compute;
        this.replacements = new Replacements(instances, compute);
        this.metrics = metrics;
        this.viabilityWindow = viabilityWindow;
        this.clock = clock;
        this.log = log;
    }

    /**
     * Returns whether the instance belongs to a group. The interruption is recorded (and its
     * metrics emitted) first and once, keyed by the warning's time; the status writes after it
     * are idempotent, and desired capacity is raised once per instance, so a retried or repeated
     * warning finishes the work without counting or raising twice.
     */
    public boolean spotInterruptionWarning(String instanceId, Optional<Instant> warningTime) {
        Optional<GameServerInstance> found = instances.findById(instanceId);
        if (found.isEmpty()) {
            return false;
        }
        GameServerInstance instance = found.get();
        Instant at = warningTime.orElseGet(clock::instant);
        List<GameServer> onIt = servers.onInstance(instanceId);
        if (interruptions.record(new Interruption(instance.gameServerGroupName(), instanceId, instance.instanceType(), at),
                at.plus(viabilityWindow).plus(Duration.ofHours(1)))) {
            metrics.interruption(instance.gameServerGroupName(), instance.instanceType(), onIt.size());
            log.accept("instance events: Spot interruption of " + instanceId + " (" + instance.instanceType()
                    + ") in group " + instance.gameServerGroupName() + "; " + onIt.size() + " game servers affected");
        }
        instance = markInterrupted(instance);
        servers.setInstanceStatus(onIt, InstanceStatus.SPOT_TERMINATING);
        // Not while a deletion shrinks the scaling group: a raise would launch what it ends. Nor for a
        // container group: at a Fargate Spot warning ECS's service scheduler starts a replacement itself
        // (within the service's maximumPercent), and a raise would add a second.
        GameServerInstance interrupted = instance;
        groups.find(instance.gameServerGroupName()).filter(g -> g.status() == GameServerGroupStatus.ACTIVE)
                .filter(g -> !g.isContainerGroup())
                .ifPresent(g -> replacements.start(interrupted, g.autoScalingGroupName()));
        return true;
    }

    /**
     * An instance being ended by what also replaces it, not by a Spot interruption (an ECS task
     * stopped by its service's deployment or scale-in, or because its essential container exited):
     * its game servers are taken out of claims at once, as at a Spot warning, but nothing counts
     * against its type's viability and no replacement is started. Returns whether the instance
     * belongs to a group.
     */
    public boolean stopping(String instanceId) {
        Optional<GameServerInstance> found = instances.findById(instanceId);
        if (found.isEmpty()) {
            return false;
        }
        markInterrupted(found.get());
        servers.setInstanceStatus(servers.onInstance(instanceId), InstanceStatus.SPOT_TERMINATING);
        log.accept("instance events: instance " + instanceId + " of group " + found.get().gameServerGroupName()
                + " is stopping (no Spot interruption); its game servers take no claim");
        return true;
    }

    /**
     * SPOT_TERMINATING, conditionally, so a concurrent write of the record (the balancer draining
     * it, another delivery of the warning) is not overwritten with what was read before it.
     */
    private GameServerInstance markInterrupted(GameServerInstance read) {
        Optional<GameServerInstance> current = Optional.of(read);
        for (int attempt = 0; attempt < 5 && current.isPresent(); attempt++) {
            GameServerInstance i = current.get();
            if (i.instanceStatus() == InstanceStatus.SPOT_TERMINATING || instances.changeStatus(i.gameServerGroupName(),
                    i.instanceId(), i.instanceStatus(), InstanceStatus.SPOT_TERMINATING, i.replacementRequested())) {
                return i.withStatus(InstanceStatus.SPOT_TERMINATING);
            }
            current = instances.find(i.gameServerGroupName(), i.instanceId());
        }
        return read.withStatus(InstanceStatus.SPOT_TERMINATING); // gone meanwhile: nothing left to mark
    }

    /**
     * Returns whether the instance belonged to a group. Desired capacity raised for an
     * interrupted instance's replacement goes back down first (see {@link Replacements#end}).
     */
    public boolean terminated(String instanceId) {
        Optional<GameServerInstance> found = instances.findById(instanceId);
        if (found.isEmpty()) {
            return false;
        }
        GameServerInstance instance = found.get();
        if (instance.instanceStatus() == InstanceStatus.SPOT_TERMINATING && instance.replacementRequested()) {
            groups.find(instance.gameServerGroupName()).map(GameServerGroup::autoScalingGroupName)
                    .ifPresent(scalingGroup -> compute.describeScalingGroup(scalingGroup)
                            .ifPresent(scaling -> replacements.end(instance, scalingGroup, scaling)));
        }
        for (GameServer s : servers.onInstance(instanceId)) {
            servers.delete(s.gameServerId());
        }
        servers.forgetInstance(instanceId);
        instances.delete(found.get().gameServerGroupName(), instanceId);
        log.accept("instance events: instance " + instanceId + " of group " + found.get().gameServerGroupName()
                + " terminated; its game servers are deregistered");
        return true;
    }
}

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
 * claims at once and counts against its type's viability; a terminated instance is forgotten
 * with its game servers. Events for instances of no group are ignored. Safe to receive twice.
 */
public final class InstanceEvents {
    private final InstanceRepository instances;
    private final GameServerRepository servers;
    private final InterruptionRepository interruptions;
    private final Metrics metrics;
    private final Duration viabilityWindow;
    private final Clock clock;
    private final Consumer<String> log;

    public InstanceEvents(InstanceRepository instances, GameServerRepository servers,
            InterruptionRepository interruptions, Metrics metrics, Duration viabilityWindow, Clock clock,
            Consumer<String> log) {
        this.instances = instances;
        this.servers = servers;
        this.interruptions = interruptions;
        this.metrics = metrics;
        this.viabilityWindow = viabilityWindow;
        this.clock = clock;
        this.log = log;
    }

    /**
     * Returns whether the instance belongs to a group. The interruption is recorded (and its
     * metrics emitted) first and once, keyed by the warning's time; the status writes after it
     * are idempotent, so a retried or repeated warning finishes the work without counting twice.
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
        instances.save(instance.withStatus(InstanceStatus.SPOT_TERMINATING));
        servers.setInstanceStatus(onIt, InstanceStatus.SPOT_TERMINATING);
        return true;
    }

    /** Returns whether the instance belonged to a group. */
    public boolean terminated(String instanceId) {
        Optional<GameServerInstance> found = instances.findById(instanceId);
        if (found.isEmpty()) {
            return false;
        }
        for (GameServer s : servers.onInstance(instanceId)) {
            servers.delete(s.gameServerId());
        }
        instances.delete(found.get().gameServerGroupName(), instanceId);
        log.accept("instance events: instance " + instanceId + " of group " + found.get().gameServerGroupName()
                + " terminated; its game servers are deregistered");
        return true;
    }
}

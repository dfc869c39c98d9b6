package io.gamefleet.domain;

import java.time.Clock;
import java.util.OptionalInt;

/**
 * The agents' push connections, one per instance: recorded on the instance when its agent
 * connects, with the time (and copied onto its game servers, for the notices), cleared when it
 * disconnects; one whose {@code $disconnect} never came is taken as gone once it outlived API
 * Gateway's lifetime ({@link GameServerInstance#openPushConnection}), and cleared by the balancer.
 */
public final class PushConnections {
    private final InstanceRepository instances;
    private final GameServerRepository servers;
    private final Clock clock;
    /** Each connection's messages, within its instance's fair share of the stage's message throttle. */
    private final FairShare messages;

    /** {@code messages}: an instance's fair share of the push channel's messages ({@link InstanceLimits#pushMessages}). */
    public PushConnections(InstanceRepository instances, GameServerRepository servers, FairShare.Budget messages,
            Clock clock) {
        this.instances = instances;
        this.servers = servers;
        this.clock = clock;
        this.messages = new FairShare(messages, clock, "push messages");
    }

    /**
     * Counts one message of the connection (a ping, a health report) against its fair share: past
     * it, the message is refused (ThrottlingException) before anything is read, for this connection
     * alone. An instance has one connection at a time (the newest, {@link #connect}).
     */
    public void message(String connectionId) {
        messages.take(connectionId, "push connection " + connectionId);
    }

    /**
     * Admits the instance's own game server session (as the API binds it) or an administrator,
     * and records the connection with the port its QoS beacon bound (none: it runs none),
     * replacing an older one. Refused, with nothing recorded, for any
     * other caller and for an instance the group has not recorded (yet: the balancer records a
     * new instance within one period, and the agent connects again with backoff).
     */
    public void connect(Caller caller, String group, String instanceId, String connectionId, OptionalInt qosPort) {
        if (!caller.isInstanceOrAdministrator(instanceId)) {
            throw GamefleetException.unauthorized("only the game server session of instance " + instanceId
                    + " or an administrator may open its push connection");
        }
        if (!instances.recordPushConnection(group, instanceId, connectionId, clock.instant(), qosPort)) {
            throw GamefleetException.notFound("instance " + instanceId + " is not recorded in game server group "
                    + group + " (a new instance is recorded within one balancer period: connect again then)");
        }
        servers.setPushConnection(instanceId, connectionId);
    }

    /**
     * Clears the connection from its instance, unless a newer one replaced it there, and then ends
     * the health leases of the instance's servers ({@link HealthReports}): no report comes
     * through it any more. A newer connection's reports start new leases.
     */
    public void disconnect(String connectionId) {
        instances.findByPushConnection(connectionId).ifPresent(i -> {
            if (instances.clearPushConnection(i.gameServerGroupName(), i.instanceId(), connectionId)) {
                servers.endHealthLeases(i.instanceId(), clock.instant());
            }
        });
    }
}

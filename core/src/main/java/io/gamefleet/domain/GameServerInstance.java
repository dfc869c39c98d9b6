package io.gamefleet.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * An instance of a group's Auto Scaling group, as Gamefleet tracks it (whether it is in service
 * and protected is the scaling group's to say, and read from it). {@code replacementRequested}:
 * desired capacity was raised for this instance's replacement (by the balancer when it began
 * draining it, or at its Spot interruption warning), so desired capacity goes down by one again
 * when the instance ends. {@code launchTime}: EC2's, which the instance's maximum lifetime counts
 * from (a record made before EC2 was asked has the time Gamefleet first saw the instance, at most a
 * balancer period later). {@code pushConnectionId}: the instance's agent's push connection, if one
 * is open (null otherwise), made at {@code pushConnectedAt}. {@code addresses}: the instance's own
 * IPv4 and IPv6 addresses and DNS names as EC2 gave them when Gamefleet first saw it, which its game
 * servers' ConnectionInfo must name (empty for a record made before they were recorded).
 * {@code qosPort}: the UDP port of the agent's QoS beacon, as its push connection's connect gave
 * it, written and cleared with the connection (null: no beacon, or no connection).
 */
public record GameServerInstance(
        String gameServerGroupName,
        String instanceId,
        InstanceStatus instanceStatus,
        String instanceType,
        String availabilityZone,
        Instant launchTime,
        boolean replacementRequested,
        String pushConnectionId,
        Instant pushConnectedAt,
        List<String> addresses,
        Integer qosPort) {

    /**
     * API Gateway closes every WebSocket connection after 2 hours at most: one made longer ago is
     * gone, whether or not its {@code $disconnect} (best effort) came.
     */
    public static final Duration PUSH_CONNECTION_LIFETIME = Duration.ofHours(2);

    public GameServerInstance {
        addresses = addresses == null ? List.of() : List.copyOf(addresses);
    }

    public GameServerInstance(String gameServerGroupName, String instanceId, InstanceStatus instanceStatus,
            String instanceType, String availabilityZone, Instant launchTime, boolean replacementRequested,
            String pushConnectionId, Instant pushConnectedAt, List<String> addresses) {
        this(gameServerGroupName, instanceId, instanceStatus, instanceType, availabilityZone, launchTime,
                replacementRequested, pushConnectionId, pushConnectedAt, addresses, null);
    }

    public GameServerInstance(String gameServerGroupName, String instanceId, InstanceStatus instanceStatus,
            String instanceType, String availabilityZone, Instant launchTime, boolean replacementRequested,
            String pushConnectionId, Instant pushConnectedAt) {
        this(gameServerGroupName, instanceId, instanceStatus, instanceType, availabilityZone, launchTime,
                replacementRequested, pushConnectionId, pushConnectedAt, List.of());
    }

    public GameServerInstance(String gameServerGroupName, String instanceId, InstanceStatus instanceStatus,
            String instanceType, String availabilityZone, Instant launchTime, boolean replacementRequested) {
        this(gameServerGroupName, instanceId, instanceStatus, instanceType, availabilityZone, launchTime,
                replacementRequested, null, null);
    }

    public GameServerInstance(String gameServerGroupName, String instanceId, InstanceStatus instanceStatus,
            String instanceType, String availabilityZone, Instant launchTime) {
        this(gameServerGroupName, instanceId, instanceStatus, instanceType, availabilityZone, launchTime, false);
    }

    /** A scaling group's instance Gamefleet has not recorded before, with EC2's launch time and addresses: ACTIVE. */
    public static GameServerInstance active(String group, Compute.ComputeInstance i, Compute.LaunchedInstance launched) {
        return new GameServerInstance(group, i.instanceId(), InstanceStatus.ACTIVE, i.instanceType(),
                i.availabilityZone(), launched.launchTime(), false, null, null, launched.addresses());
    }

    public GameServerInstance withStatus(InstanceStatus status) {
        return new GameServerInstance(gameServerGroupName, instanceId, status, instanceType,
                availabilityZone, launchTime, replacementRequested, pushConnectionId, pushConnectedAt, addresses, qosPort);
    }

    /** This instance with its agent's push connection (and beacon port) recorded, or cleared (all null). */
    public GameServerInstance withPushConnection(String connectionId, Instant connectedAt, Integer qosPort) {
        return new GameServerInstance(gameServerGroupName, instanceId, instanceStatus, instanceType,
                availabilityZone, launchTime, replacementRequested, connectionId, connectedAt, addresses, qosPort);
    }

    /**
     * The push connection, unless it outlived {@link #PUSH_CONNECTION_LIFETIME} at {@code now}
     * (then it is certainly closed: nothing is posted to it). One recorded without its time (before
     * the time was recorded) is taken as open.
     */
    public Optional<String> openPushConnection(Instant now) {
        return Optional.ofNullable(pushConnectionId).filter(c -> !pushConnectionOutlived(now));
    }

    /** Whether the recorded push connection was made {@link #PUSH_CONNECTION_LIFETIME} or more before {@code now}. */
    public boolean pushConnectionOutlived(Instant now) {
        return pushConnectionId != null && pushConnectedAt != null
                && !pushConnectedAt.plus(PUSH_CONNECTION_LIFETIME).isAfter(now);
    }
}

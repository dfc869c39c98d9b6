package io.gamefleet.domain;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** Storage of the instances of each group's Auto Scaling group. Implemented in io.gamefleet.adapters.dynamodb. */
public interface InstanceRepository {
    Optional<GameServerInstance> find(String group, String instanceId);

    /**
     * The instance as {@link #find} reads it, or as it was a moment ago where a repository can
     * read that for less (registration: the balancer repairs a server that registered while its
     * instance changed status).
     */
    default Optional<GameServerInstance> findRecent(String group, String instanceId) {
        return find(group, instanceId);
    }

    List<GameServerInstance> findAll(String group, List<String> instanceIds);

    Page<GameServerInstance> list(String group, int limit, Optional<String> cursor);

    /** Every instance of the group. */
    List<GameServerInstance> listAll(String group);

    /** The instance with this id in whichever group has it (instance events carry only the id). */
    Optional<GameServerInstance> findById(String instanceId);

    void save(GameServerInstance instance);

    /** Records the instance unless a record of it exists (whatever its status). */
    void addIfAbsent(GameServerInstance instance);

    /**
     * Moves the instance from one status to another, setting whether a replacement was requested;
     * false when its status is no longer {@code from} (a Spot interruption came first) or it is gone.
     */
    boolean changeStatus(String group, String instanceId, InstanceStatus from, InstanceStatus to,
            boolean replacementRequested);

    /**
     * Sets whether desired capacity stands raised for the instance's replacement, unless it is so
     * already: true when this call changed it; false when it was so already or the instance is
     * gone. Of callers racing to raise or lower desired capacity for one instance, one wins.
     */
    boolean setReplacementRequested(String group, String instanceId, boolean requested);

    void delete(String group, String instanceId);

    /**
     * Records the instance's agent's push connection, when it was made and its QoS beacon's port
     * (none: the record has none), replacing any other (a newer connect wins); false when the
     * instance is not recorded (nothing is then written).
     */
    boolean recordPushConnection(String group, String instanceId, String connectionId, Instant connectedAt,
            OptionalInt qosPort);

    /**
     * Clears the instance's push connection (and its time and beacon port) if it is still {@code connectionId}:
     * false if it was not (a newer connection is never cleared).
     */
    boolean clearPushConnection(String group, String instanceId, String connectionId);

    /** The instance holding this push connection, if any (read from an index: a moment behind its writes). */
    Optional<GameServerInstance> findByPushConnection(String connectionId);

    /** Deletes up to {@code max} of the group's instances; returns the ids of those it deleted. */
    List<String> deleteSome(String group, int max);
}

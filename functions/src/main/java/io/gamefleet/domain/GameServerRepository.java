package io.gamefleet.domain;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Storage of game servers. Implemented in io.gamefleet.store. */
public interface GameServerRepository {

    /** Stores a new game server; ConflictException when the id exists in any group. */
    void register(GameServer server);

    /** A strongly consistent read. */
    Optional<GameServer> find(String gameServerId);

    Page<GameServer> listByGroup(String group, SortOrder order, int limit, Optional<String> cursor);

    /**
     * Claim candidates on instances of one status, best first, and the group's status as the
     * claim index knows it (empty when the group has no entry there). A hint, never authority:
     * {@link #tryClaim} decides.
     */
    ClaimCandidates claimCandidates(String group, InstanceStatus instanceStatus, Instant now, int limit);

    record ClaimCandidates(Optional<GameServerGroupStatus> groupStatus, List<GameServer> servers) {}

    /** What a conditional claim requires of the server, besides belonging to the group. */
    record ClaimCondition(Instant now, Instant healthCutoff, Set<InstanceStatus> instanceStatuses) {}

    /**
     * Claims the candidate if, at the moment of the write, it is in the group, AVAILABLE, not
     * under a live claim, healthy, and still on an instance of the status the candidate shows,
     * which must be one the condition allows. Empty when any of that failed.
     */
    Optional<GameServer> tryClaim(GameServer candidate, ClaimCondition condition, Instant claimExpiresAt,
            Optional<String> gameServerData);

    /** The changes UpdateGameServer may make; empty ones are left alone. */
    record ServerUpdate(Optional<String> gameServerData, Optional<UtilizationStatus> utilizationStatus,
            Optional<Instant> healthCheckTime) {}

    /**
     * Applies the update if the server is still in the group, on the expected instance when one is
     * given, and (when the update asks for AVAILABLE) still AVAILABLE. Empty when that failed.
     */
    Optional<GameServer> update(String group, String gameServerId, Optional<String> requiredInstanceId,
            ServerUpdate update);

    /** Deletes the server if it is in the group (and on the instance, when one is given). */
    boolean deregister(String group, String gameServerId, Optional<String> requiredInstanceId);

    /** How many game servers of the group are UTILIZED (a query over the group's servers). */
    long countUtilized(String group);

    /** Deletes up to {@code max} of the group's game servers; returns how many it deleted. */
    int deleteSome(String group, int max);
}

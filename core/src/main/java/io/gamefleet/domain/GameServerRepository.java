package io.gamefleet.domain;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Storage of game servers. Implemented in io.gamefleet.adapters.dynamodb. */
public interface GameServerRepository {

    /**
     * Stores a new game server of a group of at most {@code groupMaxSize} instances (its maximum
     * size as it is now), which a store may spread over fewer parts the smaller the group is, so
     * that a claim reads fewer: a size is required, since a server stored outside the parts its
     * group's claims read would never be claimed. ConflictException when the id exists in any
     * group, or the group stopped being ACTIVE; LimitExceededException, with nothing stored, when
     * its instance has {@code maxOnInstance} game servers already. The count is exact whatever
     * runs at once: every way a server goes (deregistration, deletion, a sweep, a purge) gives its
     * instance's count back.
     */
    void register(GameServer server, int groupMaxSize, int maxOnInstance);

    /** A strongly consistent read. */
    Optional<GameServer> find(String gameServerId);

    Page<GameServer> listByGroup(String group, SortOrder order, int limit, Optional<String> cursor);

    /**
     * Claim candidates on instances of one status that reported health at or after
     * {@code healthCutoff}, best first, and the group's status as the claim index knows it (empty
     * when the group has no entry there). A hint, never authority: {@link #tryClaim} decides.
     */
    ClaimCandidates claimCandidates(String group, InstanceStatus instanceStatus, Instant now, Instant healthCutoff,
            int limit);

    /**
     * Like {@link #claimCandidates}, from the part of the index a claim needs: one read where
     * the store keeps the index in parts and knows which hold candidates, best first within
     * that part, so the order across the group holds only as the parts share it. Empty only
     * when {@link #claimCandidates} would be. This is the claim path's read.
     */
    default ClaimCandidates someClaimCandidates(String group, InstanceStatus instanceStatus, Instant now,
            Instant healthCutoff, int limit) {
        return claimCandidates(group, instanceStatus, now, healthCutoff, limit);
    }

    /**
     * {@code claimStrategy}: the group's as the claim index knows it, with its status (empty when
     * the read had no gate: the DRAINING bucket's, or a group with no entry there).
     */
    record ClaimCandidates(Optional<GameServerGroupStatus> groupStatus, List<GameServer> servers,
            Optional<ClaimStrategy> claimStrategy) {
        /** Candidates with no strategy known. */
        public ClaimCandidates(Optional<GameServerGroupStatus> groupStatus, List<GameServer> servers) {
            this(groupStatus, servers, Optional.empty());
        }
    }

    /**
     * What a conditional claim requires of the server, besides belonging to the group: its instance
     * launched after {@code retiringLaunchedBy} when one is given (else it is retiring:
     * {@link InstanceLifetime#retiringLaunchedBy}).
     */
    record ClaimCondition(Instant now, Instant healthCutoff, Set<InstanceStatus> instanceStatuses,
            Optional<Instant> retiringLaunchedBy) {
        /** With no instance retiring (lifetimes unlimited). */
        public ClaimCondition(Instant now, Instant healthCutoff, Set<InstanceStatus> instanceStatuses) {
            this(now, healthCutoff, instanceStatuses, Optional.empty());
        }

        /** Whether a server on an instance launched at {@code launchTime} is on a retiring one. */
        public boolean retiring(Instant launchTime) {
            return retiringLaunchedBy.filter(by -> launchTime != null && !launchTime.isAfter(by)).isPresent();
        }
    }

    /**
     * Claims the candidate if, at the moment of the write, it is in the group, AVAILABLE, not
     * under a live claim, healthy ({@link GameServer#isHealthyAt}), on an instance that is not
     * retiring ({@link ClaimCondition#retiring}), and still on an instance of the status the
     * candidate shows, which must be one the condition allows. Empty when any of that failed.
     */
    Optional<GameServer> tryClaim(GameServer candidate, ClaimCondition condition, Instant claimExpiresAt,
            Optional<String> gameServerData);

    /**
     * The servers of these ids that exist, in any order, as an eventually consistent read may
     * show them (a server registered a moment ago may be missing): the agents' health reports.
     */
    default List<GameServer> findSome(Collection<String> gameServerIds) {
        return gameServerIds.stream().map(this::find).flatMap(Optional::stream).toList();
    }

    /**
     * What a health report writes: the lease's new end ({@code now} or earlier ends it), the
     * health check time when the report was healthy, the reporting connection (the server's
     * copy of its instance's push connection, made right), and the server's process as reported
     * at {@code now}, when it changed ({@link ProcessReport#summary} on the server, the whole report
     * where {@link #findProcess} reads it).
     */
    record HealthLease(Instant expiresAt, Optional<Instant> healthCheckTime, String pushConnectionId,
            Optional<ReportedProcess> process) {
        public HealthLease(Instant expiresAt, Optional<Instant> healthCheckTime, String pushConnectionId) {
            this(expiresAt, healthCheckTime, pushConnectionId, Optional.empty());
        }
    }

    /**
     * A process report as it came, at {@code at}, for the server registered at {@code registrationTime}
     * (a later server of the same id is another), to be kept until {@code keepUntil} at least (a
     * store may forget it after).
     */
    record ReportedProcess(ProcessReport report, Instant at, Instant registrationTime, Instant keepUntil) {}

    /**
     * Writes the lease (and the process, if given) if the server is still in the group and on the
     * instance; a server taken out of the claim index for its silence is put back when the lease is
     * live. Empty when the server is gone (deregistered meanwhile).
     */
    Optional<GameServer> setHealthLease(String group, String gameServerId, String instanceId, HealthLease lease);

    /**
     * The process last reported for this very server (one of an earlier server that had its id is
     * not its); empty when none was.
     */
    Optional<GameServerProcess> findProcess(GameServer server);

    /** Ends, at {@code now}, every lease of the instance's servers that runs past it (its agent's connection ended). */
    void endHealthLeases(String instanceId, Instant now);

    /** The changes UpdateGameServer may make; empty ones are left alone. A heartbeat ends the server's lease mode. */
    record ServerUpdate(Optional<String> gameServerData, Optional<UtilizationStatus> utilizationStatus,
            Optional<Instant> healthCheckTime) {}

    /**
     * Applies the update if the server is still in the group, on the expected instance when one is
     * given, and (when the update asks for AVAILABLE) still AVAILABLE. Empty when that failed.
     */
    Optional<GameServer> update(String group, String gameServerId, Optional<String> requiredInstanceId,
            ServerUpdate update);

    /**
     * Deletes the server if it is in the group (and on the instance, when one is given): the
     * server as it was, or empty when nothing was deleted.
     */
    Optional<GameServer> deregister(String group, String gameServerId, Optional<String> requiredInstanceId);

    /**
     * Copies the instance's push connection onto each of its game servers that exist (their
     * {@link GameServer#pushConnectionId}); a server deregistered meanwhile is not written again.
     */
    void setPushConnection(String instanceId, String connectionId);

    /**
     * Removes the server's copy of its instance's push connection if it is still {@code
     * connectionId} (a newer copy is kept): false when it was not, or the server is gone.
     */
    boolean clearPushConnection(String gameServerId, String connectionId);

    /** Every game server of the group (the balancer's one query per group, paged). */
    List<GameServer> listAll(String group);

    /** The game servers on one instance. */
    List<GameServer> onInstance(String instanceId);

    /**
     * Moves the servers of one instance, as they were read, to an instance status: DRAINING
     * keeps them claimable as a last resort, SPOT_TERMINATING takes them out of the claim index.
     * Servers that a claim or an update changed meanwhile are read again and moved; servers that
     * are gone are left alone.
     */
    void setInstanceStatus(List<GameServer> servers, InstanceStatus status);

    /**
     * Takes the servers of an instance about to be terminated out of claims (SPOT_TERMINATING),
     * but only if each is still as it was read (no claim or game started since): false if not,
     * and then no server of the list is left out of claims by this call. One transaction decides
     * up to 100 servers; with more, a refused transaction undoes the ones before it: each of
     * their servers still SPOT_TERMINATING goes back to the instance status it was read with,
     * and into the claim index (a server changed or deregistered meanwhile is taken as it is now).
     * A server that a Spot interruption warning meant to keep SPOT_TERMINATING meanwhile goes back
     * too; the balancer's next run moves it to its instance's status again.
     */
    boolean retire(List<GameServer> servers);

    /** Deletes the server if it is still silent since {@code cutoff} ({@link GameServer#isSilentSince}). */
    boolean deleteIfUnhealthy(String gameServerId, Instant cutoff);

    /** Deletes the server whatever its state (its instance is gone). */
    void delete(String gameServerId);

    /**
     * The instance is gone and its servers deleted: what the store keeps for the instance's count
     * goes too, unless a server registered on it meanwhile.
     */
    void forgetInstance(String instanceId);

    /** How many game servers of the group are UTILIZED (a query over the group's servers). */
    long countUtilized(String group);

    /** Deletes up to {@code max} of the group's game servers; returns how many it deleted. */
    int deleteSome(String group, int max);
}

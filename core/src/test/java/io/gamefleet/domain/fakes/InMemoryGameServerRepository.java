package io.gamefleet.domain.fakes;

import static io.gamefleet.domain.fakes.Storage.millis;
import static io.gamefleet.domain.fakes.Storage.sortable;

import io.gamefleet.domain.ClaimStrategy;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerProcess;
import io.gamefleet.domain.GameServerRepository;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.Page;
import io.gamefleet.domain.SortOrder;
import io.gamefleet.domain.UtilizationStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The GameServers table in memory, as DynamoGameServerRepository shows it through the port: one
 * lock stands for every condition and transaction. The claim index is derived from each server as
 * the adapter writes it: AVAILABLE servers on ACTIVE (bucket 0) or DRAINING (bucket 1) instances,
 * keyed {@code <bucket>#<claim expiry ms, 0 if none>#<instance launch ms>#<id>}, after the group's
 * gate. The gates are written by {@link InMemoryGroupRepository}, as the group table's writes
 * write them into the GameServers table. The index holds no health: a claim refused for silence
 * takes the server out of it until its next heartbeat, and candidates show only what the index
 * holds (no instance id, health or data).
 */
public final class InMemoryGameServerRepository implements GameServerRepository {
    /** TransactWriteItems takes at most 100 actions. */
    private static final int TRANSACTION_LIMIT = 100;
    private final Map<String, GameServer> servers = new HashMap<>();
    /** Servers a claim found silent: out of the claim index until their next heartbeat or status move. */
    private final java.util.Set<String> silent = new java.util.HashSet<>();
    private final Map<String, GameServerGroupStatus> gates = new HashMap<>();
    /** Each server's last reported process, by id, with the registration of the server it was reported for. */
    private final Map<String, StoredProcess> processes = new HashMap<>();

    /** The claim strategy each gate carries beside its status. */
    private final Map<String, ClaimStrategy> gateStrategies = new HashMap<>();

    /** What every write of a group does to its gate: DELETED removes it. */
    public synchronized void writeGate(String group, GameServerGroupStatus status, ClaimStrategy strategy) {
        if (status == GameServerGroupStatus.DELETED) {
            gates.remove(group);
            gateStrategies.remove(group);
        } else {
            gates.put(group, status);
            gateStrategies.put(group, strategy);
        }
    }

    /** One part only: the size changes nothing here. The instance's count is its servers, counted under the lock. */
    @Override
    public synchronized void register(GameServer server, int groupMaxSize, int maxOnInstance) {
        if (servers.containsKey(server.gameServerId())) {
            throw GamefleetException.conflict("a game server with id " + server.gameServerId()
                    + " is already registered (ids are unique across all game server groups)");
        }
        if (gates.get(server.gameServerGroupName()) != GameServerGroupStatus.ACTIVE) {
            throw GamefleetException.conflict("game server group " + server.gameServerGroupName()
                    + " stopped being ACTIVE during the registration");
        }
        if (onInstance(server.instanceId()).size() >= maxOnInstance) {
            throw GamefleetException.limitExceeded("instance " + server.instanceId() + " has " + maxOnInstance
                    + " game servers registered, the most one instance may have; deregister one first");
        }
        store(server);
    }

    @Override
    public synchronized Optional<GameServer> find(String gameServerId) {
        return Optional.ofNullable(servers.get(gameServerId));
    }

    @Override
    public synchronized Page<GameServer> listByGroup(String group, SortOrder order, int limit, Optional<String> cursor) {
        return Storage.page(inGroup(group), InMemoryGameServerRepository::registrationKey,
                order == SortOrder.ASCENDING, limit, cursor);
    }

    /**
     * One Query of the claim index: {@code limit} entries (one more on the ACTIVE bucket, whose
     * range starts with the gate), shown as the index holds them.
     */
    @Override
    public synchronized ClaimCandidates claimCandidates(String group, InstanceStatus instanceStatus, Instant now,
            Instant healthCutoff, int limit) {
        boolean withGate = instanceStatus == InstanceStatus.ACTIVE;
        String bucket = bucket(instanceStatus);
        List<GameServer> index = servers.values().stream()
                .filter(s -> group.equals(s.gameServerGroupName()) && bucket != null)
                .filter(s -> claimKey(s) != null && claimKey(s).startsWith(bucket + "#")
                        && claimKey(s).compareTo(bucket + "#" + sortable(now) + "#~") <= 0)
                .sorted(Comparator.comparing(this::claimKey))
                .toList();
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, not " + limit);
        }
        Optional<GameServerGroupStatus> status = withGate ? Optional.ofNullable(gates.get(group)) : Optional.empty();
        List<GameServer> found = index.subList(0, Math.min(limit, index.size())).stream()
                .map(s -> GameServer.builder().gameServerGroupName(s.gameServerGroupName()).gameServerId(s.gameServerId())
                        .utilizationStatus(UtilizationStatus.AVAILABLE).instanceStatus(s.instanceStatus())
                        .claimExpiresAt(s.claimExpiresAt()).instanceLaunchTime(s.instanceLaunchTime()).build())
                .toList();
        return new ClaimCandidates(status, found, withGate ? Optional.ofNullable(gateStrategies.get(group)) : Optional.empty());
    }

    @Override
    public synchronized Optional<GameServer> tryClaim(GameServer candidate, ClaimCondition condition,
            Instant claimExpiresAt, Optional<String> gameServerData) {
        return claim(candidate, condition, claimExpiresAt, gameServerData, null);
    }

    /** {@link #tryClaim}, the claim left naming {@code sessionId} (null: a ClaimGameServer's, which names none). */
    synchronized Optional<GameServer> claim(GameServer candidate, ClaimCondition condition, Instant claimExpiresAt,
            Optional<String> gameServerData, String sessionId) {
        if (!condition.instanceStatuses().contains(candidate.instanceStatus()) || bucket(candidate.instanceStatus()) == null) {
            return Optional.empty(); // never a server on an interrupted instance
        }
        GameServer s = servers.get(candidate.gameServerId());
        long now = condition.now().toEpochMilli();
        boolean claimable = s != null
                && Objects.equals(s.gameServerGroupName(), candidate.gameServerGroupName())
                && s.utilizationStatus() == UtilizationStatus.AVAILABLE
                && (s.claimExpiresAt() == null || s.claimExpiresAt().toEpochMilli() <= now)
                && s.instanceStatus() == candidate.instanceStatus()
                && !condition.retiring(s.instanceLaunchTime());
        boolean healthy = s != null && s.lastHealthCheckTime() != null
                && s.isHealthyAt(condition.now(), condition.healthCutoff());
        if (claimable && !healthy) {
            silent.add(s.gameServerId()); // out of the claim index until it reports health
        }
        if (!claimable || !healthy) {
            return Optional.empty();
        }
        GameServer.Builder claimed = s.toBuilder().claimExpiresAt(claimExpiresAt).lastClaimTime(condition.now())
                .claimSessionId(sessionId);
        gameServerData.ifPresent(claimed::gameServerData);
        return Optional.of(store(claimed.build()));
    }

    @Override
    public synchronized Optional<GameServer> update(String group, String gameServerId,
            Optional<String> requiredInstanceId, ServerUpdate update) {
        GameServer s = servers.get(gameServerId);
        if (!inGroupAndOnInstance(s, group, requiredInstanceId)
                || update.utilizationStatus().orElse(null) == UtilizationStatus.AVAILABLE
                        && s.utilizationStatus() != UtilizationStatus.AVAILABLE) {
            return Optional.empty();
        }
        GameServer.Builder updated = s.toBuilder();
        update.gameServerData().ifPresent(updated::gameServerData);
        update.healthCheckTime().ifPresent(updated::lastHealthCheckTime);
        update.healthCheckTime().ifPresent(t -> updated.healthLeaseExpiresAt(null)); // back to heartbeats
        update.healthCheckTime().ifPresent(t -> silent.remove(gameServerId));
        update.utilizationStatus().ifPresent(updated::utilizationStatus);
        if (update.utilizationStatus().orElse(null) == UtilizationStatus.UTILIZED) {
            updated.claimExpiresAt(null); // in play: out of the claim index, its claim spent
        }
        return Optional.of(store(updated.build()));
    }

    @Override
    public synchronized Optional<GameServer> deregister(String group, String gameServerId,
            Optional<String> requiredInstanceId) {
        if (!inGroupAndOnInstance(servers.get(gameServerId), group, requiredInstanceId)) {
            return Optional.empty();
        }
        return Optional.of(servers.remove(gameServerId));
    }

    @Override
    public synchronized Optional<GameServer> setHealthLease(String group, String gameServerId, String instanceId,
            HealthLease lease) {
        GameServer s = servers.get(gameServerId);
        if (!inGroupAndOnInstance(s, group, Optional.of(instanceId))) {
            return Optional.empty();
        }
        GameServer.Builder leased = s.toBuilder().healthLeaseExpiresAt(lease.expiresAt())
                .pushConnectionId(lease.pushConnectionId());
        lease.healthCheckTime().ifPresent(leased::lastHealthCheckTime);
        lease.process().ifPresent(p -> {
            leased.process(p.report().summary());
            processes.put(gameServerId, new StoredProcess(millis(p.registrationTime()), new GameServerProcess(group,
                    gameServerId, instanceId, p.report(), millis(p.at()))));
        });
        if (lease.healthCheckTime().isPresent()) {
            silent.remove(gameServerId);
        }
        return Optional.of(store(leased.build()));
    }

    /** Kept past the server, as the adapter's item is until it expires: only this very server's is its. */
    @Override
    public synchronized Optional<GameServerProcess> findProcess(GameServer server) {
        StoredProcess stored = processes.get(server.gameServerId());
        return stored == null || !Objects.equals(stored.registrationTime(), millis(server.registrationTime()))
                ? Optional.empty() : Optional.of(stored.process());
    }

    private record StoredProcess(Instant registrationTime, GameServerProcess process) {}

    @Override
    public synchronized void endHealthLeases(String instanceId, Instant now) {
        for (GameServer s : onInstance(instanceId)) {
            if (s.healthLeaseExpiresAt() != null && s.healthLeaseExpiresAt().isAfter(now)) {
                store(s.toBuilder().healthLeaseExpiresAt(now).build());
            }
        }
    }

    @Override
    public synchronized void setPushConnection(String instanceId, String connectionId) {
        onInstance(instanceId).forEach(s -> servers.put(s.gameServerId(), s.toBuilder().pushConnectionId(connectionId).build()));
    }

    @Override
    public synchronized boolean clearPushConnection(String gameServerId, String connectionId) {
        GameServer s = servers.get(gameServerId);
        if (s == null || !connectionId.equals(s.pushConnectionId())) {
            return false;
        }
        servers.put(gameServerId, s.toBuilder().pushConnectionId(null).build());
        return true;
    }

    @Override
    public synchronized List<GameServer> listAll(String group) {
        return inGroup(group);
    }

    @Override
    public synchronized List<GameServer> onInstance(String instanceId) {
        return servers.values().stream().filter(s -> instanceId.equals(s.instanceId()))
                .sorted(Comparator.comparing(GameServer::gameServerId)).toList();
    }

    /**
     * The adapter's transactions fall back to fresh reads when a server changed since it was read,
     * so the outcome is: every server still there moves, except those on an interrupted instance.
     */
    @Override
    public synchronized void setInstanceStatus(List<GameServer> read, InstanceStatus status) {
        for (int from = 0; from < read.size(); from += TRANSACTION_LIMIT) {
            for (GameServer s : transaction(read, from)) {
                GameServer current = servers.get(s.gameServerId());
                if (current != null && current.instanceStatus() != InstanceStatus.SPOT_TERMINATING) {
                    store(current.toBuilder().instanceStatus(status).build());
                    silent.remove(current.gameServerId()); // the move writes its index entry afresh
                }
            }
        }
    }

    /**
     * One transaction per 100 servers: all of them as read, or none of them and false; a refused
     * transaction puts the servers of the ones before it back as they were read.
     */
    @Override
    public synchronized boolean retire(List<GameServer> read) {
        for (int from = 0; from < read.size(); from += TRANSACTION_LIMIT) {
            List<GameServer> chunk = transaction(read, from);
            if (!chunk.stream().allMatch(this::unchangedSinceRead)) {
                for (GameServer retired : read.subList(0, from)) {
                    GameServer current = servers.get(retired.gameServerId());
                    if (current != null && current.instanceStatus() == InstanceStatus.SPOT_TERMINATING) {
                        store(current.toBuilder().instanceStatus(retired.instanceStatus()).build());
                        silent.remove(current.gameServerId());
                    }
                }
                return false;
            }
            chunk.forEach(s -> store(servers.get(s.gameServerId()).toBuilder()
                    .instanceStatus(InstanceStatus.SPOT_TERMINATING).build()));
        }
        return true;
    }

    @Override
    public synchronized boolean deleteIfUnhealthy(String gameServerId, Instant cutoff) {
        GameServer s = servers.get(gameServerId);
        if (s == null || s.lastHealthCheckTime() == null || !s.isSilentSince(millis(cutoff))) {
            return false;
        }
        servers.remove(gameServerId);
        return true;
    }

    @Override
    public synchronized void delete(String gameServerId) {
        servers.remove(gameServerId);
    }

    /** Nothing is kept for an instance but its servers. */
    @Override
    public synchronized void forgetInstance(String instanceId) {
    }

    @Override
    public synchronized long countUtilized(String group) {
        return inGroup(group).stream().filter(s -> s.utilizationStatus() == UtilizationStatus.UTILIZED).count();
    }

    @Override
    public synchronized int deleteSome(String group, int max) {
        List<GameServer> batch = listByGroup(group, SortOrder.ASCENDING, max, Optional.empty()).items();
        batch.forEach(s -> servers.remove(s.gameServerId()));
        return batch.size();
    }

    /** Stores the server as DynamoDB keeps it (instants in milliseconds) and returns that. */
    private GameServer store(GameServer s) {
        GameServer stored = s.toBuilder()
                .claimExpiresAt(millis(s.claimExpiresAt()))
                .lastClaimTime(millis(s.lastClaimTime()))
                .lastHealthCheckTime(millis(s.lastHealthCheckTime()))
                .registrationTime(millis(s.registrationTime()))
                .instanceLaunchTime(millis(s.instanceLaunchTime()))
                .healthLeaseExpiresAt(millis(s.healthLeaseExpiresAt()))
                .build();
        servers.put(stored.gameServerId(), stored);
        return stored;
    }

    /** The group's servers in the ByGroupRegistration index (those with a registration time), in its order. */
    private List<GameServer> inGroup(String group) {
        return servers.values().stream()
                .filter(s -> group.equals(s.gameServerGroupName()) && s.registrationTime() != null)
                .sorted(Comparator.comparing(InMemoryGameServerRepository::registrationKey))
                .toList();
    }

    private static String registrationKey(GameServer s) {
        return sortable(s.registrationTime()) + "#" + s.gameServerId();
    }

    private static boolean inGroupAndOnInstance(GameServer s, String group, Optional<String> requiredInstanceId) {
        return s != null && group.equals(s.gameServerGroupName())
                && (requiredInstanceId.isEmpty() || requiredInstanceId.get().equals(s.instanceId()));
    }

    /** The up to 100 servers from {@code from} that one transaction writes; DynamoDB refuses one named twice. */
    private static List<GameServer> transaction(List<GameServer> servers, int from) {
        List<GameServer> chunk = servers.subList(from, Math.min(servers.size(), from + TRANSACTION_LIMIT));
        if (chunk.stream().map(GameServer::gameServerId).distinct().count() < chunk.size()) {
            throw new IllegalArgumentException("Transaction request cannot include multiple operations on one item");
        }
        return chunk;
    }

    /** The retire condition: same utilization and claim as read, and not on an interrupted instance. */
    private boolean unchangedSinceRead(GameServer read) {
        GameServer current = servers.get(read.gameServerId());
        return current != null
                && current.utilizationStatus() == read.utilizationStatus()
                && current.instanceStatus() != InstanceStatus.SPOT_TERMINATING
                && Objects.equals(millis(current.claimExpiresAt()), millis(read.claimExpiresAt()));
    }

    private static String bucket(InstanceStatus status) {
        return switch (status) {
            case ACTIVE -> "0";
            case DRAINING -> "1";
            case SPOT_TERMINATING -> null;
        };
    }

    /** The server's key in the claim index, or null when it is not in it. */
    private String claimKey(GameServer s) {
        String bucket = bucket(s.instanceStatus());
        if (bucket == null || s.utilizationStatus() != UtilizationStatus.AVAILABLE || silent.contains(s.gameServerId())) {
            return null;
        }
        return bucket + "#" + sortable(s.claimExpiresAt()) + "#" + sortable(s.instanceLaunchTime()) + "#"
                + s.gameServerId();
    }
}

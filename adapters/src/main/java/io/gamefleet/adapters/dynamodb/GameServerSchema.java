package io.gamefleet.adapters.dynamodb;

import static io.gamefleet.adapters.dynamodb.Attributes.sortable;

import io.gamefleet.catalog.PushChannel;
import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.ClaimStrategy;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.UtilizationStatus;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * GameServers items, keyed by GameServerId alone so that registration is one conditional put
 * that keeps ids unique across groups, mapped by hand ({@link #toItem}, {@link #fromItem}): the
 * claim and heartbeat paths load no Enhanced Client (its converters cost a cold start). Access patterns:
 * <ul>
 * <li>get/update/delete by GameServerId (describe, update, deregister, named claims);</li>
 * <li>ByGroupRegistration index: a group's servers in registration order (ListGameServers,
 *     SortOrder; counting UTILIZED servers and purging a deleted group), keyed by the group's
 *     shard ({@code RegistrationPartition}, {@code <group>#<shard>}, see {@link Tables#shardOf}) and
 *     sorted by {@code RegistrationSortKey} ({@code <registration ms>#<id>}), so
 *     a group's registrations and deregistrations spread over {@link Tables#GAME_SERVER_SHARDS}
 *     partitions; a listing merges the shards. It projects UtilizationStatus (counting) and no
 *     more: whole items are read by key;</li>
 * <li>Claimable index, sparse: only AVAILABLE servers on ACTIVE or DRAINING instances carry
 *     ClaimPartition (the group's shard, {@code <group>#<shard>}) and ClaimSortKey
 *     {@code <bucket>#<claim expiry ms>#<instance launch ms>#<id>}: bucket 0 for ACTIVE instances,
 *     1 for DRAINING ones; an unclaimed server's expiry is 0. So one key-range query up to
 *     {@code <bucket>#<now>#~} reads exactly the servers whose claim is absent or lapsed, without
 *     any background job to clear claims: never-claimed servers first, oldest instance first
 *     (packing), then servers whose claim lapsed (a matchmaker gave up on them); the shards'
 *     ranges merged give the group's order. Setting UTILIZED
 *     removes both attributes. Each shard's partition starts with a gate entry (sort key
 *     {@code !<shards>}) that carries the group's status, so the claim query also tells whether
 *     the group is ACTIVE, and in its key the shards the group's servers can be in (the most
 *     its maximum size ever gave, {@link #gateSortKey}): a claim reads only those.
 *     The index holds the keys and the gates' GroupStatus only: a candidate is read back from its
 *     keys ({@link #candidate}), and heartbeats, which write no key, write no index entry.</li>
 * <li>ByInstance index (keys only): the servers of one instance (draining it, a Spot
 *     interruption, its end), then read by key.</li>
 * </ul>
 * A server whose agent reports its process keeps a summary of it on its item, in no index
 * ({@link ProcessItems}); the whole report is an item of its own.
 */
final class GameServerSchema {
    /** Where a shard's gate entry sorts: first in the partition, below every server's key. */
    static final String GATE_SORT_KEY = "!";
    static final String GATE_ID_PREFIX = "#gate#";
    /** A never-claimed server's expiry in its claim-index key. */
    private static final String NEVER = sortable(Instant.EPOCH);

    private GameServerSchema() {}

    static String bucket(InstanceStatus status) {
        return switch (status) {
            case ACTIVE -> "0";
            case DRAINING -> "1";
            case SPOT_TERMINATING -> null;
        };
    }

    /** The server's Claimable index key for a claim that expires at {@code claimExpiresAt}, or null. */
    static String claimSortKey(GameServer s, Instant claimExpiresAt) {
        String bucket = bucket(s.instanceStatus());
        if (bucket == null || s.utilizationStatus() != UtilizationStatus.AVAILABLE) {
            return null;
        }
        return bucket + "#" + sortable(claimExpiresAt) + "#" + sortable(s.instanceLaunchTime()) + "#" + s.gameServerId();
    }

    /** The server's ByGroupRegistration sort key: registration order, ties in id order. */
    static String registrationSortKey(GameServer s) {
        return sortable(s.registrationTime()) + "#" + s.gameServerId();
    }

    /**
     * A gate's sort key: {@link #GATE_SORT_KEY} and the shards the group's servers can be in,
     * which a claim then reads (and no other), then {@code #} and the group's claim strategy
     * unless it is FLEETIQ (so a FLEETIQ group's gates are as they were before groups had one).
     * The index projects no attribute but the gates' GroupStatus, so the strategy rides in the key.
     */
    static String gateSortKey(int shards, ClaimStrategy strategy) {
        return GATE_SORT_KEY + shards + (strategy == ClaimStrategy.FLEETIQ ? "" : "#" + strategy.name());
    }

    /**
     * The shards a gate's sort key says the group's servers can be in; every shard for a gate
     * written before gates said it (its key is {@link #GATE_SORT_KEY} alone).
     */
    static int gateShards(String gateSortKey) {
        String shards = gateSortKey.substring(GATE_SORT_KEY.length()).split("#", 2)[0];
        return shards.isEmpty() ? Tables.GAME_SERVER_SHARDS : Tables.shardsFor(Integer.parseInt(shards));
    }

    /** The claim strategy a gate's sort key carries: FLEETIQ when it names none. */
    static ClaimStrategy gateStrategy(String gateSortKey) {
        String[] parts = gateSortKey.split("#", 2);
        return parts.length < 2 ? ClaimStrategy.FLEETIQ : ClaimStrategy.valueOf(parts[1]);
    }

    /** The id of the gate item of a group's shard. */
    static String gateId(String group, int shard) {
        return GATE_ID_PREFIX + group + "#" + shard;
    }


    /**
     * A claim candidate as its claim-index entry shows it: the group, and
     * from the sort key its instance's status and launch time, its claim's expiry and its id. It
     * is AVAILABLE (else it would not be indexed); what the entry does not hold (instance id,
     * health, data) is null. The claim's conditional write checks everything against the item.
     */
    static GameServer candidate(String group, String claimSortKey) {
        String[] parts = claimSortKey.split("#", 4);
        String expiry = parts[1];
        return GameServer.builder()
                .gameServerGroupName(group)
                .gameServerId(parts[3])
                .utilizationStatus(UtilizationStatus.AVAILABLE)
                .instanceStatus(parts[0].equals("0") ? InstanceStatus.ACTIVE : InstanceStatus.DRAINING)
                .claimExpiresAt(expiry.equals(NEVER) ? null : Instant.ofEpochMilli(Long.parseLong(expiry)))
                .instanceLaunchTime(Instant.ofEpochMilli(Long.parseLong(parts[2])))
                .build();
    }

    /** The highest key of a bucket whose claim is absent or lapsed at {@code now}. */
    static String claimableUpTo(InstanceStatus status, Instant now) {
        return bucket(status) + "#" + sortable(now) + "#~";
    }

    /**
     * Healthy at {@code :now} for a claim ({@link GameServer#isHealthyAt}): a live health lease, or
     * with none a heartbeat since {@code :cutoff}. {@code #lease} names the lease attribute.
     */
    static final String HEALTHY = "((attribute_not_exists(#lease) AND LastHealthCheckTime >= :cutoff) OR #lease > :now)";
    /** The opposite, for taking a silent server out of the claim index. */
    static final String SILENT = "((attribute_not_exists(#lease) AND LastHealthCheckTime < :cutoff) OR #lease <= :now)";
    static final Map<String, String> LEASE_NAME = Map.of("#lease", PushChannel.HEALTH_LEASE_ATTRIBUTE);

    /** The key of a GameServers item (a game server or a gate). */
    static Map<String, AttributeValue> key(String gameServerId) {
        return Map.of("GameServerId", AttributeValue.fromS(gameServerId));
    }

    /** An instant as the table holds it: epoch milliseconds. */
    /** The session whose claim the server's last claim was; a ClaimGameServer's claim removes it. */
    static final String CLAIM_SESSION_ID = "ClaimSessionId";

    static AttributeValue number(Instant instant) {
        return AttributeValue.fromN(Long.toString(instant.toEpochMilli()));
    }

    /** The item as stored: the server's attributes that are set, and the index keys derived from them. */
    static Map<String, AttributeValue> toItem(GameServer g) {
        return toItem(g, Tables.shardOf(g.gameServerId()));
    }

    /**
     * The item as stored in the given shard of its group. Its registration partition is kept for
     * good: a write that puts the server back into the claim index copies it
     * ({@code SET ClaimPartition = RegistrationPartition}).
     */
    static Map<String, AttributeValue> toItem(GameServer g, int shard) {
        Map<String, AttributeValue> item = new HashMap<>();
        string(item, "GameServerId", g.gameServerId());
        string(item, "GameServerGroupName", g.gameServerGroupName());
        if (g.gameServerGroupName() != null) {
            string(item, "RegistrationPartition", Tables.groupShard(g.gameServerGroupName(), shard));
        }
        millis(item, "RegistrationTime", g.registrationTime());
        if (g.registrationTime() != null) {
            string(item, "RegistrationSortKey", registrationSortKey(g));
        }
        string(item, "InstanceId", g.instanceId());
        string(item, "ConnectionInfo", g.connectionInfo());
        string(item, "GameServerData", g.gameServerData());
        string(item, "UtilizationStatus", g.utilizationStatus() == null ? null : g.utilizationStatus().name());
        millis(item, "ClaimExpiresAt", g.claimExpiresAt());
        millis(item, "LastClaimTime", g.lastClaimTime());
        millis(item, "LastHealthCheckTime", g.lastHealthCheckTime());
        string(item, "InstanceStatus", g.instanceStatus() == null ? null : g.instanceStatus().name());
        millis(item, "InstanceLaunchTime", g.instanceLaunchTime());
        string(item, PushChannel.CONNECTION_ATTRIBUTE, g.pushConnectionId());
        millis(item, PushChannel.HEALTH_LEASE_ATTRIBUTE, g.healthLeaseExpiresAt());
        string(item, CLAIM_SESSION_ID, g.claimSessionId());
        if (g.process() != null) {
            item.putAll(ProcessItems.summary(g.process()));
        }
        String claimSortKey = claimSortKey(g, g.claimExpiresAt());
        if (claimSortKey != null) {
            string(item, "ClaimPartition", Tables.groupShard(g.gameServerGroupName(), shard));
            string(item, "ClaimSortKey", claimSortKey);
        }
        return item;
    }

    /** The server an item holds (the derived index keys are not read back). */
    static GameServer fromItem(Map<String, AttributeValue> item) {
        String utilization = string(item, "UtilizationStatus");
        String instanceStatus = string(item, "InstanceStatus");
        return new GameServer(string(item, "GameServerGroupName"), string(item, "GameServerId"), string(item, "InstanceId"),
                string(item, "ConnectionInfo"), string(item, "GameServerData"),
                utilization == null ? null : UtilizationStatus.valueOf(utilization),
                millis(item, "ClaimExpiresAt"), millis(item, "LastClaimTime"), millis(item, "LastHealthCheckTime"),
                millis(item, "RegistrationTime"),
                instanceStatus == null ? null : InstanceStatus.valueOf(instanceStatus),
                millis(item, "InstanceLaunchTime"), string(item, PushChannel.CONNECTION_ATTRIBUTE),
                millis(item, PushChannel.HEALTH_LEASE_ATTRIBUTE), ProcessItems.summary(item), string(item, CLAIM_SESSION_ID));
    }

    private static void string(Map<String, AttributeValue> item, String name, String value) {
        if (value != null) {
            item.put(name, AttributeValue.fromS(value));
        }
    }

    private static void millis(Map<String, AttributeValue> item, String name, Instant value) {
        if (value != null) {
            item.put(name, AttributeValue.fromN(Long.toString(value.toEpochMilli())));
        }
    }

    private static String string(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null ? null : v.s();
    }

    private static Instant millis(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null || v.n() == null ? null : Instant.ofEpochMilli(Long.parseLong(v.n()));
    }
}

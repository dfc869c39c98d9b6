package io.gamefleet.adapters.dynamodb;

import static io.gamefleet.adapters.dynamodb.Attributes.derived;
import static io.gamefleet.adapters.dynamodb.Attributes.enumeration;
import static io.gamefleet.adapters.dynamodb.Attributes.millis;
import static io.gamefleet.adapters.dynamodb.Attributes.sortable;
import static io.gamefleet.adapters.dynamodb.Attributes.string;
import static software.amazon.awssdk.enhanced.dynamodb.mapper.StaticAttributeTags.primaryPartitionKey;
import static software.amazon.awssdk.enhanced.dynamodb.mapper.StaticAttributeTags.secondaryPartitionKey;
import static software.amazon.awssdk.enhanced.dynamodb.mapper.StaticAttributeTags.secondarySortKey;

import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.UtilizationStatus;
import java.time.Instant;
import software.amazon.awssdk.enhanced.dynamodb.TableSchema;
import software.amazon.awssdk.enhanced.dynamodb.mapper.StaticImmutableTableSchema;

/**
 * GameServers items, keyed by GameServerId alone so that registration is one conditional put
 * that keeps ids unique across groups. Access patterns:
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
 *     removes both attributes. Each shard's partition starts with a gate entry (sort key "!")
 *     that carries the group's status, so the claim query also tells whether the group is ACTIVE.
 *     The index holds the keys and the gates' GroupStatus only: a candidate is read back from its
 *     keys ({@link #candidate}), and heartbeats, which write no key, write no index entry.</li>
 * <li>ByInstance index (keys only): the servers of one instance (draining it, a Spot
 *     interruption, its end), then read by key.</li>
 * </ul>
 */
final class GameServerSchema {
    static final String GATE_SORT_KEY = "!";
    static final String GATE_ID_PREFIX = "#gate#";
    /** A never-claimed server's expiry in its claim-index key. */
    private static final String NEVER = sortable(Instant.EPOCH);

    static final TableSchema<GameServer> SCHEMA = build();

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

    /** The id of the gate item of a group's shard. */
    static String gateId(String group, int shard) {
        return GATE_ID_PREFIX + group + "#" + shard;
    }

    /** The claim-index (and registration-index) partition of a server of the group. */
    static String partition(String group, String gameServerId) {
        return Tables.groupShard(group, Tables.shardOf(gameServerId));
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

    private static TableSchema<GameServer> build() {
        var s = StaticImmutableTableSchema.builder(GameServer.class, GameServer.Builder.class)
                .newItemBuilder(GameServer::builder, GameServer.Builder::build);
        s.addAttribute(String.class, a -> a.name("GameServerId")
                .getter(GameServer::gameServerId).setter(GameServer.Builder::gameServerId)
                .tags(primaryPartitionKey(), secondarySortKey(Tables.SERVERS_BY_INSTANCE_INDEX)));
        string(s, "GameServerGroupName", GameServer::gameServerGroupName, GameServer.Builder::gameServerGroupName);
        derived(s, "RegistrationPartition",
                g -> g.gameServerGroupName() == null ? null : partition(g.gameServerGroupName(), g.gameServerId()),
                secondaryPartitionKey(Tables.SERVERS_BY_GROUP_INDEX));
        s.addAttribute(Long.class, a -> a.name("RegistrationTime")
                .getter(g -> g.registrationTime() == null ? null : g.registrationTime().toEpochMilli())
                .setter((b, v) -> b.registrationTime(v == null ? null : Instant.ofEpochMilli(v))));
        derived(s, "RegistrationSortKey", g -> g.registrationTime() == null ? null : registrationSortKey(g),
                secondarySortKey(Tables.SERVERS_BY_GROUP_INDEX));
        s.addAttribute(String.class, a -> a.name("InstanceId")
                .getter(GameServer::instanceId).setter(GameServer.Builder::instanceId)
                .tags(secondaryPartitionKey(Tables.SERVERS_BY_INSTANCE_INDEX)));
        string(s, "ConnectionInfo", GameServer::connectionInfo, GameServer.Builder::connectionInfo);
        string(s, "GameServerData", GameServer::gameServerData, GameServer.Builder::gameServerData);
        enumeration(s, "UtilizationStatus", UtilizationStatus.class,
                GameServer::utilizationStatus, GameServer.Builder::utilizationStatus);
        millis(s, "ClaimExpiresAt", GameServer::claimExpiresAt, GameServer.Builder::claimExpiresAt);
        millis(s, "LastClaimTime", GameServer::lastClaimTime, GameServer.Builder::lastClaimTime);
        millis(s, "LastHealthCheckTime", GameServer::lastHealthCheckTime, GameServer.Builder::lastHealthCheckTime);
        enumeration(s, "InstanceStatus", InstanceStatus.class, GameServer::instanceStatus, GameServer.Builder::instanceStatus);
        millis(s, "InstanceLaunchTime", GameServer::instanceLaunchTime, GameServer.Builder::instanceLaunchTime);
        derived(s, "ClaimPartition",
                g -> claimSortKey(g, g.claimExpiresAt()) == null ? null : partition(g.gameServerGroupName(), g.gameServerId()),
                secondaryPartitionKey(Tables.CLAIMABLE_INDEX));
        derived(s, "ClaimSortKey", g -> claimSortKey(g, g.claimExpiresAt()), secondarySortKey(Tables.CLAIMABLE_INDEX));
        return s.build();
    }
}

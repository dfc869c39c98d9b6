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
 *     SortOrder; counting UTILIZED servers and purging a deleted group);</li>
 * <li>Claimable index, sparse: only AVAILABLE servers on ACTIVE or DRAINING instances carry
 *     ClaimPartition (the group) and ClaimSortKey
 *     {@code <bucket>#<claim expiry ms>#<instance launch ms>#<id>}: bucket 0 for ACTIVE instances,
 *     1 for DRAINING ones; an unclaimed server's expiry is 0. So one key-range query up to
 *     {@code <bucket>#<now>#~} reads exactly the servers whose claim is absent or lapsed, without
 *     any background job to clear claims: never-claimed servers first, oldest instance first
 *     (packing), then servers whose claim lapsed (a matchmaker gave up on them). Setting UTILIZED
 *     removes both attributes. Each group's partition starts with a gate entry (sort key "!")
 *     that carries the group's status, so the claim query also tells whether the group is ACTIVE.</li>
 * <li>ByInstance index: the servers of one instance (draining it, a Spot interruption, its end).</li>
 * </ul>
 */
final class GameServerSchema {
    static final String GATE_SORT_KEY = "!";
    static final String GATE_ID_PREFIX = "#gate#";

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
        s.addAttribute(String.class, a -> a.name("GameServerGroupName")
                .getter(GameServer::gameServerGroupName).setter(GameServer.Builder::gameServerGroupName)
                .tags(secondaryPartitionKey(Tables.SERVERS_BY_GROUP_INDEX)));
        s.addAttribute(Long.class, a -> a.name("RegistrationTime")
                .getter(g -> g.registrationTime() == null ? null : g.registrationTime().toEpochMilli())
                .setter((b, v) -> b.registrationTime(v == null ? null : Instant.ofEpochMilli(v)))
                .tags(secondarySortKey(Tables.SERVERS_BY_GROUP_INDEX)));
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
                g -> claimSortKey(g, g.claimExpiresAt()) == null ? null : g.gameServerGroupName(),
                secondaryPartitionKey(Tables.CLAIMABLE_INDEX));
        derived(s, "ClaimSortKey", g -> claimSortKey(g, g.claimExpiresAt()), secondarySortKey(Tables.CLAIMABLE_INDEX));
        return s.build();
    }
}

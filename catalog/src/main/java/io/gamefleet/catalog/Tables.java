package io.gamefleet.catalog;

import static io.gamefleet.catalog.KeyAttribute.string;

import io.gamefleet.catalog.IndexDefinition.Projection;
import java.util.List;
import java.util.Optional;

/**
 * The table definitions, once, for the CDK app, the local profile and the tests. The access
 * patterns each key and index serves are written next to the item schemas in io.gamefleet.adapters.dynamodb.
 */
public final class Tables {
    public static final String GROUPS_BY_CREATION_INDEX = "ByCreationTime";
    public static final String SERVERS_BY_GROUP_INDEX = "ByGroupRegistration";
    public static final String CLAIMABLE_INDEX = "Claimable";
    public static final String SERVERS_BY_INSTANCE_INDEX = "ByInstance";
    public static final String INSTANCES_BY_ID_INDEX = "ByInstanceId";
    /** Sparse: the instance holding a push connection ($disconnect names only the connection). */
    public static final String INSTANCES_BY_PUSH_CONNECTION_INDEX = "ByPushConnection";
    /** Sparse: sessions only, a group's newest first (ListSessions). */
    public static final String SESSIONS_BY_GROUP_INDEX = "SessionsByGroup";

    /**
     * The partitions a group's game servers are spread over in the GameServers indexes keyed by
     * group ({@code <group>#<shard>}, see {@link #shardOf}): one partition key takes about 1,000
     * writes per second, and a busy group writes its claim index several times per game (docs/capacity.md).
     */
    public static final int GAME_SERVER_SHARDS = 16;

    /**
     * The partitions a group's sessions are spread over in {@link #SESSIONS_BY_GROUP_INDEX}
     * ({@code <group>#<shard>}, the shard {@link #shardOf(String, int)} of the session id): a
     * session writes one entry, so four take about 4,000 sessions a second, what the claim index
     * takes of a group's games, and a listing reads four partitions (docs/capacity.md).
     */
    public static final int SESSION_SHARDS = 4;

    public static final TableDefinition GAME_SERVER_GROUPS = new TableDefinition(
            "GameServerGroups", "GAMEFLEET_GROUPS_TABLE",
            string("GameServerGroupName"), Optional.empty(),
            List.of(new IndexDefinition(GROUPS_BY_CREATION_INDEX, string("ListPartition"), string("ListSortKey"))),
            Optional.of("ExpiresAt"));

    public static final TableDefinition GAME_SERVERS = new TableDefinition(
            "GameServers", "GAMEFLEET_GAME_SERVERS_TABLE",
            string("GameServerId"), Optional.empty(),
            // No index projects what heartbeats (LastHealthCheckTime) or claims (ClaimExpiresAt,
            // LastClaimTime, GameServerData) write, so a heartbeat writes the item alone and a claim
            // the item and its claim-index entry. Reads that need whole items get them by key.
            List.of(
                    new IndexDefinition(SERVERS_BY_GROUP_INDEX, string("RegistrationPartition"), string("RegistrationSortKey"),
                            Projection.include("UtilizationStatus")),
                    new IndexDefinition(CLAIMABLE_INDEX, string("ClaimPartition"), string("ClaimSortKey"),
                            Projection.include("GroupStatus")),
                    new IndexDefinition(SERVERS_BY_INSTANCE_INDEX, string("InstanceId"), string("GameServerId"),
                            Projection.KEYS_ONLY),
                    // Session items alone carry these keys; they are written once, with the session.
                    new IndexDefinition(SESSIONS_BY_GROUP_INDEX, string("SessionPartition"), string("SessionSortKey"),
                            Projection.KEYS_ONLY)),
            // Only the servers' process items expire: a server's outlives it until then.
            Optional.of("ExpiresAt"));

    public static final TableDefinition GAME_SERVER_INSTANCES = new TableDefinition(
            "GameServerInstances", "GAMEFLEET_INSTANCES_TABLE",
            string("GameServerGroupName"), Optional.of(string("InstanceId")),
            List.of(new IndexDefinition(INSTANCES_BY_ID_INDEX, string("InstanceId"), string("GameServerGroupName")),
                    new IndexDefinition(INSTANCES_BY_PUSH_CONNECTION_INDEX, string(PushChannel.CONNECTION_ATTRIBUTE),
                            string("InstanceId"), Projection.KEYS_ONLY)),
            Optional.empty());

    public static final TableDefinition SPOT_INTERRUPTIONS = new TableDefinition(
            "SpotInterruptions", "GAMEFLEET_SPOT_INTERRUPTIONS_TABLE",
            string("GameServerGroupName"), Optional.of(string("InterruptionKey")),
            List.of(),
            Optional.of("ExpiresAt"));

    public static final List<TableDefinition> ALL =
            List.of(GAME_SERVER_GROUPS, GAME_SERVERS, GAME_SERVER_INSTANCES, SPOT_INTERRUPTIONS);

    private Tables() {}

    /**
     * The shard of a game server: fixed by its id, so every write of the server agrees on it. The
     * id's String hash (the same on every JVM) is mixed (MurmurHash3's finalizer) first: the hash's
     * low bits alone follow the ids' last characters, and ids made from counters would bunch up.
     */
    public static int shardOf(String gameServerId) {
        return shardOf(gameServerId, GAME_SERVER_SHARDS);
    }

    /**
     * The shards a group of at most {@code maxSize} instances spreads its game servers over: one
     * per instance, up to {@link #GAME_SERVER_SHARDS}. A shard's partition takes about 250 games a
     * second (four claim-index writes each), far more than one instance starts; and the fewer a
     * group's shards, the fewer a claimer finds empty.
     */
    public static int shardsFor(int maxSize) {
        return Math.max(1, Math.min(GAME_SERVER_SHARDS, maxSize));
    }

    /** The shard of a game server among {@code shards} (see {@link #shardOf(String)}). */
    public static int shardOf(String gameServerId, int shards) {
        int h = gameServerId.hashCode();
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return Math.floorMod(h, shards);
    }

    /** The partition key of a group's shard in the indexes keyed by group. */
    public static String groupShard(String group, int shard) {
        return group + "#" + shard;
    }
}

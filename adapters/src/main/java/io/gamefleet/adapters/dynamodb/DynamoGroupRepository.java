package io.gamefleet.adapters.dynamodb;

import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.ConcurrentUpdateException;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.GroupRepository;
import io.gamefleet.domain.Page;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbTable;
import software.amazon.awssdk.enhanced.dynamodb.Key;
import software.amazon.awssdk.enhanced.dynamodb.model.QueryConditional;
import software.amazon.awssdk.enhanced.dynamodb.model.QueryEnhancedRequest;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Groups in the GameServerGroups table(). Every write also writes the group's claim gates (its
 * status, in each shard of the GameServers table's claim index) in the same transaction, so claimers learn
 * the status from the query they make anyway. Group writes are rare; claims are not.
 */
public final class DynamoGroupRepository implements GroupRepository {
    private final DynamoDbClient dynamoDb;
    private final Supplier<DynamoDbEnhancedClient> tables;
    private final String tableName;
    /** Made on first use (its schema is built then): a function that never touches the table never pays for it. */
    private volatile DynamoDbTable<GameServerGroup> table;
    private final String gameServersTable;

    public DynamoGroupRepository(DynamoDbClient dynamoDb, DynamoDbEnhancedClient enhanced, TableNames names) {
        this(dynamoDb, () -> enhanced, names);
    }

    /** {@code enhanced} is asked for on the table's first use. */
    public DynamoGroupRepository(DynamoDbClient dynamoDb, Supplier<DynamoDbEnhancedClient> enhanced, TableNames names) {
        this.dynamoDb = dynamoDb;
        this.tables = enhanced;
        this.tableName = names.of(Tables.GAME_SERVER_GROUPS);
        this.gameServersTable = names.of(Tables.GAME_SERVERS);
    }

    private DynamoDbTable<GameServerGroup> table() {
        DynamoDbTable<GameServerGroup> t = table;
        if (t == null) {
            t = tables.get().table(tableName, GroupSchema.SCHEMA);
            table = t;
        }
        return t;
    }

    @Override
    public void create(GameServerGroup group) {
        Put put = Put.builder().tableName(tableName).item(GroupSchema.SCHEMA.itemToMap(group, true))
                .conditionExpression("attribute_not_exists(GameServerGroupName) OR #status = :deleted")
                .expressionAttributeNames(Map.of("#status", "Status"))
                .expressionAttributeValues(Map.of(":deleted", AttributeValue.fromS(GameServerGroupStatus.DELETED.name())))
                .build();
        try {
            dynamoDb.transactWriteItems(t -> t.transactItems(withGates(put, group, Tables.shardsFor(group.maxSize()))));
        } catch (TransactionCanceledException e) {
            if (failedCondition(e)) {
                throw GamefleetException.conflict("a game server group named " + group.name() + " already exists");
            }
            throw new ConcurrentUpdateException("game server group " + group.name());
        }
    }

    @Override
    public Optional<GameServerGroup> find(String name) {
        return Optional.ofNullable(table().getItem(r -> r.key(Key.builder().partitionValue(name).build()).consistentRead(true)));
    }

    /**
     * The name, status, expiry and maximum size alone, through the low-level client: a heartbeat's
     * check of its group decodes none of the group's JSON attributes (nor loads what decodes them).
     */
    @Override
    public Optional<GameServerGroup> findStatus(String name) {
        var response = dynamoDb.getItem(r -> r.tableName(tableName)
                .key(Map.of("GameServerGroupName", AttributeValue.fromS(name))).consistentRead(true)
                .projectionExpression("GameServerGroupName, #status, ExpiresAt, MaxSize")
                .expressionAttributeNames(Map.of("#status", "Status")));
        if (!response.hasItem() || response.item().isEmpty()) {
            return Optional.empty();
        }
        Map<String, AttributeValue> item = response.item();
        AttributeValue expires = item.get("ExpiresAt");
        AttributeValue maxSize = item.get("MaxSize");
        return Optional.of(GameServerGroup.builder().name(item.get("GameServerGroupName").s())
                .maxSize(maxSize == null ? 0 : Integer.parseInt(maxSize.n()))
                .status(GameServerGroupStatus.valueOf(item.get("Status").s()))
                .expiresAt(expires == null ? null : java.time.Instant.ofEpochSecond(Long.parseLong(expires.n())))
                .build());
    }

    @Override
    public GameServerGroup update(GameServerGroup group) {
        GameServerGroup next = group.toBuilder().version(group.version() + 1).build();
        Put put = Put.builder().tableName(tableName).item(GroupSchema.SCHEMA.itemToMap(next, true))
                .conditionExpression("#version = :expected")
                .expressionAttributeNames(Map.of("#version", "Version"))
                .expressionAttributeValues(Map.of(":expected", AttributeValue.fromN(Long.toString(group.version()))))
                .build();
        // Never fewer shards than before: the servers stay in the shards they were written to.
        int shards = Math.max(gateShards(group.name()), Tables.shardsFor(next.maxSize()));
        try {
            dynamoDb.transactWriteItems(t -> t.transactItems(withGates(put, next, shards)));
        } catch (TransactionCanceledException e) {
            throw new ConcurrentUpdateException("game server group " + group.name());
        }
        return next;
    }

    @Override
    public Page<GameServerGroup> list(int limit, Optional<String> cursor) {
        var page = table().index(Tables.GROUPS_BY_CREATION_INDEX).query(QueryEnhancedRequest.builder()
                        .queryConditional(QueryConditional.keyEqualTo(k -> k.partitionValue(GroupSchema.LIST_PARTITION)))
                        .limit(limit)
                        .exclusiveStartKey(Cursors.decode(cursor))
                        .build())
                .iterator().next();
        return new Page<>(page.items(), Cursors.encode(page.lastEvaluatedKey()));
    }

    /**
     * The shards the group's gates say its servers can be in (read before a group's write, which
     * the write's version condition keeps current); every shard when it has no gate.
     */
    private int gateShards(String group) {
        var gate = dynamoDb.getItem(r -> r.tableName(gameServersTable).consistentRead(true)
                .key(GameServerSchema.key(GameServerSchema.gateId(group, 0))).projectionExpression("ClaimSortKey"));
        return gate.hasItem() && gate.item().containsKey("ClaimSortKey")
                ? GameServerSchema.gateShards(gate.item().get("ClaimSortKey").s()) : Tables.GAME_SERVER_SHARDS;
    }

    /**
     * The group's put first (cancellation reasons are read by position), then one gate per shard,
     * each saying that the group's servers are in the first {@code shards}.
     */
    private List<TransactWriteItem> withGates(Put put, GameServerGroup group, int shards) {
        List<TransactWriteItem> items = new ArrayList<>();
        items.add(TransactWriteItem.builder().put(put).build());
        for (int shard = 0; shard < Tables.GAME_SERVER_SHARDS; shard++) {
            items.add(gateWrite(group, shard, shards));
        }
        return items;
    }

    /** A shard's gate entry: present while the group exists, removed when it is DELETED. */
    private TransactWriteItem gateWrite(GameServerGroup group, int shard, int shards) {
        Map<String, AttributeValue> key = Map.of("GameServerId",
                AttributeValue.fromS(GameServerSchema.gateId(group.name(), shard)));
        if (group.status() == GameServerGroupStatus.DELETED) {
            return TransactWriteItem.builder().delete(Delete.builder().tableName(gameServersTable).key(key).build()).build();
        }
        Map<String, AttributeValue> item = new java.util.HashMap<>(key);
        item.put("ClaimPartition", AttributeValue.fromS(Tables.groupShard(group.name(), shard)));
        item.put("ClaimSortKey", AttributeValue.fromS(GameServerSchema.gateSortKey(shards, group.claimStrategy())));
        item.put("GroupStatus", AttributeValue.fromS(group.status().name()));
        return TransactWriteItem.builder().put(Put.builder().tableName(gameServersTable).item(item).build()).build();
    }

    private static boolean failedCondition(TransactionCanceledException e) {
        return e.hasCancellationReasons() && !e.cancellationReasons().isEmpty()
                && "ConditionalCheckFailed".equals(e.cancellationReasons().get(0).code());
    }
}

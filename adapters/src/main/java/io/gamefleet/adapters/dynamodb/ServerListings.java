package io.gamefleet.adapters.dynamodb;

import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.Page;
import io.gamefleet.domain.SortOrder;
import io.gamefleet.domain.UtilizationStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * Listings of game servers: a group's in registration order (the ByGroupRegistration index's
 * shards merged), an instance's (the ByInstance index), then read by key in batches of 100; and
 * the count of a group's UTILIZED servers.
 */
final class ServerListings {
    private final DynamoDbClient dynamoDb;
    private final String tableName;

    ServerListings(DynamoDbClient dynamoDb, String tableName) {
        this.dynamoDb = dynamoDb;
        this.tableName = tableName;
    }

    /**
     * One page of the group's servers in registration order: each shard's next entries after the
     * cursor (the sort key of the last server of the page before), merged, then read by key.
     */
    Page<GameServer> page(String group, SortOrder order, int limit, Optional<String> cursor) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, not " + limit);
        }
        boolean ascending = order == SortOrder.ASCENDING;
        Optional<String> after = Cursors.decode(cursor) == null ? Optional.empty()
                : Optional.ofNullable(Cursors.decode(cursor).get(REGISTRATION_SORT_KEY)).map(AttributeValue::s);
        List<Map<String, AttributeValue>> entries = new ArrayList<>();
        boolean more = false;
        for (int shard = 0; shard < Tables.GAME_SERVER_SHARDS; shard++) {
            Map<String, AttributeValue> values = new HashMap<>();
            values.put(":p", AttributeValue.fromS(Tables.groupShard(group, shard)));
            String condition = "RegistrationPartition = :p";
            if (after.isPresent()) {
                values.put(":after", AttributeValue.fromS(after.get()));
                condition += " AND RegistrationSortKey " + (ascending ? ">" : "<") + " :after";
            }
            String keyCondition = condition;
            QueryResponse response = dynamoDb.query(q -> q.tableName(tableName)
                    .indexName(Tables.SERVERS_BY_GROUP_INDEX)
                    .keyConditionExpression(keyCondition)
                    .expressionAttributeValues(values)
                    .scanIndexForward(ascending)
                    .limit(limit));
            entries.addAll(response.items());
            more |= response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty();
        }
        Comparator<Map<String, AttributeValue>> bySortKey = Comparator.comparing(e -> e.get(REGISTRATION_SORT_KEY).s());
        entries.sort(ascending ? bySortKey : bySortKey.reversed());
        more |= entries.size() > limit;
        List<Map<String, AttributeValue>> page = entries.subList(0, Math.min(limit, entries.size()));
        // A full page carries a cursor, as DynamoDB's own pages do, even when nothing follows.
        Optional<String> next = (more || page.size() == limit) && !page.isEmpty()
                ? Cursors.encode(Map.of(REGISTRATION_SORT_KEY, page.get(page.size() - 1).get(REGISTRATION_SORT_KEY)))
                : Optional.empty();
        return new Page<>(getAll(ids(page), true), next);
    }

    private static final String REGISTRATION_SORT_KEY = "RegistrationSortKey";

    /** Every server of the group, in registration order: the group index's shards merged, then the items. */
    List<GameServer> all(String group) {
        return getAll(ids(registered(group, Integer.MAX_VALUE)), false);
    }

    /** The group's first {@code max} entries of the group index (of each shard, merged), in registration order. */
    private List<Map<String, AttributeValue>> registered(String group, int max) {
        List<Map<String, AttributeValue>> entries = new ArrayList<>();
        Shards.queryAll(shard -> entries(Tables.SERVERS_BY_GROUP_INDEX, "RegistrationPartition",
                Tables.groupShard(group, shard), max)).forEach(entries::addAll);
        entries.sort(Comparator.comparing(e -> e.get(REGISTRATION_SORT_KEY).s()));
        return entries.subList(0, Math.min(max, entries.size()));
    }

    /** The servers of one instance: its ByInstance entries, then the items. */
    List<GameServer> onInstance(String instanceId) {
        return getAll(idsOnInstance(instanceId), false);
    }

    /** The servers of these ids that exist, read eventually consistent. */
    List<GameServer> some(java.util.Collection<String> ids) {
        return getAll(List.copyOf(ids), false);
    }

    /** The ids of one instance's servers, from its ByInstance entries (keys only). */
    List<String> idsOnInstance(String instanceId) {
        return ids(entries(Tables.SERVERS_BY_INSTANCE_INDEX, "InstanceId", instanceId, Integer.MAX_VALUE));
    }

    /** Up to {@code max} entries of an index partition, in index order. */
    private List<Map<String, AttributeValue>> entries(String index, String partitionKey, String partition, int max) {
        List<Map<String, AttributeValue>> ids = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse page = dynamoDb.query(q -> q.tableName(tableName).indexName(index)
                    .keyConditionExpression(partitionKey + " = :p")
                    .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(partition)))
                    .limit(Math.min(max - ids.size(), 1000))
                    .exclusiveStartKey(from));
            ids.addAll(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null && ids.size() < max);
        return ids;
    }

    /** The ids of the group's first {@code max} servers in registration order. */
    List<String> firstRegistered(String group, int max) {
        return ids(registered(group, max));
    }

    private static List<String> ids(List<Map<String, AttributeValue>> entries) {
        return entries.stream().map(e -> e.get("GameServerId").s()).toList();
    }

    /** The servers of {@code ids} that still exist, in the order of {@code ids}. */
    private List<GameServer> getAll(List<String> ids, boolean consistent) {
        return BatchGets.items(dynamoDb, tableName, ids, consistent).stream().map(GameServerSchema::fromItem).toList();
    }

    long countUtilized(String group) {
        return Shards.queryAll(shard -> countUtilizedIn(Tables.groupShard(group, shard))).stream()
                .mapToLong(Long::longValue).sum();
    }

    private long countUtilizedIn(String shardPartition) {
        long count = 0;
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse page = dynamoDb.query(q -> q.tableName(tableName)
                    .indexName(Tables.SERVERS_BY_GROUP_INDEX)
                    .keyConditionExpression("RegistrationPartition = :p")
                    .filterExpression("UtilizationStatus = :utilized")
                    .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(shardPartition),
                            ":utilized", AttributeValue.fromS(UtilizationStatus.UTILIZED.name())))
                    .select(Select.COUNT)
                    .exclusiveStartKey(from));
            count += page.count();
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return count;
    }
}

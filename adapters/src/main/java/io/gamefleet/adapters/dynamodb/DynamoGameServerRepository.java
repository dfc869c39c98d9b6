package io.gamefleet.adapters.dynamodb;

import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerRepository;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.Page;
import io.gamefleet.domain.SortOrder;
import io.gamefleet.domain.UtilizationStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbTable;
import software.amazon.awssdk.enhanced.dynamodb.Key;
import software.amazon.awssdk.enhanced.dynamodb.model.QueryConditional;
import software.amazon.awssdk.enhanced.dynamodb.model.QueryEnhancedRequest;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * Game servers in the GameServers table (see {@link GameServerSchema} for the keys and indexes).
 * Plain reads go through the Enhanced Client. Writes use the low-level client: registration and
 * instance-status moves are transactions (with the group's gate, or up to 100 servers), and claims
 * and updates are UpdateItem expressions (the Enhanced Client has no API for REMOVE or for setting
 * only some attributes under a condition), mapped back through the same table schema.
 */
public final class DynamoGameServerRepository implements GameServerRepository {
    private final DynamoDbClient dynamoDb;
    private final DynamoDbTable<GameServer> table;

    public DynamoGameServerRepository(DynamoDbClient dynamoDb, DynamoDbEnhancedClient enhanced, TableNames names) {
        this.dynamoDb = dynamoDb;
        this.table = enhanced.table(names.of(Tables.GAME_SERVERS), GameServerSchema.SCHEMA);
    }

    /**
     * One transaction: the server is written only while its group's gate says ACTIVE, so a
     * registration racing a deletion cannot leave a server behind in a deleted group.
     */
    @Override
    public void register(GameServer server) {
        ConditionCheck groupActive = ConditionCheck.builder().tableName(table.tableName())
                .key(keyMap(GameServerSchema.GATE_ID_PREFIX + server.gameServerGroupName()))
                .conditionExpression("GroupStatus = :active")
                .expressionAttributeValues(Map.of(":active", AttributeValue.fromS(GameServerGroupStatus.ACTIVE.name())))
                .build();
        Put put = Put.builder().tableName(table.tableName())
                .item(GameServerSchema.SCHEMA.itemToMap(server, true))
                .conditionExpression("attribute_not_exists(GameServerId)")
                .build();
        try {
            dynamoDb.transactWriteItems(t -> t.transactItems(
                    TransactWriteItem.builder().conditionCheck(groupActive).build(),
                    TransactWriteItem.builder().put(put).build()));
        } catch (TransactionCanceledException e) {
            List<CancellationReason> reasons = e.hasCancellationReasons() ? e.cancellationReasons() : List.of();
            if (reasons.size() > 1 && "ConditionalCheckFailed".equals(reasons.get(1).code())) {
                throw GamefleetException.conflict("a game server with id " + server.gameServerId()
                        + " is already registered (ids are unique across all game server groups)");
            }
            if (!reasons.isEmpty() && "ConditionalCheckFailed".equals(reasons.get(0).code())) {
                throw GamefleetException.conflict("game server group " + server.gameServerGroupName()
                        + " stopped being ACTIVE during the registration");
            }
            throw GamefleetException.conflict("game server " + server.gameServerId()
                    + " could not be registered because of a concurrent change; try again");
        }
    }

    @Override
    public Optional<GameServer> find(String gameServerId) {
        return Optional.ofNullable(table.getItem(r -> r.key(key(gameServerId)).consistentRead(true)));
    }

    @Override
    public Page<GameServer> listByGroup(String group, SortOrder order, int limit, Optional<String> cursor) {
        var page = table.index(Tables.SERVERS_BY_GROUP_INDEX).query(QueryEnhancedRequest.builder()
                        .queryConditional(QueryConditional.keyEqualTo(k -> k.partitionValue(group)))
                        .scanIndexForward(order == SortOrder.ASCENDING)
                        .limit(limit)
                        .exclusiveStartKey(Cursors.decode(cursor))
                        .build())
                .iterator().next();
        return new Page<>(page.items(), Cursors.encode(page.lastEvaluatedKey()));
    }

    /** Pages read past servers that stopped reporting health (they stay indexed until swept). */
    private static final int MAX_CANDIDATE_PAGES = 4;

    @Override
    public ClaimCandidates claimCandidates(String group, InstanceStatus instanceStatus, Instant now, Instant healthCutoff,
            int limit) {
        boolean withGate = instanceStatus == InstanceStatus.ACTIVE;
        String from = withGate ? GameServerSchema.GATE_SORT_KEY : GameServerSchema.bucket(instanceStatus) + "#";
        Optional<GameServerGroupStatus> status = Optional.empty();
        List<GameServer> servers = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        for (int page = 0; page < MAX_CANDIDATE_PAGES && servers.isEmpty(); page++) {
            Map<String, AttributeValue> exclusiveStart = start;
            QueryResponse response = dynamoDb.query(q -> q.tableName(table.tableName())
                    .indexName(Tables.CLAIMABLE_INDEX)
                    .keyConditionExpression("ClaimPartition = :group AND ClaimSortKey BETWEEN :from AND :to")
                    // The gate entry has no health time; servers past the cutoff are no candidates.
                    .filterExpression("attribute_not_exists(LastHealthCheckTime) OR LastHealthCheckTime >= :cutoff")
                    .expressionAttributeValues(Map.of(
                            ":group", AttributeValue.fromS(group),
                            ":from", AttributeValue.fromS(from),
                            ":to", AttributeValue.fromS(GameServerSchema.claimableUpTo(instanceStatus, now)),
                            ":cutoff", millis(healthCutoff)))
                    .exclusiveStartKey(exclusiveStart)
                    .limit(withGate ? limit + 1 : limit));
            for (Map<String, AttributeValue> item : response.items()) {
                AttributeValue gateStatus = item.get("GroupStatus");
                if (gateStatus != null) {
                    status = Optional.of(GameServerGroupStatus.valueOf(gateStatus.s()));
                } else {
                    servers.add(GameServerSchema.SCHEMA.mapToItem(item));
                }
            }
            if (!response.hasLastEvaluatedKey() || response.lastEvaluatedKey().isEmpty()) {
                break;
            }
            start = response.lastEvaluatedKey();
        }
        // Room was made for the gate; without one the page holds a server too many.
        return new ClaimCandidates(status, servers.subList(0, Math.min(limit, servers.size())));
    }

    @Override
    public Optional<GameServer> tryClaim(GameServer candidate, ClaimCondition condition, Instant claimExpiresAt,
            Optional<String> gameServerData) {
        // The claimed server's index key: it is AVAILABLE once the condition holds, whatever the
        // candidate was read as. A server on an interrupted instance has none: it is never claimed.
        String sortKey = GameServerSchema.claimSortKey(
                candidate.toBuilder().utilizationStatus(UtilizationStatus.AVAILABLE).build(), claimExpiresAt);
        if (sortKey == null || !condition.instanceStatuses().contains(candidate.instanceStatus())) {
            return Optional.empty();
        }
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":group", AttributeValue.fromS(candidate.gameServerGroupName()));
        values.put(":available", AttributeValue.fromS(UtilizationStatus.AVAILABLE.name()));
        values.put(":now", millis(condition.now()));
        values.put(":cutoff", millis(condition.healthCutoff()));
        values.put(":instanceStatus", AttributeValue.fromS(candidate.instanceStatus().name()));
        values.put(":expires", millis(claimExpiresAt));
        values.put(":sortKey", AttributeValue.fromS(sortKey));
        String setClause = "SET ClaimExpiresAt = :expires, LastClaimTime = :now, ClaimSortKey = :sortKey";
        if (gameServerData.isPresent()) {
            values.put(":data", AttributeValue.fromS(gameServerData.get()));
            setClause += ", GameServerData = :data";
        }
        String expression = setClause;
        try {
            var response = dynamoDb.updateItem(u -> u.tableName(table.tableName())
                    .key(keyMap(candidate.gameServerId()))
                    .updateExpression(expression)
                    .conditionExpression("GameServerGroupName = :group AND UtilizationStatus = :available"
                            + " AND (attribute_not_exists(ClaimExpiresAt) OR ClaimExpiresAt <= :now)"
                            + " AND LastHealthCheckTime >= :cutoff AND InstanceStatus = :instanceStatus")
                    .expressionAttributeValues(values)
                    .returnValues(ReturnValue.ALL_NEW));
            return Optional.of(GameServerSchema.SCHEMA.mapToItem(response.attributes()));
        } catch (ConditionalCheckFailedException e) {
            return Optional.empty();
        }
    }

    @Override
    public Optional<GameServer> update(String group, String gameServerId, Optional<String> requiredInstanceId,
            ServerUpdate update) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":group", AttributeValue.fromS(group));
        List<String> sets = new ArrayList<>();
        String remove = "";
        String condition = "GameServerGroupName = :group";
        if (requiredInstanceId.isPresent()) {
            values.put(":instance", AttributeValue.fromS(requiredInstanceId.get()));
            condition += " AND InstanceId = :instance";
        }
        if (update.gameServerData().isPresent()) {
            values.put(":data", AttributeValue.fromS(update.gameServerData().get()));
            sets.add("GameServerData = :data");
        }
        if (update.healthCheckTime().isPresent()) {
            values.put(":health", millis(update.healthCheckTime().get()));
            sets.add("LastHealthCheckTime = :health");
        }
        if (update.utilizationStatus().isPresent()) {
            UtilizationStatus status = update.utilizationStatus().get();
            values.put(":utilization", AttributeValue.fromS(status.name()));
            sets.add("UtilizationStatus = :utilization");
            if (status == UtilizationStatus.UTILIZED) {
                // In play: no longer claimable, and the claim that led here is spent.
                remove = " REMOVE ClaimPartition, ClaimSortKey, ClaimExpiresAt";
            } else {
                condition += " AND UtilizationStatus = :utilization";
            }
        }
        if (sets.isEmpty()) {
            sets.add("GameServerGroupName = :group");
        }
        String expression = "SET " + String.join(", ", sets) + remove;
        String conditionExpression = condition;
        try {
            var response = dynamoDb.updateItem(u -> u.tableName(table.tableName())
                    .key(keyMap(gameServerId))
                    .updateExpression(expression)
                    .conditionExpression(conditionExpression)
                    .expressionAttributeValues(values)
                    .returnValues(ReturnValue.ALL_NEW));
            return Optional.of(GameServerSchema.SCHEMA.mapToItem(response.attributes()));
        } catch (ConditionalCheckFailedException e) {
            return Optional.empty();
        }
    }

    @Override
    public boolean deregister(String group, String gameServerId, Optional<String> requiredInstanceId) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":group", AttributeValue.fromS(group));
        String condition = "GameServerGroupName = :group";
        if (requiredInstanceId.isPresent()) {
            values.put(":instance", AttributeValue.fromS(requiredInstanceId.get()));
            condition += " AND InstanceId = :instance";
        }
        String conditionExpression = condition;
        try {
            dynamoDb.deleteItem(d -> d.tableName(table.tableName()).key(keyMap(gameServerId))
                    .conditionExpression(conditionExpression).expressionAttributeValues(values));
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    @Override
    public List<GameServer> listAll(String group) {
        List<GameServer> all = new ArrayList<>();
        table.index(Tables.SERVERS_BY_GROUP_INDEX).query(QueryEnhancedRequest.builder()
                        .queryConditional(QueryConditional.keyEqualTo(k -> k.partitionValue(group))).build())
                .forEach(page -> all.addAll(page.items()));
        return all;
    }

    @Override
    public List<GameServer> onInstance(String instanceId) {
        List<GameServer> all = new ArrayList<>();
        table.index(Tables.SERVERS_BY_INSTANCE_INDEX).query(QueryEnhancedRequest.builder()
                        .queryConditional(QueryConditional.keyEqualTo(k -> k.partitionValue(instanceId))).build())
                .forEach(page -> all.addAll(page.items()));
        return all;
    }

    /** TransactWriteItems takes at most 100 actions. */
    private static final int TRANSACTION_LIMIT = 100;

    /**
     * One transaction per 100 servers, each update conditioned on the claim and utilization the
     * server was read with; when a concurrent claim or update cancels it, the servers are moved
     * one by one from a fresh read.
     */
    @Override
    public void setInstanceStatus(List<GameServer> servers, InstanceStatus status) {
        for (int from = 0; from < servers.size(); from += TRANSACTION_LIMIT) {
            List<GameServer> chunk = servers.subList(from, Math.min(servers.size(), from + TRANSACTION_LIMIT));
            if (!moveAsRead(chunk, status)) {
                chunk.forEach(s -> moveOneByOne(s.gameServerId(), status));
            }
        }
    }

    /**
     * One transaction per 100 servers. A refused one undoes those before it, server by server:
     * left SPOT_TERMINATING, their servers would stay out of claims on an instance that keeps running.
     */
    @Override
    public boolean retire(List<GameServer> servers) {
        for (int from = 0; from < servers.size(); from += TRANSACTION_LIMIT) {
            if (!moveAsRead(servers.subList(from, Math.min(servers.size(), from + TRANSACTION_LIMIT)),
                    InstanceStatus.SPOT_TERMINATING)) {
                servers.subList(0, from).forEach(this::unretire);
                return false;
            }
        }
        return true;
    }

    /** Puts a server retire took out of claims back to the status it was read with, while it is still retired. */
    private void unretire(GameServer read) {
        GameServer expected = read.toBuilder().instanceStatus(InstanceStatus.SPOT_TERMINATING).build(); // as retired
        for (int attempt = 0; attempt < 5; attempt++) {
            try {
                write(statusUpdate(expected, read.instanceStatus(), true));
                return;
            } catch (ConditionalCheckFailedException changedMeanwhile) {
                Optional<GameServer> current = find(read.gameServerId());
                if (current.isEmpty() || current.get().instanceStatus() != InstanceStatus.SPOT_TERMINATING) {
                    return; // gone, or moved on by another writer
                }
                expected = current.get(); // updated while retired: put back as it is now
            }
        }
        throw GamefleetException.conflict("game server " + read.gameServerId() + " kept changing while it was put back into claims");
    }

    /** One transaction (at most 100 servers); false, and nothing written, if any server changed since it was read. */
    private boolean moveAsRead(List<GameServer> servers, InstanceStatus status) {
        List<TransactWriteItem> updates = servers.stream()
                .map(s -> TransactWriteItem.builder().update(statusUpdate(s, status, false)).build()).toList();
        try {
            dynamoDb.transactWriteItems(t -> t.transactItems(updates));
            return true;
        } catch (TransactionCanceledException changedMeanwhile) {
            return false;
        }
    }

    private void moveOneByOne(String gameServerId, InstanceStatus status) {
        for (int attempt = 0; attempt < 5; attempt++) {
            Optional<GameServer> current = find(gameServerId);
            if (current.isEmpty() || current.get().instanceStatus() == InstanceStatus.SPOT_TERMINATING) {
                return; // gone, or its instance is being interrupted: that status stays
            }
            try {
                write(statusUpdate(current.get(), status, false));
                return;
            } catch (ConditionalCheckFailedException changedMeanwhile) {
                // read it again and redo
            }
        }
        throw GamefleetException.conflict("game server " + gameServerId + " kept changing while its instance status was set");
    }

    /** One conditional update on its own (ConditionalCheckFailedException when its condition fails). */
    private void write(Update u) {
        dynamoDb.updateItem(r -> r.tableName(u.tableName()).key(u.key()).updateExpression(u.updateExpression())
                .conditionExpression(u.conditionExpression()).expressionAttributeValues(u.expressionAttributeValues()));
    }

    /**
     * The server's instance status and claim-index entry, rewritten together, if the server is
     * as it was read. A server on an interrupted instance never leaves SPOT_TERMINATING, unless
     * {@code fromRetired}: then only a SPOT_TERMINATING one moves (retire's undo).
     */
    private Update statusUpdate(GameServer current, InstanceStatus status, boolean fromRetired) {
        GameServer moved = current.toBuilder().instanceStatus(status).build();
        String sortKey = GameServerSchema.claimSortKey(moved, moved.claimExpiresAt());
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":status", AttributeValue.fromS(status.name()));
        values.put(":utilization", AttributeValue.fromS(current.utilizationStatus().name()));
        values.put(":terminating", AttributeValue.fromS(InstanceStatus.SPOT_TERMINATING.name()));
        String condition = "UtilizationStatus = :utilization AND InstanceStatus " + (fromRetired ? "=" : "<>")
                + " :terminating AND ";
        if (current.claimExpiresAt() == null) {
            condition += "attribute_not_exists(ClaimExpiresAt)";
        } else {
            values.put(":expires", millis(current.claimExpiresAt()));
            condition += "ClaimExpiresAt = :expires";
        }
        String update;
        if (sortKey == null) {
            update = "SET InstanceStatus = :status REMOVE ClaimPartition, ClaimSortKey";
        } else {
            values.put(":sortKey", AttributeValue.fromS(sortKey));
            values.put(":group", AttributeValue.fromS(current.gameServerGroupName()));
            update = "SET InstanceStatus = :status, ClaimSortKey = :sortKey, ClaimPartition = :group";
        }
        return Update.builder().tableName(table.tableName()).key(keyMap(current.gameServerId()))
                .updateExpression(update).conditionExpression(condition).expressionAttributeValues(values).build();
    }

    @Override
    public boolean deleteIfUnhealthy(String gameServerId, Instant cutoff) {
        try {
            dynamoDb.deleteItem(d -> d.tableName(table.tableName()).key(keyMap(gameServerId))
                    .conditionExpression("LastHealthCheckTime < :cutoff")
                    .expressionAttributeValues(Map.of(":cutoff", millis(cutoff))));
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    @Override
    public void delete(String gameServerId) {
        table.deleteItem(key(gameServerId));
    }

    @Override
    public long countUtilized(String group) {
        long count = 0;
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse page = dynamoDb.query(q -> q.tableName(table.tableName())
                    .indexName(Tables.SERVERS_BY_GROUP_INDEX)
                    .keyConditionExpression("GameServerGroupName = :group")
                    .filterExpression("UtilizationStatus = :utilized")
                    .expressionAttributeValues(Map.of(":group", AttributeValue.fromS(group),
                            ":utilized", AttributeValue.fromS(UtilizationStatus.UTILIZED.name())))
                    .select(Select.COUNT)
                    .exclusiveStartKey(from));
            count += page.count();
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return count;
    }

    @Override
    public int deleteSome(String group, int max) {
        List<GameServer> batch = listByGroup(group, SortOrder.ASCENDING, max, Optional.empty()).items();
        batch.forEach(s -> table.deleteItem(key(s.gameServerId())));
        return batch.size();
    }

    private static Key key(String gameServerId) {
        return Key.builder().partitionValue(gameServerId).build();
    }

    private static Map<String, AttributeValue> keyMap(String gameServerId) {
        return Map.of("GameServerId", AttributeValue.fromS(gameServerId));
    }

    private static AttributeValue millis(Instant instant) {
        return AttributeValue.fromN(Long.toString(instant.toEpochMilli()));
    }
}

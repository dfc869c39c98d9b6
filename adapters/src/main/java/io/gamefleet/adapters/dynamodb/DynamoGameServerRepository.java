package io.gamefleet.adapters.dynamodb;

import io.gamefleet.catalog.PushChannel;
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
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * Game servers in the GameServers table (see {@link GameServerSchema} for the keys, indexes and
 * item mapping), through the low-level client: registration and instance-status moves are
 * transactions (with the group's gate, or up to 100 servers), and claims and updates are
 * UpdateItem expressions.
 */
public final class DynamoGameServerRepository implements GameServerRepository {
    private final DynamoDbClient dynamoDb;
    private final String tableName;

    /** Game server items are mapped by hand ({@link GameServerSchema}): no Enhanced Client. */
    public DynamoGameServerRepository(DynamoDbClient dynamoDb, TableNames names) {
        this.dynamoDb = dynamoDb;
        this.tableName = names.of(Tables.GAME_SERVERS);
    }

    /**
     * One transaction: the server is written only while its group's gate (that of the server's
     * shard) says ACTIVE, so a registration racing a deletion cannot leave a server behind in a
     * deleted group.
     */
    @Override
    public void register(GameServer server) {
        ConditionCheck groupActive = ConditionCheck.builder().tableName(tableName)
                .key(keyMap(GameServerSchema.gateId(server.gameServerGroupName(), Tables.shardOf(server.gameServerId()))))
                .conditionExpression("GroupStatus = :active")
                .expressionAttributeValues(Map.of(":active", AttributeValue.fromS(GameServerGroupStatus.ACTIVE.name())))
                .build();
        Put put = Put.builder().tableName(tableName)
                .item(GameServerSchema.toItem(server))
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
        var response = dynamoDb.getItem(r -> r.tableName(tableName).key(keyMap(gameServerId)).consistentRead(true));
        return response.hasItem() && !response.item().isEmpty() ? Optional.of(GameServerSchema.fromItem(response.item()))
                : Optional.empty();
    }

    /**
     * One page of the group's servers in registration order: each shard's next entries after the
     * cursor (the sort key of the last server of the page before), merged, then read by key.
     */
    @Override
    public Page<GameServer> listByGroup(String group, SortOrder order, int limit, Optional<String> cursor) {
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

    /** Up to this many candidates are read from each shard per {@code limit} asked for. */
    private static final int SHARD_READ_FACTOR = 2;

    /**
     * The group's best candidates: each shard's claimable range read from its head, merged. Only
     * the merged entries up to the least last key of the shards that hold more are surely the
     * group's best, so the answer stops there (at {@code limit}). The index does not hold health
     * (heartbeats would write it): {@link #tryClaim} checks it, and takes servers that stopped
     * reporting health out of the index.
     */
    @Override
    public ClaimCandidates claimCandidates(String group, InstanceStatus instanceStatus, Instant now, Instant healthCutoff,
            int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, not " + limit);
        }
        boolean withGate = instanceStatus == InstanceStatus.ACTIVE;
        String bucket = GameServerSchema.bucket(instanceStatus);
        if (bucket == null) {
            return new ClaimCandidates(Optional.empty(), List.of());
        }
        String from = withGate ? GameServerSchema.GATE_SORT_KEY : bucket + "#";
        String to = GameServerSchema.claimableUpTo(instanceStatus, now);
        int perShard = Math.max(2, (SHARD_READ_FACTOR * limit + Tables.GAME_SERVER_SHARDS - 1) / Tables.GAME_SERVER_SHARDS);
        List<QueryResponse> responses = Shards.queryAll(shard -> claimableRange(group, shard, from, to,
                withGate ? perShard + 1 : perShard, null));
        List<List<String>> keys = new ArrayList<>(); // per shard, the sort keys read, in order
        List<Map<String, AttributeValue>> more = new ArrayList<>(); // per shard, where its next page starts (or null)
        int gates = 0;
        GameServerGroupStatus notActive = null;
        for (QueryResponse response : responses) {
            List<String> shardKeys = new ArrayList<>();
            for (Map<String, AttributeValue> item : response.items()) {
                AttributeValue gateStatus = item.get("GroupStatus");
                if (gateStatus != null) {
                    gates++;
                    GameServerGroupStatus status = GameServerGroupStatus.valueOf(gateStatus.s());
                    if (status != GameServerGroupStatus.ACTIVE) {
                        notActive = status;
                    }
                } else {
                    shardKeys.add(item.get("ClaimSortKey").s());
                }
            }
            keys.add(shardKeys);
            more.add(response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
                    ? response.lastEvaluatedKey() : null);
        }
        // Only the keys up to the least last key of the shards that hold more are surely the
        // group's best: while fewer than the limit are, that shard's next page is read.
        List<String> best = merged(keys, more);
        for (int extra = 0; best.size() < limit && extra < MAX_EXTRA_SHARD_PAGES; extra++) {
            int shard = boundaryShard(keys, more);
            if (shard < 0) {
                break;
            }
            QueryResponse next = claimableRange(group, shard, from, to, perShard, more.get(shard));
            next.items().stream().filter(i -> !i.containsKey("GroupStatus"))
                    .forEach(i -> keys.get(shard).add(i.get("ClaimSortKey").s()));
            more.set(shard, next.hasLastEvaluatedKey() && !next.lastEvaluatedKey().isEmpty() ? next.lastEvaluatedKey() : null);
            best = merged(keys, more);
        }
        // All shards' gates are written in one transaction; one that lags still says so.
        Optional<GameServerGroupStatus> status = notActive != null ? Optional.of(notActive)
                : gates == 0 ? Optional.empty()
                : gates < Tables.GAME_SERVER_SHARDS ? Optional.empty() // some not seen yet: ask the group
                : Optional.of(GameServerGroupStatus.ACTIVE);
        return new ClaimCandidates(status, best.stream().limit(limit).map(k -> GameServerSchema.candidate(group, k)).toList());
    }

    /** Pages past the first that one candidate read may add, one shard at a time. */
    private static final int MAX_EXTRA_SHARD_PAGES = 8;

    private QueryResponse claimableRange(String group, int shard, String from, String to, int limit,
            Map<String, AttributeValue> start) {
        return dynamoDb.query(q -> q.tableName(tableName)
                .indexName(Tables.CLAIMABLE_INDEX)
                .keyConditionExpression("ClaimPartition = :p AND ClaimSortKey BETWEEN :from AND :to")
                .expressionAttributeValues(Map.of(
                        ":p", AttributeValue.fromS(Tables.groupShard(group, shard)),
                        ":from", AttributeValue.fromS(from),
                        ":to", AttributeValue.fromS(to)))
                .exclusiveStartKey(start)
                .limit(limit));
    }

    /** The shard with more whose last key read is the least, or -1 when none has more. */
    private static int boundaryShard(List<List<String>> keys, List<Map<String, AttributeValue>> more) {
        int shard = -1;
        for (int s = 0; s < keys.size(); s++) {
            if (more.get(s) != null && !keys.get(s).isEmpty() && (shard < 0
                    || last(keys.get(s)).compareTo(last(keys.get(shard))) < 0)) {
                shard = s;
            }
        }
        return shard;
    }

    /** The keys read that are surely the group's best, in order. */
    private static List<String> merged(List<List<String>> keys, List<Map<String, AttributeValue>> more) {
        int boundary = boundaryShard(keys, more);
        String upTo = boundary < 0 ? null : last(keys.get(boundary));
        return keys.stream().flatMap(List::stream).filter(k -> upTo == null || k.compareTo(upTo) <= 0).sorted().toList();
    }

    private static String last(List<String> keys) {
        return keys.get(keys.size() - 1);
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
            var response = dynamoDb.updateItem(u -> u.tableName(tableName)
                    .key(keyMap(candidate.gameServerId()))
                    .updateExpression(expression)
                    .conditionExpression("GameServerGroupName = :group AND UtilizationStatus = :available"
                            + " AND (attribute_not_exists(ClaimExpiresAt) OR ClaimExpiresAt <= :now)"
                            + " AND LastHealthCheckTime >= :cutoff AND InstanceStatus = :instanceStatus")
                    .expressionAttributeValues(values)
                    .returnValues(ReturnValue.ALL_NEW)
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
            return Optional.of(GameServerSchema.fromItem(response.attributes()));
        } catch (ConditionalCheckFailedException e) {
            if (e.hasItem()) {
                takeOutIfSilent(e.item(), condition);
            }
            return Optional.empty();
        }
    }

    /**
     * A claimable server whose last heartbeat is older than the health timeout leaves the claim
     * index, so claimers stop trying it; its next heartbeat puts it back ({@link #update}). The
     * balancer deregisters it if none comes.
     */
    private void takeOutIfSilent(Map<String, AttributeValue> item, ClaimCondition condition) {
        AttributeValue sortKey = item.get("ClaimSortKey");
        AttributeValue health = item.get("LastHealthCheckTime");
        if (sortKey == null || !item.containsKey("ClaimPartition") || health == null
                || Long.parseLong(health.n()) >= condition.healthCutoff().toEpochMilli()) {
            return;
        }
        try {
            dynamoDb.updateItem(u -> u.tableName(tableName).key(Map.of("GameServerId", item.get("GameServerId")))
                    .updateExpression("REMOVE ClaimPartition, ClaimSortKey")
                    .conditionExpression("ClaimSortKey = :key AND LastHealthCheckTime < :cutoff")
                    .expressionAttributeValues(Map.of(":key", sortKey, ":cutoff", millis(condition.healthCutoff()))));
        } catch (ConditionalCheckFailedException changedMeanwhile) {
            // a heartbeat, claim or other change came first: the server stays as that left it
        }
    }

    /** Puts a server that was taken out of the claim index for its silence back, as it is now. */
    private void putBackIfTakenOut(Map<String, AttributeValue> item, GameServer server) {
        String sortKey = GameServerSchema.claimSortKey(server, server.claimExpiresAt());
        if (sortKey == null || item.containsKey("ClaimPartition")) {
            return;
        }
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":p", AttributeValue.fromS(GameServerSchema.partition(server.gameServerGroupName(), server.gameServerId())));
        values.put(":key", AttributeValue.fromS(sortKey));
        values.put(":available", AttributeValue.fromS(UtilizationStatus.AVAILABLE.name()));
        values.put(":status", AttributeValue.fromS(server.instanceStatus().name()));
        String claim = "attribute_not_exists(ClaimExpiresAt)";
        if (server.claimExpiresAt() != null) {
            values.put(":expires", millis(server.claimExpiresAt()));
            claim = "ClaimExpiresAt = :expires";
        }
        String condition = "attribute_not_exists(ClaimPartition) AND UtilizationStatus = :available"
                + " AND InstanceStatus = :status AND " + claim;
        try {
            dynamoDb.updateItem(u -> u.tableName(tableName).key(keyMap(server.gameServerId()))
                    .updateExpression("SET ClaimPartition = :p, ClaimSortKey = :key")
                    .conditionExpression(condition)
                    .expressionAttributeValues(values));
        } catch (ConditionalCheckFailedException changedMeanwhile) {
            // changed since: whoever changed it wrote its index entry
        }
    }

    /**
     * One conditional UpdateItem. A heartbeat writes LastHealthCheckTime, which no index holds, so
     * it writes the item alone; a server taken out of the claim index for its silence is put back.
     */
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
            var response = dynamoDb.updateItem(u -> u.tableName(tableName)
                    .key(keyMap(gameServerId))
                    .updateExpression(expression)
                    .conditionExpression(conditionExpression)
                    .expressionAttributeValues(values)
                    .returnValues(ReturnValue.ALL_NEW));
            GameServer updated = GameServerSchema.fromItem(response.attributes());
            if (update.healthCheckTime().isPresent()) {
                putBackIfTakenOut(response.attributes(), updated);
            }
            return Optional.of(updated);
        } catch (ConditionalCheckFailedException e) {
            return Optional.empty();
        }
    }

    @Override
    public Optional<GameServer> deregister(String group, String gameServerId, Optional<String> requiredInstanceId) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":group", AttributeValue.fromS(group));
        String condition = "GameServerGroupName = :group";
        if (requiredInstanceId.isPresent()) {
            values.put(":instance", AttributeValue.fromS(requiredInstanceId.get()));
            condition += " AND InstanceId = :instance";
        }
        String conditionExpression = condition;
        try {
            var deleted = dynamoDb.deleteItem(d -> d.tableName(tableName).key(keyMap(gameServerId))
                    .conditionExpression(conditionExpression).expressionAttributeValues(values)
                    .returnValues(ReturnValue.ALL_OLD));
            return Optional.of(GameServerSchema.fromItem(deleted.attributes()));
        } catch (ConditionalCheckFailedException e) {
            return Optional.empty();
        }
    }

    /** The instance's servers from its index (keys only), then one conditional UpdateItem each. */
    @Override
    public void setPushConnection(String instanceId, String connectionId) {
        for (String id : ids(entries(Tables.SERVERS_BY_INSTANCE_INDEX, "InstanceId", instanceId, Integer.MAX_VALUE))) {
            try {
                dynamoDb.updateItem(u -> u.tableName(tableName).key(keyMap(id))
                        .updateExpression("SET #connection = :connection")
                        .conditionExpression("attribute_exists(GameServerId)")
                        .expressionAttributeNames(Map.of("#connection", PushChannel.CONNECTION_ATTRIBUTE))
                        .expressionAttributeValues(Map.of(":connection", AttributeValue.fromS(connectionId))));
            } catch (ConditionalCheckFailedException deregistered) {
                // gone meanwhile: not written again
            }
        }
    }

    /** Every server of the group, in registration order: the group index's shards merged, then the items. */
    @Override
    public List<GameServer> listAll(String group) {
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

    @Override
    public List<GameServer> onInstance(String instanceId) {
        return getAll(ids(entries(Tables.SERVERS_BY_INSTANCE_INDEX, "InstanceId", instanceId, Integer.MAX_VALUE)), false);
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

    private static List<String> ids(List<Map<String, AttributeValue>> entries) {
        return entries.stream().map(e -> e.get("GameServerId").s()).toList();
    }

    /** BatchGetItem takes at most 100 keys. */
    private static final int BATCH_GET_LIMIT = 100;

    /** The servers of {@code ids} that still exist, in the order of {@code ids}. */
    private List<GameServer> getAll(List<String> ids, boolean consistent) {
        Map<String, GameServer> found = new HashMap<>();
        for (int from = 0; from < ids.size(); from += BATCH_GET_LIMIT) {
            List<Map<String, AttributeValue>> keys = ids.subList(from, Math.min(ids.size(), from + BATCH_GET_LIMIT))
                    .stream().map(DynamoGameServerRepository::keyMap).toList();
            Map<String, KeysAndAttributes> request = Map.of(tableName,
                    KeysAndAttributes.builder().keys(keys).consistentRead(consistent).build());
            for (int attempt = 0; !request.isEmpty(); attempt++) {
                if (attempt > 0) {
                    backOff(attempt);
                }
                Map<String, KeysAndAttributes> asked = request;
                BatchGetItemResponse response = dynamoDb.batchGetItem(b -> b.requestItems(asked));
                response.responses().getOrDefault(tableName, List.of()).forEach(item -> {
                    GameServer server = GameServerSchema.fromItem(item);
                    found.put(server.gameServerId(), server);
                });
                request = response.hasUnprocessedKeys() ? response.unprocessedKeys() : Map.of();
            }
        }
        return ids.stream().map(found::get).filter(java.util.Objects::nonNull).toList();
    }

    private static void backOff(int attempt) {
        try {
            Thread.sleep(Math.min(1000, 20L << Math.min(attempt, 6)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading game servers", e);
        }
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
            values.put(":partition", AttributeValue.fromS(
                    GameServerSchema.partition(current.gameServerGroupName(), current.gameServerId())));
            update = "SET InstanceStatus = :status, ClaimSortKey = :sortKey, ClaimPartition = :partition";
        }
        return Update.builder().tableName(tableName).key(keyMap(current.gameServerId()))
                .updateExpression(update).conditionExpression(condition).expressionAttributeValues(values).build();
    }

    @Override
    public boolean deleteIfUnhealthy(String gameServerId, Instant cutoff) {
        try {
            dynamoDb.deleteItem(d -> d.tableName(tableName).key(keyMap(gameServerId))
                    .conditionExpression("LastHealthCheckTime < :cutoff")
                    .expressionAttributeValues(Map.of(":cutoff", millis(cutoff))));
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    @Override
    public void delete(String gameServerId) {
        dynamoDb.deleteItem(d -> d.tableName(tableName).key(keyMap(gameServerId)));
    }

    @Override
    public long countUtilized(String group) {
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

    @Override
    public int deleteSome(String group, int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1, not " + max);
        }
        List<String> batch = ids(registered(group, max));
        batch.forEach(this::delete);
        return batch.size();
    }

    private static Map<String, AttributeValue> keyMap(String gameServerId) {
        return Map.of("GameServerId", AttributeValue.fromS(gameServerId));
    }

    private static AttributeValue millis(Instant instant) {
        return AttributeValue.fromN(Long.toString(instant.toEpochMilli()));
    }
}

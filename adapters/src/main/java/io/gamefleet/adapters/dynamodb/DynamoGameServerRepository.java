package io.gamefleet.adapters.dynamodb;

import io.gamefleet.catalog.PushChannel;
import io.gamefleet.catalog.Tables;
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
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/**
 * Game servers in the GameServers table (see {@link GameServerSchema} for the keys, indexes and
 * item mapping), through the low-level client: registration and instance-status moves are
 * transactions (with the group's gate and the instance's count, or up to 100 servers), and claims
 * and updates are UpdateItem expressions. Each instance's count of servers is {@link InstanceCounts}.
 */
public final class DynamoGameServerRepository implements GameServerRepository {
    private final DynamoDbClient dynamoDb;
    private final String tableName;
    private final ClaimIndex claimIndex;
    private final InstanceStatusMoves moves;
    private final ServerListings listings;
    private final HealthLeases leases;
    private final InstanceCounts counts;
    private final ProcessItems processes;

    /** Game server items are mapped by hand ({@link GameServerSchema}): no Enhanced Client. */
    public DynamoGameServerRepository(DynamoDbClient dynamoDb, TableNames names) {
        this.dynamoDb = dynamoDb;
        this.tableName = names.of(Tables.GAME_SERVERS);
        this.claimIndex = new ClaimIndex(dynamoDb, tableName);
        this.moves = new InstanceStatusMoves(dynamoDb, tableName, this::find);
        this.listings = new ServerListings(dynamoDb, tableName);
        this.processes = new ProcessItems(dynamoDb, tableName);
        this.leases = new HealthLeases(dynamoDb, tableName, this::putBackIfTakenOut, processes);
        this.counts = new InstanceCounts(dynamoDb, tableName);
    }

    /**
     * One transaction: the server is written only while its group's gate (that of the server's
     * shard) says ACTIVE, so a registration racing a deletion cannot leave a server behind in a
     * deleted group, and only while its instance holds fewer than {@code maxOnInstance}, whose
     * count takes it in the same transaction ({@link InstanceCounts#take}). In a shard of
     * {@link Tables#shardsFor}{@code (groupMaxSize)}, which every later write keeps.
     */
    @Override
    public void register(GameServer server, int groupMaxSize, int maxOnInstance) {
        int shard = Tables.shardOf(server.gameServerId(), Tables.shardsFor(groupMaxSize));
        ConditionCheck groupActive = ConditionCheck.builder().tableName(tableName)
                .key(GameServerSchema.key(GameServerSchema.gateId(server.gameServerGroupName(), shard)))
                .conditionExpression("GroupStatus = :active")
                .expressionAttributeValues(Map.of(":active", AttributeValue.fromS(GameServerGroupStatus.ACTIVE.name())))
                .build();
        Map<String, AttributeValue> item = new HashMap<>(GameServerSchema.toItem(server, shard));
        item.put(InstanceCounts.COUNTED, AttributeValue.fromBool(true));
        Put put = Put.builder().tableName(tableName)
                .item(item)
                .conditionExpression("attribute_not_exists(GameServerId)")
                .build();
        for (int attempt = 1; ; attempt++) {
            try {
                dynamoDb.transactWriteItems(t -> t.transactItems(
                        TransactWriteItem.builder().conditionCheck(groupActive).build(),
                        TransactWriteItem.builder().put(put).build(),
                        counts.take(server.instanceId(), maxOnInstance)));
                return;
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
                if (reasons.size() > 2 && "ConditionalCheckFailed".equals(reasons.get(2).code())) {
                    throw GamefleetException.limitExceeded("instance " + server.instanceId() + " has " + maxOnInstance
                            + " game servers registered, the most one instance may have; deregister one first");
                }
                if (!InstanceCounts.conflicted(reasons) || attempt == InstanceCounts.ATTEMPTS) {
                    throw GamefleetException.conflict("game server " + server.gameServerId()
                            + " could not be registered because of a concurrent change; try again");
                }
                InstanceCounts.pause(attempt); // another registration of the instance was writing its count
            }
        }
    }

    @Override
    public Optional<GameServer> find(String gameServerId) {
        var response = dynamoDb.getItem(r -> r.tableName(tableName).key(GameServerSchema.key(gameServerId)).consistentRead(true));
        return response.hasItem() && !response.item().isEmpty() ? Optional.of(GameServerSchema.fromItem(response.item()))
                : Optional.empty();
    }

    /** One page of the group's servers in registration order ({@link ServerListings#page}). */
    @Override
    public Page<GameServer> listByGroup(String group, SortOrder order, int limit, Optional<String> cursor) {
        return listings.page(group, order, limit, cursor);
    }

    /**
     * The group's best candidates, every shard's head merged ({@link ClaimIndex#best}). The index
     * does not hold health (heartbeats would write it): {@link #tryClaim} checks it, and takes
     * servers that stopped reporting health out of the index.
     */
    @Override
    public ClaimCandidates claimCandidates(String group, InstanceStatus instanceStatus, Instant now, Instant healthCutoff,
            int limit) {
        return claimIndex.best(group, instanceStatus, now, limit);
    }

    /** Candidates from one shard in one Query, once this container read the group ({@link ClaimIndex#some}). */
    @Override
    public ClaimCandidates someClaimCandidates(String group, InstanceStatus instanceStatus, Instant now,
            Instant healthCutoff, int limit) {
        return claimIndex.some(group, instanceStatus, now, limit);
    }

    @Override
    public Optional<GameServer> tryClaim(GameServer candidate, ClaimCondition condition, Instant claimExpiresAt,
            Optional<String> gameServerData) {
        Optional<Update> claim = claimUpdate(candidate, condition, claimExpiresAt, gameServerData, Optional.empty());
        if (claim.isEmpty()) {
            return Optional.empty();
        }
        Update u = claim.get();
        try {
            var response = dynamoDb.updateItem(r -> r.tableName(u.tableName()).key(u.key())
                    .updateExpression(u.updateExpression())
                    .conditionExpression(u.conditionExpression())
                    .expressionAttributeNames(u.expressionAttributeNames())
                    .expressionAttributeValues(u.expressionAttributeValues())
                    .returnValues(ReturnValue.ALL_NEW)
                    .returnValuesOnConditionCheckFailure(u.returnValuesOnConditionCheckFailure()));
            tried(candidate, condition, Map.of());
            return Optional.of(GameServerSchema.fromItem(response.attributes()));
        } catch (ConditionalCheckFailedException e) {
            tried(candidate, condition, e.hasItem() ? e.item() : Map.of()); // taken by another, or no longer claimable
            return Optional.empty();
        }
    }

    /**
     * A claim's conditional write of the candidate (what {@link #tryClaim} writes, and a session's
     * transaction with it: {@link DynamoSessionRepository}), returning the item as it was when the
     * condition fails; empty when the candidate can never be claimed so. A session's claim leaves
     * the session's id on the server ({@code sessionId}); any other claim removes the last one's,
     * so that no claim shows an older session.
     */
    Optional<Update> claimUpdate(GameServer candidate, ClaimCondition condition, Instant claimExpiresAt,
            Optional<String> gameServerData, Optional<String> sessionId) {
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
        values.put(":now", GameServerSchema.number(condition.now()));
        values.put(":cutoff", GameServerSchema.number(condition.healthCutoff()));
        values.put(":instanceStatus", AttributeValue.fromS(candidate.instanceStatus().name()));
        values.put(":expires", GameServerSchema.number(claimExpiresAt));
        values.put(":sortKey", AttributeValue.fromS(sortKey));
        String setClause = "SET ClaimExpiresAt = :expires, LastClaimTime = :now, ClaimSortKey = :sortKey";
        if (gameServerData.isPresent()) {
            values.put(":data", AttributeValue.fromS(gameServerData.get()));
            setClause += ", GameServerData = :data";
        }
        if (sessionId.isPresent()) {
            values.put(":session", AttributeValue.fromS(sessionId.get()));
            setClause += ", " + GameServerSchema.CLAIM_SESSION_ID + " = :session";
        } else {
            setClause += " REMOVE " + GameServerSchema.CLAIM_SESSION_ID;
        }
        String notRetiring = "";
        if (condition.retiringLaunchedBy().isPresent()) {
            // On an instance that is retiring (launched at or before the cutoff), no claim lands.
            values.put(":retiring", GameServerSchema.number(condition.retiringLaunchedBy().get()));
            notRetiring = " AND (attribute_not_exists(InstanceLaunchTime) OR InstanceLaunchTime > :retiring)";
        }
        String claimable = "GameServerGroupName = :group AND UtilizationStatus = :available"
                + " AND (attribute_not_exists(ClaimExpiresAt) OR ClaimExpiresAt <= :now)"
                + " AND " + GameServerSchema.HEALTHY + " AND InstanceStatus = :instanceStatus" + notRetiring;
        return Optional.of(Update.builder().tableName(tableName)
                .key(GameServerSchema.key(candidate.gameServerId()))
                .updateExpression(setClause)
                .conditionExpression(claimable)
                .expressionAttributeNames(GameServerSchema.LEASE_NAME)
                .expressionAttributeValues(values)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .build());
    }

    /**
     * After a claim's write of the candidate, claimed or not ({@code refused}: the item as the
     * failed condition found it, or empty): the claim index learns it was tried, and a server that
     * stopped reporting health leaves it.
     */
    void tried(GameServer candidate, ClaimCondition condition, Map<String, AttributeValue> refused) {
        claimIndex.tried(candidate.gameServerGroupName(), candidate);
        if (!refused.isEmpty()) {
            takeOutIfSilent(refused, condition);
        }
    }

    /**
     * A claimable server whose last heartbeat is older than the health timeout leaves the claim
     * index, so claimers stop trying it; its next heartbeat puts it back ({@link #update}). The
     * balancer deregisters it if none comes.
     */
    private void takeOutIfSilent(Map<String, AttributeValue> item, ClaimCondition condition) {
        AttributeValue sortKey = item.get("ClaimSortKey");
        if (sortKey == null || !item.containsKey("ClaimPartition") || !item.containsKey("LastHealthCheckTime")
                || GameServerSchema.fromItem(item).isHealthyAt(condition.now(), condition.healthCutoff())) {
            return;
        }
        try {
            dynamoDb.updateItem(u -> u.tableName(tableName).key(Map.of("GameServerId", item.get("GameServerId")))
                    .updateExpression("REMOVE ClaimPartition, ClaimSortKey")
                    .conditionExpression("ClaimSortKey = :key AND " + GameServerSchema.SILENT)
                    .expressionAttributeNames(GameServerSchema.LEASE_NAME)
                    .expressionAttributeValues(Map.of(":key", sortKey, ":cutoff", GameServerSchema.number(condition.healthCutoff()),
                            ":now", GameServerSchema.number(condition.now()))));
        } catch (ConditionalCheckFailedException changedMeanwhile) {
            // a heartbeat, claim or other change came first: the server stays as that left it
        }
    }

    /** Puts a server that was taken out of the claim index for its silence back, as it is now. */
    void putBackIfTakenOut(Map<String, AttributeValue> item, GameServer server) {
        String sortKey = GameServerSchema.claimSortKey(server, server.claimExpiresAt());
        if (sortKey == null || item.containsKey("ClaimPartition")) {
            return;
        }
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":key", AttributeValue.fromS(sortKey));
        values.put(":available", AttributeValue.fromS(UtilizationStatus.AVAILABLE.name()));
        values.put(":status", AttributeValue.fromS(server.instanceStatus().name()));
        String claim = "attribute_not_exists(ClaimExpiresAt)";
        if (server.claimExpiresAt() != null) {
            values.put(":expires", GameServerSchema.number(server.claimExpiresAt()));
            claim = "ClaimExpiresAt = :expires";
        }
        String condition = "attribute_not_exists(ClaimPartition) AND UtilizationStatus = :available"
                + " AND InstanceStatus = :status AND " + claim;
        try {
            dynamoDb.updateItem(u -> u.tableName(tableName).key(GameServerSchema.key(server.gameServerId()))
                    .updateExpression("SET ClaimPartition = RegistrationPartition, ClaimSortKey = :key")
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
        List<String> removes = new ArrayList<>();
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
            values.put(":health", GameServerSchema.number(update.healthCheckTime().get()));
            sets.add("LastHealthCheckTime = :health");
            removes.add(PushChannel.HEALTH_LEASE_ATTRIBUTE); // a heartbeat through the API: out of lease mode
        }
        if (update.utilizationStatus().isPresent()) {
            UtilizationStatus status = update.utilizationStatus().get();
            values.put(":utilization", AttributeValue.fromS(status.name()));
            sets.add("UtilizationStatus = :utilization");
            if (status == UtilizationStatus.UTILIZED) {
                // In play: no longer claimable, and the claim that led here is spent.
                removes.addAll(List.of("ClaimPartition", "ClaimSortKey", "ClaimExpiresAt"));
            } else {
                condition += " AND UtilizationStatus = :utilization";
            }
        }
        if (sets.isEmpty()) {
            sets.add("GameServerGroupName = :group");
        }
        String expression = "SET " + String.join(", ", sets) + (removes.isEmpty() ? "" : " REMOVE " + String.join(", ", removes));
        String conditionExpression = condition;
        try {
            var response = dynamoDb.updateItem(u -> u.tableName(tableName)
                    .key(GameServerSchema.key(gameServerId))
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
        return counts.delete(gameServerId, Optional.of(condition), Map.of(), values).map(GameServerSchema::fromItem);
    }

    /** One BatchGetItem per 100, eventually consistent: half a read unit per item ({@link ServerListings#some}). */
    @Override
    public List<GameServer> findSome(java.util.Collection<String> gameServerIds) {
        return listings.some(gameServerIds);
    }

    @Override
    public Optional<GameServer> setHealthLease(String group, String gameServerId, String instanceId, HealthLease lease) {
        return leases.set(group, gameServerId, instanceId, lease);
    }

    /** One GetItem of the server's process item ({@link ProcessItems#find}). */
    @Override
    public Optional<GameServerProcess> findProcess(GameServer server) {
        return processes.find(server);
    }

    @Override
    public void endHealthLeases(String instanceId, Instant now) {
        leases.endAll(onInstance(instanceId), now);
    }

    /** The instance's servers from its index (keys only), then one conditional UpdateItem each. */
    @Override
    public void setPushConnection(String instanceId, String connectionId) {
        for (String id : listings.idsOnInstance(instanceId)) {
            try {
                dynamoDb.updateItem(u -> u.tableName(tableName).key(GameServerSchema.key(id))
                        .updateExpression("SET #connection = :connection")
                        .conditionExpression("attribute_exists(GameServerId)")
                        .expressionAttributeNames(Map.of("#connection", PushChannel.CONNECTION_ATTRIBUTE))
                        .expressionAttributeValues(Map.of(":connection", AttributeValue.fromS(connectionId))));
            } catch (ConditionalCheckFailedException deregistered) {
                // gone meanwhile: not written again
            }
        }
    }

    /** One conditional UpdateItem: the copy is removed only while it is still that connection. */
    @Override
    public boolean clearPushConnection(String gameServerId, String connectionId) {
        try {
            dynamoDb.updateItem(u -> u.tableName(tableName).key(GameServerSchema.key(gameServerId))
                    .updateExpression("REMOVE #connection")
                    .conditionExpression("#connection = :connection")
                    .expressionAttributeNames(Map.of("#connection", PushChannel.CONNECTION_ATTRIBUTE))
                    .expressionAttributeValues(Map.of(":connection", AttributeValue.fromS(connectionId))));
            return true;
        } catch (ConditionalCheckFailedException replacedOrGone) {
            return false;
        }
    }

    /** Every server of the group, in registration order: the group index's shards merged, then the items. */
    @Override
    public List<GameServer> listAll(String group) {
        return listings.all(group);
    }

    @Override
    public List<GameServer> onInstance(String instanceId) {
        return listings.onInstance(instanceId);
    }

    /** One transaction per 100 servers as read ({@link InstanceStatusMoves#setInstanceStatus}). */
    @Override
    public void setInstanceStatus(List<GameServer> servers, InstanceStatus status) {
        moves.setInstanceStatus(servers, status);
    }

    /** One transaction per 100 servers, undone server by server if one is refused ({@link InstanceStatusMoves#retire}). */
    @Override
    public boolean retire(List<GameServer> servers) {
        return moves.retire(servers);
    }

    @Override
    public boolean deleteIfUnhealthy(String gameServerId, Instant cutoff) {
        return counts.delete(gameServerId,
                Optional.of("(attribute_not_exists(#lease) AND LastHealthCheckTime < :cutoff) OR #lease < :cutoff"),
                GameServerSchema.LEASE_NAME, Map.of(":cutoff", GameServerSchema.number(cutoff))).isPresent();
    }

    @Override
    public void delete(String gameServerId) {
        counts.delete(gameServerId, Optional.empty(), Map.of(), Map.of());
    }

    @Override
    public void forgetInstance(String instanceId) {
        counts.forget(instanceId);
    }

    @Override
    public long countUtilized(String group) {
        return listings.countUtilized(group);
    }

    @Override
    public int deleteSome(String group, int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1, not " + max);
        }
        List<String> batch = listings.firstRegistered(group, max);
        batch.forEach(this::delete);
        return batch.size();
    }
}

package io.gamefleet.adapters.dynamodb;

import io.gamefleet.catalog.PushChannel;
import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.InstanceRepository;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.Page;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbTable;
import software.amazon.awssdk.enhanced.dynamodb.Expression;
import software.amazon.awssdk.enhanced.dynamodb.Key;
import software.amazon.awssdk.enhanced.dynamodb.model.PutItemEnhancedRequest;
import software.amazon.awssdk.enhanced.dynamodb.model.QueryConditional;
import software.amazon.awssdk.enhanced.dynamodb.model.QueryEnhancedRequest;
import software.amazon.awssdk.enhanced.dynamodb.model.ReadBatch;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/** Instances in the GameServerInstances table (see {@link InstanceSchema}). */
public final class DynamoInstanceRepository implements InstanceRepository {
    private final DynamoDbClient dynamoDb;
    private final Supplier<DynamoDbEnhancedClient> enhanced;
    private final String tableName;
    /** Made on first use (its schema is built then): a function that never touches the table never pays for it. */
    private volatile DynamoDbTable<GameServerInstance> table;

    public DynamoInstanceRepository(DynamoDbClient dynamoDb, DynamoDbEnhancedClient enhanced, TableNames names) {
        this(dynamoDb, () -> enhanced, names);
    }

    /** {@code enhanced} is asked for on the table's first use. */
    public DynamoInstanceRepository(DynamoDbClient dynamoDb, Supplier<DynamoDbEnhancedClient> enhanced, TableNames names) {
        this.dynamoDb = dynamoDb;
        this.enhanced = enhanced;
        this.tableName = names.of(Tables.GAME_SERVER_INSTANCES);
    }

    private DynamoDbTable<GameServerInstance> table() {
        DynamoDbTable<GameServerInstance> t = table;
        if (t == null) {
            t = enhanced.get().table(tableName, InstanceSchema.SCHEMA);
            table = t;
        }
        return t;
    }

    @Override
    public Optional<GameServerInstance> find(String group, String instanceId) {
        return Optional.ofNullable(table().getItem(r -> r.key(key(group, instanceId)).consistentRead(true)));
    }

    /** An eventually consistent read: half the read units, on the group's one partition key. */
    @Override
    public Optional<GameServerInstance> findRecent(String group, String instanceId) {
        return Optional.ofNullable(table().getItem(r -> r.key(key(group, instanceId)).consistentRead(false)));
    }

    /** One BatchGetItem (the API allows at most 20 ids); ids that are not the group's are left out. */
    @Override
    public List<GameServerInstance> findAll(String group, List<String> instanceIds) {
        ReadBatch.Builder<GameServerInstance> batch = ReadBatch.builder(GameServerInstance.class).mappedTableResource(table());
        instanceIds.stream().distinct().forEach(id -> batch.addGetItem(key(group, id)));
        return enhanced.get().batchGetItem(r -> r.readBatches(batch.build())).resultsForTable(table()).stream()
                .sorted(java.util.Comparator.comparing(GameServerInstance::instanceId))
                .toList();
    }

    @Override
    public Page<GameServerInstance> list(String group, int limit, Optional<String> cursor) {
        var page = table().query(QueryEnhancedRequest.builder()
                        .queryConditional(QueryConditional.keyEqualTo(k -> k.partitionValue(group)))
                        .limit(limit)
                        .exclusiveStartKey(Cursors.decode(cursor))
                        .build())
                .iterator().next();
        return new Page<>(page.items(), Cursors.encode(page.lastEvaluatedKey()));
    }

    @Override
    public List<GameServerInstance> listAll(String group) {
        List<GameServerInstance> all = new java.util.ArrayList<>();
        table().query(QueryEnhancedRequest.builder()
                        .queryConditional(QueryConditional.keyEqualTo(k -> k.partitionValue(group))).build())
                .items().forEach(all::add);
        return all;
    }

    @Override
    public Optional<GameServerInstance> findById(String instanceId) {
        return table().index(Tables.INSTANCES_BY_ID_INDEX).query(QueryEnhancedRequest.builder()
                        .queryConditional(QueryConditional.keyEqualTo(k -> k.partitionValue(instanceId))).limit(1).build())
                .iterator().next().items().stream().findFirst();
    }

    @Override
    public void delete(String group, String instanceId) {
        table().deleteItem(key(group, instanceId));
    }

    @Override
    public void save(GameServerInstance instance) {
        table().putItem(instance);
    }

    @Override
    public void addIfAbsent(GameServerInstance instance) {
        try {
            table().putItem(PutItemEnhancedRequest.builder(GameServerInstance.class).item(instance)
                    .conditionExpression(Expression.builder().expression("attribute_not_exists(InstanceId)").build())
                    .build());
        } catch (ConditionalCheckFailedException alreadyRecorded) {
            // kept as it is: its status may have moved on since
        }
    }

    @Override
    public boolean changeStatus(String group, String instanceId, InstanceStatus from, InstanceStatus to,
            boolean replacementRequested) {
        try {
            dynamoDb.updateItem(u -> u.tableName(tableName).key(keyMap(group, instanceId))
                    .updateExpression("SET InstanceStatus = :to, ReplacementRequested = :replacement")
                    .conditionExpression("InstanceStatus = :from")
                    .expressionAttributeValues(Map.of(":to", AttributeValue.fromS(to.name()),
                            ":from", AttributeValue.fromS(from.name()),
                            ":replacement", AttributeValue.fromBool(replacementRequested))));
            return true;
        } catch (ConditionalCheckFailedException changed) {
            return false;
        }
    }

    /** A record written before the attribute existed has none: it stands for false. */
    @Override
    public boolean setReplacementRequested(String group, String instanceId, boolean requested) {
        String unlessSo = requested
                ? "attribute_exists(InstanceId) AND (attribute_not_exists(ReplacementRequested) OR ReplacementRequested = :other)"
                : "ReplacementRequested = :other";
        try {
            dynamoDb.updateItem(u -> u.tableName(tableName).key(keyMap(group, instanceId))
                    .updateExpression("SET ReplacementRequested = :requested")
                    .conditionExpression(unlessSo)
                    .expressionAttributeValues(Map.of(":requested", AttributeValue.fromBool(requested),
                            ":other", AttributeValue.fromBool(!requested))));
            return true;
        } catch (ConditionalCheckFailedException alreadySoOrGone) {
            return false;
        }
    }

    @Override
    public boolean recordPushConnection(String group, String instanceId, String connectionId, Instant connectedAt,
            OptionalInt qosPort) {
        Map<String, AttributeValue> values = new HashMap<>(Map.of(":connection", AttributeValue.fromS(connectionId),
                ":connectedAt", AttributeValue.fromN(Long.toString(connectedAt.toEpochMilli()))));
        qosPort.ifPresent(port -> values.put(":qosPort", AttributeValue.fromN(Integer.toString(port))));
        return updateConnection(group, instanceId, "SET #connection = :connection, #connectedAt = :connectedAt"
                + (qosPort.isPresent() ? ", #qosPort = :qosPort" : " REMOVE #qosPort"), "attribute_exists(InstanceId)", values);
    }

    @Override
    public boolean clearPushConnection(String group, String instanceId, String connectionId) {
        return updateConnection(group, instanceId, "REMOVE #connection, #connectedAt, #qosPort", "#connection = :connection",
                Map.of(":connection", AttributeValue.fromS(connectionId)));
    }

    /** One conditional UpdateItem of the instance's connection (and its time and beacon port): false when the condition failed. */
    private boolean updateConnection(String group, String instanceId, String update, String condition,
            Map<String, AttributeValue> values) {
        try {
            dynamoDb.updateItem(u -> u.tableName(tableName).key(keyMap(group, instanceId))
                    .updateExpression(update)
                    .conditionExpression(condition)
                    .expressionAttributeNames(Map.of("#connection", PushChannel.CONNECTION_ATTRIBUTE,
                            "#connectedAt", PushChannel.CONNECTED_AT_ATTRIBUTE, "#qosPort", PushChannel.QOS_PORT_ATTRIBUTE))
                    .expressionAttributeValues(values));
            return true;
        } catch (ConditionalCheckFailedException notRecordedOrReplaced) {
            return false;
        }
    }

    /** The index holds the keys only: the instance is read back by them. */
    @Override
    public Optional<GameServerInstance> findByPushConnection(String connectionId) {
        var entries = dynamoDb.query(q -> q.tableName(tableName).indexName(Tables.INSTANCES_BY_PUSH_CONNECTION_INDEX)
                .keyConditionExpression("#connection = :connection")
                .expressionAttributeNames(Map.of("#connection", PushChannel.CONNECTION_ATTRIBUTE))
                .expressionAttributeValues(Map.of(":connection", AttributeValue.fromS(connectionId)))
                .limit(1)).items();
        return entries.stream().findFirst()
                .flatMap(e -> find(e.get("GameServerGroupName").s(), e.get("InstanceId").s()));
    }

    private static Map<String, AttributeValue> keyMap(String group, String instanceId) {
        return Map.of("GameServerGroupName", AttributeValue.fromS(group), "InstanceId", AttributeValue.fromS(instanceId));
    }

    @Override
    public List<String> deleteSome(String group, int max) {
        List<GameServerInstance> batch = list(group, max, Optional.empty()).items();
        batch.forEach(i -> table().deleteItem(key(group, i.instanceId())));
        return batch.stream().map(GameServerInstance::instanceId).toList();
    }

    private static Key key(String group, String instanceId) {
        return Key.builder().partitionValue(group).sortValue(instanceId).build();
    }
}

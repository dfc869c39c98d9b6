package io.gamefleet.adapters.dynamodb;

import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.InterruptionRepository;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * SpotInterruptions items: key GameServerGroupName + InterruptionKey
 * ({@code <epoch ms>#<instance id>}), so one query reads a group's interruptions since a time.
 * ExpiresAt (TTL) removes them after the viability window. Small items, written and read by
 * the event handler and the balancer only, so plain item maps serve.
 */
public final class DynamoInterruptionRepository implements InterruptionRepository {
    private final DynamoDbClient dynamoDb;
    private final String table;

    public DynamoInterruptionRepository(DynamoDbClient dynamoDb, TableNames names) {
        this.dynamoDb = dynamoDb;
        this.table = names.of(Tables.SPOT_INTERRUPTIONS);
    }

    @Override
    public boolean record(Interruption i, Instant expiresAt) {
        try {
            dynamoDb.putItem(p -> p.tableName(table).item(Map.of(
                            "GameServerGroupName", AttributeValue.fromS(i.group()),
                            "InterruptionKey", AttributeValue.fromS(Attributes.sortable(i.at()) + "#" + i.instanceId()),
                            "InstanceId", AttributeValue.fromS(i.instanceId()),
                            "InstanceType", AttributeValue.fromS(i.instanceType()),
                            "ExpiresAt", AttributeValue.fromN(Long.toString(expiresAt.getEpochSecond()))))
                    .conditionExpression("attribute_not_exists(InterruptionKey)"));
            return true;
        } catch (ConditionalCheckFailedException alreadyRecorded) {
            return false;
        }
    }

    @Override
    public List<Interruption> since(String group, Instant from) {
        List<Interruption> found = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> exclusiveStart = start;
            QueryResponse page = dynamoDb.query(q -> q.tableName(table)
                    .keyConditionExpression("GameServerGroupName = :group AND InterruptionKey >= :from")
                    .expressionAttributeValues(Map.of(":group", AttributeValue.fromS(group),
                            ":from", AttributeValue.fromS(Attributes.sortable(from))))
                    .exclusiveStartKey(exclusiveStart));
            for (Map<String, AttributeValue> item : page.items()) {
                String key = item.get("InterruptionKey").s();
                found.add(new Interruption(group, item.get("InstanceId").s(), item.get("InstanceType").s(),
                        Instant.ofEpochMilli(Long.parseLong(key.substring(0, key.indexOf('#'))))));
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return found;
    }
}

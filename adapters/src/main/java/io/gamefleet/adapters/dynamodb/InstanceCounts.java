package io.gamefleet.adapters.dynamodb;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * How many game servers each instance holds, for the stage's maxGameServersPerInstance: a counter
 * on one item per instance in GameServers, {@code #instance#<instanceId>} (no game server id can
 * take it: {@code #} is outside the id pattern, as for the gates). The item has no index key, so a
 * change of it is its own write and no more, whatever the cap.
 *
 * <ul>
 * <li>A registration adds one in the transaction that puts the server, on the condition that the
 *     count is below the cap ({@link #take}); the server's item is marked counted ({@link #COUNTED}).</li>
 * <li>Every deletion of a counted server (DeregisterGameServer, the sweep, an instance's end, a
 *     purge) subtracts one in the transaction that deletes it ({@link #delete}): read first, for its
 *     instance, then deleted on the condition that it is still on that instance.</li>
 * </ul>
 *
 * <p>So the count is the instance's counted servers at every moment, with nothing to repair after
 * a function that ends half-way. A server registered before instances were counted is not marked,
 * and its deletion subtracts nothing.
 */
final class InstanceCounts {
    static final String ID_PREFIX = "#instance#";
    static final String COUNT = "GameServerCount";
    /** On a server's item: its registration added it to its instance's count. */
    static final String COUNTED = "InstanceCounted";

    /**
     * Tries of a transaction that another one writing the same count cancelled (TransactionConflict:
     * two registrations of one instance at once), a few milliseconds apart.
     */
    static final int ATTEMPTS = 4;

    private final DynamoDbClient dynamoDb;
    private final String tableName;

    InstanceCounts(DynamoDbClient dynamoDb, String tableName) {
        this.dynamoDb = dynamoDb;
        this.tableName = tableName;
    }

    /** The registration's one, on the condition that the instance holds fewer than {@code max}. */
    TransactWriteItem take(String instanceId, int max) {
        return TransactWriteItem.builder().update(Update.builder().tableName(tableName).key(key(instanceId))
                .updateExpression("ADD #count :one")
                .conditionExpression("attribute_not_exists(#count) OR #count < :max")
                .expressionAttributeNames(Map.of("#count", COUNT))
                .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"),
                        ":max", AttributeValue.fromN(Integer.toString(max))))
                .build()).build();
    }

    /**
     * Deletes the server if {@code condition} (on its item; {@code names} and {@code values} are its
     * placeholders, or empty) holds, and gives its instance's count back in the same transaction:
     * the item as it was read just before, or empty when nothing was deleted (no such server, the
     * condition failed, or the server changed instance meanwhile).
     */
    Optional<Map<String, AttributeValue>> delete(String gameServerId, Optional<String> condition,
            Map<String, String> names, Map<String, AttributeValue> values) {
        var read = dynamoDb.getItem(g -> g.tableName(tableName).key(GameServerSchema.key(gameServerId)).consistentRead(true));
        if (!read.hasItem() || read.item().isEmpty()) {
            return Optional.empty();
        }
        Map<String, AttributeValue> item = read.item();
        boolean counted = item.containsKey(COUNTED);
        Map<String, String> allNames = new HashMap<>(names);
        allNames.put("#counted", COUNTED);
        Map<String, AttributeValue> allValues = new HashMap<>(values);
        allValues.put(":countedOn", item.get("InstanceId"));
        String onIt = "InstanceId = :countedOn AND " + (counted ? "attribute_exists(#counted)" : "attribute_not_exists(#counted)");
        String deleteCondition = condition.map(c -> "(" + c + ") AND " + onIt).orElse(onIt);
        if (counted) {
            Optional<Boolean> deleted = deleteCounting(gameServerId, item.get("InstanceId").s(), deleteCondition,
                    allNames, allValues);
            if (deleted.isPresent()) {
                return deleted.get() ? Optional.of(item) : Optional.empty();
            }
        }
        try { // not counted, or its instance's count is gone (a forgotten instance): nothing to give back
            dynamoDb.deleteItem(d -> d.tableName(tableName).key(GameServerSchema.key(gameServerId))
                    .conditionExpression(deleteCondition).expressionAttributeNames(allNames)
                    .expressionAttributeValues(allValues));
            return Optional.of(item);
        } catch (ConditionalCheckFailedException e) {
            return Optional.empty();
        }
    }

    /** One transaction: the delete and the count's one back. Empty when the instance has no count to take from. */
    private Optional<Boolean> deleteCounting(String gameServerId, String instanceId, String condition,
            Map<String, String> names, Map<String, AttributeValue> values) {
        Delete delete = Delete.builder().tableName(tableName).key(GameServerSchema.key(gameServerId))
                .conditionExpression(condition).expressionAttributeNames(names).expressionAttributeValues(values)
                .build();
        Update giveBack = Update.builder().tableName(tableName).key(key(instanceId))
                .updateExpression("ADD #count :minusOne")
                .conditionExpression("#count > :zero")
                .expressionAttributeNames(Map.of("#count", COUNT))
                .expressionAttributeValues(Map.of(":minusOne", AttributeValue.fromN("-1"), ":zero", AttributeValue.fromN("0")))
                .build();
        for (int attempt = 1; ; attempt++) {
            try {
                dynamoDb.transactWriteItems(t -> t.transactItems(TransactWriteItem.builder().delete(delete).build(),
                        TransactWriteItem.builder().update(giveBack).build()));
                return Optional.of(true);
            } catch (TransactionCanceledException e) {
                List<CancellationReason> reasons = e.hasCancellationReasons() ? e.cancellationReasons() : List.of();
                if (!reasons.isEmpty() && failed(reasons.get(0))) {
                    return Optional.of(false);
                }
                if (reasons.size() > 1 && failed(reasons.get(1))) {
                    return Optional.empty();
                }
                if (!conflicted(reasons) || attempt == ATTEMPTS) {
                    throw e;
                }
                pause(attempt);
            }
        }
    }

    private static boolean failed(CancellationReason reason) {
        return "ConditionalCheckFailed".equals(reason.code());
    }

    /** Whether another transaction on one of its items cancelled this one (it may go through when tried again). */
    static boolean conflicted(List<CancellationReason> reasons) {
        return reasons.stream().anyMatch(r -> "TransactionConflict".equals(r.code()));
    }

    /** A few milliseconds, more after each conflict, with jitter, so that the racing transactions part. */
    static void pause(int attempt) {
        try {
            Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextLong(5L << attempt, 10L << attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted between two tries of a transaction", e);
        }
    }

    /** The instance is gone: its count goes, unless a server registered on it meanwhile holds one. */
    void forget(String instanceId) {
        try {
            dynamoDb.deleteItem(d -> d.tableName(tableName).key(key(instanceId))
                    .conditionExpression("attribute_not_exists(#count) OR #count = :zero")
                    .expressionAttributeNames(Map.of("#count", COUNT))
                    .expressionAttributeValues(Map.of(":zero", AttributeValue.fromN("0"))));
        } catch (ConditionalCheckFailedException registeredMeanwhile) {
            // kept: it counts a server
        }
    }

    private static Map<String, AttributeValue> key(String instanceId) {
        return GameServerSchema.key(ID_PREFIX + instanceId);
    }
}

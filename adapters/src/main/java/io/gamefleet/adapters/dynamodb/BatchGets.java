package io.gamefleet.adapters.dynamodb;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

/**
 * Items of GameServers by their {@code GameServerId}, 100 to a BatchGetItem (its most), the keys
 * it leaves unprocessed asked again after a backoff: the servers of a listing, the sessions of
 * the sessions index.
 */
final class BatchGets {
    /** BatchGetItem takes at most 100 keys. */
    private static final int BATCH_GET_LIMIT = 100;

    private BatchGets() {}

    /** The items of {@code ids} that exist, in the order of {@code ids}. */
    static List<Map<String, AttributeValue>> items(DynamoDbClient dynamoDb, String tableName, List<String> ids,
            boolean consistent) {
        Map<String, Map<String, AttributeValue>> found = new HashMap<>();
        for (int from = 0; from < ids.size(); from += BATCH_GET_LIMIT) {
            List<Map<String, AttributeValue>> keys = ids.subList(from, Math.min(ids.size(), from + BATCH_GET_LIMIT))
                    .stream().map(GameServerSchema::key).toList();
            Map<String, KeysAndAttributes> request = Map.of(tableName,
                    KeysAndAttributes.builder().keys(keys).consistentRead(consistent).build());
            for (int attempt = 0; !request.isEmpty(); attempt++) {
                if (attempt > 0) {
                    backOff(attempt);
                }
                Map<String, KeysAndAttributes> asked = request;
                BatchGetItemResponse response = dynamoDb.batchGetItem(b -> b.requestItems(asked));
                response.responses().getOrDefault(tableName, List.of())
                        .forEach(item -> found.put(item.get("GameServerId").s(), item));
                request = response.hasUnprocessedKeys() ? response.unprocessedKeys() : Map.of();
            }
        }
        return ids.stream().map(found::get).filter(Objects::nonNull).toList();
    }

    private static void backOff(int attempt) {
        try {
            Thread.sleep(Math.min(1000, 20L << Math.min(attempt, 6)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading items of GameServers", e);
        }
    }
}

package io.gamefleet.adapters.dynamodb;

import io.gamefleet.catalog.IndexDefinition;
import io.gamefleet.catalog.KeyAttribute;
import io.gamefleet.catalog.TableDefinition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import software.amazon.awssdk.core.retry.backoff.FixedDelayBackoffStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.waiters.DynamoDbWaiter;

/**
 * Creates the catalog's tables (keys, indexes with their projections, on-demand billing, TTL) in a DynamoDB
 * endpoint, as the CDK app does in AWS: for the local profile and the tests, never in a Lambda.
 */
public final class TableSetup {
    private TableSetup() {}

    /**
     * Creates each table that does not exist yet ({@code names} maps each definition to its
     * physical name), waits until every one is ACTIVE (at once on the emulators) and turns TTL on
     * for those it created.
     */
    public static void createAll(DynamoDbClient dynamoDb, List<TableDefinition> tables,
            Function<TableDefinition, String> names) {
        List<TableDefinition> created = new ArrayList<>();
        for (TableDefinition t : tables) {
            Map<String, AttributeDefinition> attributes = new LinkedHashMap<>();
            List<KeySchemaElement> keys = keySchema(t.partitionKey(), t.sortKey().orElse(null), attributes);
            List<GlobalSecondaryIndex> indexes = new ArrayList<>();
            for (IndexDefinition i : t.indexes()) {
                indexes.add(GlobalSecondaryIndex.builder().indexName(i.name())
                        .keySchema(keySchema(i.partitionKey(), i.sortKey(), attributes))
                        .projection(p -> p.projectionType(ProjectionType.fromValue(i.projection().type()))
                                .nonKeyAttributes(i.projection().nonKeyAttributes().isEmpty() ? null
                                        : i.projection().nonKeyAttributes()))
                        .build());
            }
            try {
                dynamoDb.createTable(c -> c.tableName(names.apply(t)).billingMode(BillingMode.PAY_PER_REQUEST)
                        .keySchema(keys).attributeDefinitions(attributes.values())
                        .globalSecondaryIndexes(indexes.isEmpty() ? null : indexes));
                created.add(t);
            } catch (ResourceInUseException exists) {
                // kept from an earlier run (--data-dir)
            }
        }
        // TTL can be set only on an ACTIVE table, and AWS creates tables in the background.
        try (DynamoDbWaiter waiter = DynamoDbWaiter.builder().client(dynamoDb).overrideConfiguration(w -> w
                .backoffStrategy(FixedDelayBackoffStrategy.create(Duration.ofSeconds(1))).maxAttempts(180)).build()) {
            tables.forEach(t -> waiter.waitUntilTableExists(r -> r.tableName(names.apply(t))));
        }
        for (TableDefinition t : created) {
            t.ttlAttribute().ifPresent(ttl -> dynamoDb.updateTimeToLive(u -> u.tableName(names.apply(t))
                    .timeToLiveSpecification(s -> s.attributeName(ttl).enabled(true))));
        }
    }

    private static List<KeySchemaElement> keySchema(KeyAttribute partition, KeyAttribute sort,
            Map<String, AttributeDefinition> attributes) {
        List<KeySchemaElement> keys = new ArrayList<>();
        keys.add(KeySchemaElement.builder().attributeName(partition.name()).keyType(KeyType.HASH).build());
        attributes.put(partition.name(), AttributeDefinition.builder().attributeName(partition.name())
                .attributeType(partition.type()).build());
        if (sort != null) {
            keys.add(KeySchemaElement.builder().attributeName(sort.name()).keyType(KeyType.RANGE).build());
            attributes.put(sort.name(), AttributeDefinition.builder().attributeName(sort.name())
                    .attributeType(sort.type()).build());
        }
        return keys;
    }
}

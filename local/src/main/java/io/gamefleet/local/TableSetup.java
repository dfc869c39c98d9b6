package io.gamefleet.local;

import io.gamefleet.catalog.IndexDefinition;
import io.gamefleet.catalog.KeyAttribute;
import io.gamefleet.catalog.TableDefinition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;

/** Creates the catalog's tables (keys, indexes, TTL) in a DynamoDB endpoint, as the CDK app does in AWS. */
public final class TableSetup {
    private TableSetup() {}

    /** Creates each table that does not exist yet; {@code names} maps each definition to its physical name. */
    public static void createAll(DynamoDbClient dynamoDb, List<TableDefinition> tables,
            java.util.function.Function<TableDefinition, String> names) {
        for (TableDefinition t : tables) {
            String name = names.apply(t);
            Map<String, AttributeDefinition> attributes = new LinkedHashMap<>();
            List<KeySchemaElement> keys = keySchema(t.partitionKey(), t.sortKey().orElse(null), attributes);
            List<GlobalSecondaryIndex> indexes = new ArrayList<>();
            for (IndexDefinition i : t.indexes()) {
                indexes.add(GlobalSecondaryIndex.builder().indexName(i.name())
                        .keySchema(keySchema(i.partitionKey(), i.sortKey(), attributes))
                        .projection(p -> p.projectionType(ProjectionType.ALL))
                        .build());
            }
            try {
                dynamoDb.createTable(c -> c.tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                        .keySchema(keys).attributeDefinitions(attributes.values())
                        .globalSecondaryIndexes(indexes.isEmpty() ? null : indexes));
            } catch (ResourceInUseException exists) {
                continue; // kept from an earlier run (--data-dir)
            }
            t.ttlAttribute().ifPresent(ttl -> dynamoDb.updateTimeToLive(u -> u.tableName(name)
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

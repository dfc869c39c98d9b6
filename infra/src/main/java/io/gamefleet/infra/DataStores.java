package io.gamefleet.infra;

import io.gamefleet.catalog.IndexDefinition;
import io.gamefleet.catalog.KeyAttribute;
import io.gamefleet.catalog.TableDefinition;
import io.gamefleet.catalog.Tables;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.BillingMode;
import software.amazon.awscdk.services.dynamodb.GlobalSecondaryIndexProps;
import software.amazon.awscdk.services.dynamodb.PointInTimeRecoverySpecification;
import software.amazon.awscdk.services.dynamodb.ProjectionType;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.secretsmanager.Secret;
import software.amazon.awscdk.services.secretsmanager.SecretStringGenerator;
import software.constructs.Construct;

/** The DynamoDB tables of {@link Tables} and the key that signs pagination tokens. */
final class DataStores extends Construct {
    private final Map<TableDefinition, Table> tables = new LinkedHashMap<>();
    private final Secret pageTokenKey;

    DataStores(Construct scope, String id, RemovalPolicy removalPolicy) {
        super(scope, id);
        for (TableDefinition definition : Tables.ALL) {
            Table table = table(definition, removalPolicy);
            tables.put(definition, table);
            CfnOutput.Builder.create(this, definition.logicalName() + "TableName")
                    .value(table.getTableName())
                    .description("Physical name of the " + definition.logicalName() + " table")
                    .build();
        }

        // Signs pagination tokens (docs/api.md: a token the service did not issue is a 400). Generated
        // by Secrets Manager at deployment, so no two deployments share it and it is in no file;
        // the API functions read it as they start (GetSecretValue), so it is in no function's configuration.
        pageTokenKey = Secret.Builder.create(this, "PageTokenKey")
                .description("HMAC key that signs Gamefleet pagination tokens")
                .generateSecretString(SecretStringGenerator.builder().passwordLength(64).excludePunctuation(true)
                        .build())
                .removalPolicy(RemovalPolicy.DESTROY)
                .build();
        NagRules.pageTokenKey(pageTokenKey);
    }

    /** Every table, in catalog order. */
    Map<TableDefinition, Table> tables() {
        return tables;
    }

    Table table(TableDefinition definition) {
        return tables.get(definition);
    }

    Secret pageTokenKey() {
        return pageTokenKey;
    }

    private Table table(TableDefinition definition, RemovalPolicy removalPolicy) {
        // No physical tableName: CloudFormation generates one, passed to the functions through
        // the definition's environment variable.
        Table.Builder builder = Table.Builder.create(this, definition.logicalName())
                .partitionKey(attribute(definition.partitionKey()))
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .pointInTimeRecoverySpecification(PointInTimeRecoverySpecification.builder()
                        .pointInTimeRecoveryEnabled(true).build())
                .removalPolicy(removalPolicy);
        definition.sortKey().ifPresent(k -> builder.sortKey(attribute(k)));
        definition.ttlAttribute().ifPresent(builder::timeToLiveAttribute);
        Table table = builder.build();
        for (IndexDefinition index : definition.indexes()) {
            GlobalSecondaryIndexProps.Builder gsi = GlobalSecondaryIndexProps.builder()
                    .indexName(index.name())
                    .partitionKey(attribute(index.partitionKey()))
                    .projectionType(ProjectionType.valueOf(index.projection().type()));
            if (!index.projection().nonKeyAttributes().isEmpty()) {
                gsi.nonKeyAttributes(index.projection().nonKeyAttributes());
            }
            if (index.sortKey() != null) {
                gsi.sortKey(attribute(index.sortKey()));
            }
            table.addGlobalSecondaryIndex(gsi.build());
        }
        return table;
    }

    private static Attribute attribute(KeyAttribute key) {
        AttributeType type = switch (key.type()) {
            case "S" -> AttributeType.STRING;
            case "N" -> AttributeType.NUMBER;
            case "B" -> AttributeType.BINARY;
            default -> throw new IllegalArgumentException("unknown key type " + key.type() + " of " + key.name());
        };
        return Attribute.builder().name(key.name()).type(type).build();
    }
}

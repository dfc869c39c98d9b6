package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.IndexDefinition;
import io.gamefleet.catalog.KeyAttribute;
import io.gamefleet.catalog.TableDefinition;
import io.gamefleet.catalog.Tables;
import io.gamefleet.catalog.Triggers;
import io.gamefleet.catalog.Workflows;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The tables (DataStores): their logical ids and their catalog definitions. */
class DataStoresStackTest extends SynthesizedStack {
    @Test
    void theTablesKeepTheirLogicalIds() {
        assertThat(TABLE_IDS.keySet()).isEqualTo(Tables.ALL.stream().map(TableDefinition::logicalName)
                .collect(Collectors.toSet()));
        assertThat(ofType("AWS::DynamoDB::Table").keySet()).isEqualTo(Set.copyOf(TABLE_IDS.values()));
    }

    /** The stack's parts are construct ids only: the resources kept their ids from before the parts. */
    @Test
    void noLogicalIdNamesAPartOfTheStack() {
        Map<String, Object> outputs = cast(template.toJSON().get("Outputs"));
        Set<String> ids = new HashSet<>(resources.keySet());
        ids.addAll(outputs.keySet());
        assertThat(ids).noneMatch(id -> id.matches("(DataStores|Workflows|Triggers|HttpApi|CallerPolicies).*"));
    }

    @Test
    void everyTableMatchesItsCatalogDefinition() {
        template.resourceCountIs("AWS::DynamoDB::Table", Tables.ALL.size());
        for (TableDefinition definition : Tables.ALL) {
            Map<String, Object> resource = resources.get(tableId(definition));
            Map<String, Object> p = props(resource);
            assertThat(p).containsEntry("BillingMode", "PAY_PER_REQUEST")
                    .containsEntry("PointInTimeRecoverySpecification", Map.of("PointInTimeRecoveryEnabled", true));
            assertThat(resource).containsEntry("DeletionPolicy", "Retain").containsEntry("UpdateReplacePolicy", "Retain");
            assertThat(p.get("KeySchema")).isEqualTo(keySchema(definition.partitionKey(),
                    definition.sortKey().orElse(null)));

            Set<KeyAttribute> keyAttributes = new HashSet<>();
            keyAttributes.add(definition.partitionKey());
            definition.sortKey().ifPresent(keyAttributes::add);
            definition.indexes().forEach(i -> {
                keyAttributes.add(i.partitionKey());
                if (i.sortKey() != null) {
                    keyAttributes.add(i.sortKey());
                }
            });
            assertThat(Set.copyOf(listOf(p.get("AttributeDefinitions")))).isEqualTo(keyAttributes.stream()
                    .map(k -> Map.of("AttributeName", k.name(), "AttributeType", k.type()))
                    .collect(Collectors.toSet()));

            List<Object> expectedIndexes = new ArrayList<>();
            for (IndexDefinition index : definition.indexes()) {
                expectedIndexes.add(Map.of(
                        "IndexName", index.name(),
                        "KeySchema", keySchema(index.partitionKey(), index.sortKey()),
                        "Projection", index.projection().nonKeyAttributes().isEmpty()
                                ? Map.of("ProjectionType", index.projection().type())
                                : Map.of("ProjectionType", index.projection().type(),
                                        "NonKeyAttributes", index.projection().nonKeyAttributes())));
            }
            if (expectedIndexes.isEmpty()) {
                assertThat(p).doesNotContainKey("GlobalSecondaryIndexes");
            } else {
                assertThat(p.get("GlobalSecondaryIndexes")).isEqualTo(expectedIndexes);
            }

            if (definition.ttlAttribute().isPresent()) {
                assertThat(p.get("TimeToLiveSpecification")).isEqualTo(Map.of(
                        "AttributeName", definition.ttlAttribute().get(), "Enabled", true));
            } else {
                assertThat(p).doesNotContainKey("TimeToLiveSpecification");
            }
        }
        // Tables with expiring records: DELETED groups, old interruptions.
        assertThat(Tables.ALL.stream().filter(t -> t.ttlAttribute().isPresent()).count()).isGreaterThanOrEqualTo(2);
    }
}

package io.gamefleet.adapters.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.TableDefinition;
import io.gamefleet.catalog.Tables;
import io.gamefleet.testing.Dynoxide;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

/** The tables TableSetup creates (Dynoxide runs it for the class): keys, indexes, billing and TTL. */
class TableSetupTest {
    @RegisterExtension
    static final Dynoxide DYNAMO = new Dynoxide();

    private static TimeToLiveDescription ttl(TableDefinition t) {
        return DYNAMO.client().describeTimeToLive(d -> d.tableName(DYNAMO.tableNames().of(t))).timeToLiveDescription();
    }

    private static TableDescription table(TableDefinition t) {
        return DYNAMO.client().describeTable(d -> d.tableName(DYNAMO.tableNames().of(t))).table();
    }

    @Test
    void ttlIsOnWhereTheCatalogNamesAnAttribute() {
        assertThat(ttl(Tables.GAME_SERVER_GROUPS).timeToLiveStatus()).isEqualTo(TimeToLiveStatus.ENABLED);
        assertThat(ttl(Tables.GAME_SERVER_GROUPS).attributeName()).isEqualTo("ExpiresAt");
        assertThat(ttl(Tables.SPOT_INTERRUPTIONS).timeToLiveStatus()).isEqualTo(TimeToLiveStatus.ENABLED);
        assertThat(ttl(Tables.SPOT_INTERRUPTIONS).attributeName()).isEqualTo("ExpiresAt");
        assertThat(ttl(Tables.GAME_SERVERS).timeToLiveStatus()).as("its process items").isEqualTo(TimeToLiveStatus.ENABLED);
        assertThat(ttl(Tables.GAME_SERVERS).attributeName()).isEqualTo("ExpiresAt");
        assertThat(ttl(Tables.GAME_SERVER_INSTANCES).timeToLiveStatus()).isEqualTo(TimeToLiveStatus.DISABLED);
    }

    @Test
    void keysAndIndexesAreTheCatalogs() {
        TableDescription instances = table(Tables.GAME_SERVER_INSTANCES);
        assertThat(instances.keySchema()).containsExactly(key("GameServerGroupName", KeyType.HASH),
                key("InstanceId", KeyType.RANGE));
        assertThat(instances.billingModeSummary().billingModeAsString()).isEqualTo("PAY_PER_REQUEST");
        TableDescription servers = table(Tables.GAME_SERVERS);
        assertThat(servers.keySchema()).containsExactly(key("GameServerId", KeyType.HASH));
        assertThat(servers.globalSecondaryIndexes()).extracting(GlobalSecondaryIndexDescription::indexName)
                .containsExactlyInAnyOrder(Tables.SERVERS_BY_GROUP_INDEX, Tables.CLAIMABLE_INDEX,
                        Tables.SERVERS_BY_INSTANCE_INDEX, Tables.SESSIONS_BY_GROUP_INDEX);
        GlobalSecondaryIndexDescription sessions = servers.globalSecondaryIndexes().stream()
                .filter(i -> i.indexName().equals(Tables.SESSIONS_BY_GROUP_INDEX)).findFirst().orElseThrow();
        assertThat(sessions.keySchema()).containsExactly(key("SessionPartition", KeyType.HASH),
                key("SessionSortKey", KeyType.RANGE));
        assertThat(sessions.projection().projectionType()).isEqualTo(ProjectionType.KEYS_ONLY);
        GlobalSecondaryIndexDescription byGroup = servers.globalSecondaryIndexes().stream()
                .filter(i -> i.indexName().equals(Tables.SERVERS_BY_GROUP_INDEX)).findFirst().orElseThrow();
        assertThat(byGroup.keySchema()).containsExactly(key("RegistrationPartition", KeyType.HASH),
                key("RegistrationSortKey", KeyType.RANGE));
        // Only what its queries need: a heartbeat writes no index entry.
        assertThat(byGroup.projection().projectionType()).isEqualTo(ProjectionType.INCLUDE);
        assertThat(byGroup.projection().nonKeyAttributes()).containsExactly("UtilizationStatus");
        assertThat(servers.attributeDefinitions()).anySatisfy(a -> {
            assertThat(a.attributeName()).isEqualTo("RegistrationSortKey");
            assertThat(a.attributeTypeAsString()).isEqualTo("S");
        });
        assertThat(table(Tables.SPOT_INTERRUPTIONS).globalSecondaryIndexes()).isEmpty();
    }

    @Test
    void aSecondRunKeepsTheTablesAndTheirTtl() {
        TableSetup.createAll(DYNAMO.client(), List.of(Tables.GAME_SERVER_GROUPS, Tables.GAME_SERVERS),
                DYNAMO.tableNames()::of);
        assertThat(ttl(Tables.GAME_SERVER_GROUPS).timeToLiveStatus()).isEqualTo(TimeToLiveStatus.ENABLED);
        assertThat(table(Tables.GAME_SERVERS).tableStatusAsString()).isEqualTo("ACTIVE");
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}

package io.gamefleet.local.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.catalog.FunctionAccess;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.catalog.TableDefinition;
import io.gamefleet.catalog.Tables;
import io.gamefleet.catalog.Workflows;
import io.gamefleet.local.edge.TableGrants.Call;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.sfn.model.StartExecutionRequest;

/** A function's DynamoDB calls held to its catalog grants, as IAM holds them in AWS. */
class TableGrantsTest {
    private static final Map<String, String> ENVIRONMENT = environment();
    private final List<String> denied = new ArrayList<>();

    private static Map<String, String> environment() {
        Map<String, String> environment = new HashMap<>();
        for (TableDefinition t : Tables.ALL) {
            environment.put(t.environmentVariable(), "test-" + t.logicalName());
        }
        return environment;
    }

    private TableGrants of(String functionName) {
        return new TableGrants(functionName, ENVIRONMENT, denied::add);
    }

    private static String table(TableDefinition t) {
        return "test-" + t.logicalName();
    }

    @Test
    void disconnectMayReadTheInstanceItsConnectionIndexNames() {
        TableGrants disconnect = of(PushChannel.DISCONNECT.functionName());
        // findByPushConnection: the keys-only index, then the instance by its keys; then the clear.
        assertThat(disconnect.allows(new Call(FunctionAccess.QUERY, table(Tables.GAME_SERVER_INSTANCES),
                Optional.of(Tables.INSTANCES_BY_PUSH_CONNECTION_INDEX)))).isTrue();
        assertThat(disconnect.allows(new Call(FunctionAccess.GET, table(Tables.GAME_SERVER_INSTANCES), Optional.empty())))
                .isTrue();
        assertThat(disconnect.allows(new Call(FunctionAccess.UPDATE, table(Tables.GAME_SERVER_INSTANCES), Optional.empty())))
                .isTrue();
        assertThat(disconnect.allows(new Call(FunctionAccess.PUT, table(Tables.GAME_SERVER_INSTANCES), Optional.empty())))
                .isFalse();
    }

    @Test
    void aCallTheGrantsDoNotAllowFailsAsIamWouldBeforeItIsSent() {
        // Nothing listens there: only a call refused before it is sent ends in AccessDeniedException.
        try (DynamoDbClient client = DynamoDbClient.builder().region(Region.US_EAST_1)
                .endpointOverride(URI.create("http://127.0.0.1:9"))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .overrideConfiguration(c -> c.addExecutionInterceptor(of(Operation.DESCRIBE_GAME_SERVER.functionName())))
                .build()) {
            assertThatThrownBy(() -> client.getItem(GetItemRequest.builder().tableName(table(Tables.GAME_SERVER_GROUPS))
                    .key(Map.of("GameServerGroupName", AttributeValue.fromS("g"))).build()))
                    .isInstanceOfSatisfying(DynamoDbException.class, e -> {
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDeniedException");
                        assertThat(e.statusCode()).isEqualTo(400);
                    })
                    .hasMessageContaining("function " + Operation.DESCRIBE_GAME_SERVER.functionName()
                            + " is not authorized to perform: dynamodb:GetItem on resource: table/"
                            + table(Tables.GAME_SERVER_GROUPS));
        }
        assertThat(denied).singleElement().asString().contains("dynamodb:GetItem");
    }

    @Test
    void anIndexIsQueriedOnItsOwnGrantAndNeverScanned() {
        TableGrants claim = of(Operation.CLAIM_GAME_SERVER.functionName());
        assertThat(claim.allows(new Call(FunctionAccess.QUERY, table(Tables.GAME_SERVERS), Optional.of(Tables.CLAIMABLE_INDEX))))
                .isTrue();
        assertThat(claim.allows(new Call(FunctionAccess.QUERY, table(Tables.GAME_SERVERS),
                Optional.of(Tables.SERVERS_BY_GROUP_INDEX)))).as("another index").isFalse();
        assertThat(claim.allows(new Call(FunctionAccess.QUERY, table(Tables.GAME_SERVERS), Optional.empty())))
                .as("the table itself").isFalse();
        assertThat(claim.allows(new Call("Scan", table(Tables.GAME_SERVERS), Optional.of(Tables.CLAIMABLE_INDEX)))).isFalse();
        assertThat(claim.allows(new Call(FunctionAccess.GET, "someone-elses-table", Optional.empty()))).isFalse();
        assertThat(TableGrants.calls(QueryRequest.builder().tableName("t").indexName("i").build()))
                .containsExactly(new Call(FunctionAccess.QUERY, "t", Optional.of("i")));
        assertThat(TableGrants.calls(ScanRequest.builder().tableName("t").build()))
                .containsExactly(new Call("Scan", "t", Optional.empty()));
    }

    @Test
    void batchesAreAuthorizedOnEachTableAndTransactionsItemByItem() {
        assertThat(TableGrants.calls(BatchGetItemRequest.builder().requestItems(Map.of(
                "a", KeysAndAttributes.builder().keys(Map.of()).build())).build()))
                .containsExactly(new Call(FunctionAccess.BATCH_GET, "a", Optional.empty()));
        List<Call> transaction = TableGrants.calls(TransactWriteItemsRequest.builder().transactItems(
                t -> t.put(p -> p.tableName("groups")), t -> t.conditionCheck(c -> c.tableName("servers")),
                t -> t.delete(d -> d.tableName("servers")), t -> t.update(u -> u.tableName("instances"))).build());
        assertThat(transaction).containsExactly(new Call(FunctionAccess.PUT, "groups", Optional.empty()),
                new Call(FunctionAccess.CONDITION_CHECK, "servers", Optional.empty()),
                new Call(FunctionAccess.DELETE, "servers", Optional.empty()),
                new Call(FunctionAccess.UPDATE, "instances", Optional.empty()));
        // A group transition: the first gate's GetItem, then the group's and the gates' Puts.
        TableGrants start = of(Workflows.START_ACTIVATION.functionName());
        assertThat(List.of(new Call(FunctionAccess.GET, table(Tables.GAME_SERVERS), Optional.empty()),
                new Call(FunctionAccess.PUT, table(Tables.GAME_SERVERS), Optional.empty()),
                new Call(FunctionAccess.PUT, table(Tables.GAME_SERVER_GROUPS), Optional.empty())))
                .allMatch(start::allows);
    }

    @Test
    void anOperationNoGrantNamesIsRefusedAndOtherServicesCallsAreNotLookedAt() {
        assertThat(TableGrants.calls(DescribeTableRequest.builder()
                .tableName("t").build())).containsExactly(new Call("DescribeTable", "*", Optional.empty()));
        assertThat(of(Operation.DESCRIBE_GAME_SERVER.functionName()).allows(new Call("DescribeTable", "*", Optional.empty())))
                .isFalse();
        // the interceptor rides the function's other clients too: their requests pass untouched
        of(Operation.DESCRIBE_GAME_SERVER.functionName()).beforeExecution(() -> StartExecutionRequest.builder().build(),
                new ExecutionAttributes());
        assertThat(denied).isEmpty();
    }
}

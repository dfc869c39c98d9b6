package io.gamefleet.adapters.dynamodb.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gamefleet.catalog.Tables;
import io.gamefleet.testing.Dynoxide;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/** The client's exceptions for the error answers of a real backend (dynoxide unless chosen otherwise). */
class DynamoDbHttpClientErrorsTest {
    @RegisterExtension
    static final Dynoxide DYNAMO = new Dynoxide();

    private final DynamoDbClient client = DYNAMO.client();
    private final String table = DYNAMO.tableNames().of(Tables.GAME_SERVERS);
    private final String id = "errors-" + UUID.randomUUID();

    @Test
    void theBackendsClientIsThisOne() {
        assertThat(client).isInstanceOf(DynamoDbHttpClient.class);
    }

    @Test
    void aFailedConditionIsConditionalCheckFailedWithTheItemWhenAsked() {
        put(Map.of("GameServerId", AttributeValue.fromS(id), "ServerNote", AttributeValue.fromS("old"),
                "Tally", AttributeValue.fromN("3")));
        ConditionalCheckFailedException e = catchThrowableOfType(ConditionalCheckFailedException.class,
                () -> client.updateItem(u -> u.tableName(table).key(key()).updateExpression("SET ServerNote = :new")
                        .conditionExpression("ServerNote = :expected")
                        .expressionAttributeValues(Map.of(":new", AttributeValue.fromS("new"),
                                ":expected", AttributeValue.fromS("other")))
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)));
        assertThat(e.statusCode()).isEqualTo(400);
        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ConditionalCheckFailedException");
        assertThat(e.awsErrorDetails().errorMessage()).isNotBlank();
        assertThat(e.hasItem()).isTrue();
        assertThat(e.item()).containsEntry("ServerNote", AttributeValue.fromS("old")).containsEntry("Tally", AttributeValue.fromN("3"));
        assertThat(e.isThrottlingException()).isFalse();

        ConditionalCheckFailedException without = catchThrowableOfType(ConditionalCheckFailedException.class,
                () -> client.deleteItem(d -> d.tableName(table).key(key()).conditionExpression("attribute_not_exists(ServerNote)")));
        assertThat(without.hasItem()).isFalse();
    }

    @Test
    void aCancelledTransactionCarriesItsReasonsInOrderWithTheItem() {
        put(Map.of("GameServerId", AttributeValue.fromS(id), "ServerNote", AttributeValue.fromS("there")));
        String other = id + "-other";
        TransactionCanceledException e = catchThrowableOfType(TransactionCanceledException.class,
                () -> client.transactWriteItems(t -> t.transactItems(
                        TransactWriteItem.builder().put(Put.builder().tableName(table)
                                .item(Map.of("GameServerId", AttributeValue.fromS(other))).build()).build(),
                        TransactWriteItem.builder().put(Put.builder().tableName(table)
                                .item(Map.of("GameServerId", AttributeValue.fromS(id)))
                                .conditionExpression("attribute_not_exists(GameServerId)")
                                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                                .build()).build())));
        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("TransactionCanceledException");
        assertThat(e.statusCode()).isEqualTo(400);
        assertThat(e.hasCancellationReasons()).isTrue();
        assertThat(e.cancellationReasons()).hasSize(2);
        assertThat(e.cancellationReasons().get(0).code()).isEqualTo("None");
        assertThat(e.cancellationReasons().get(1).code()).isEqualTo("ConditionalCheckFailed");
        assertThat(e.cancellationReasons().get(1).item()).containsEntry("ServerNote", AttributeValue.fromS("there"));
        assertThat(client.getItem(g -> g.tableName(table).key(Map.of("GameServerId", AttributeValue.fromS(other))))
                .hasItem()).isFalse();
    }

    @Test
    void aMissingTableIsResourceNotFound() {
        ResourceNotFoundException e = catchThrowableOfType(ResourceNotFoundException.class,
                () -> client.getItem(g -> g.tableName("no-such-table-" + id).key(key())));
        assertThat(e.statusCode()).isEqualTo(400);
        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ResourceNotFoundException");
        assertThat(e.awsErrorDetails().serviceName()).isEqualTo("DynamoDb");
    }

    @Test
    void anInvalidRequestIsADynamoDbExceptionWithTheValidationCode() {
        DynamoDbException e = catchThrowableOfType(DynamoDbException.class,
                () -> client.updateItem(u -> u.tableName(table).key(key()).updateExpression("SET = nonsense")));
        assertThat(e.getClass()).isEqualTo(DynamoDbException.class);
        assertThat(e.statusCode()).isEqualTo(400);
        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
        assertThat(e.getMessage()).contains("Status Code: 400");
    }

    @Test
    void writesAndReadsItemsOfEveryType() {
        Map<String, AttributeValue> item = new java.util.HashMap<>(MarshallerTestItems.EVERY_TYPE);
        item.put("GameServerId", AttributeValue.fromS(id));
        put(item);
        Map<String, AttributeValue> read = client.getItem(g -> g.tableName(table).key(key()).consistentRead(true)).item();
        assertThat(read.keySet()).isEqualTo(item.keySet());
        item.forEach((name, value) -> {
            if (value.ss() != null && !value.ss().isEmpty() || value.ns() != null && !value.ns().isEmpty()
                    || value.bs() != null && !value.bs().isEmpty()) {
                assertThat(read.get(name).type()).as(name).isEqualTo(value.type()); // sets come back in any order
            } else {
                assertThat(read.get(name)).as(name).isEqualTo(value);
            }
        });
        assertThat(read.get("ss").ss()).containsExactlyInAnyOrder("a", "b");
    }

    private Map<String, AttributeValue> key() {
        return Map.of("GameServerId", AttributeValue.fromS(id));
    }

    private void put(Map<String, AttributeValue> item) {
        client.putItem(p -> p.tableName(table).item(item));
    }
}

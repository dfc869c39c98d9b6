package io.gamefleet.adapters.dynamodb.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.Select;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/** Model objects to DynamoDB's JSON and back, through their field declarations. */
class MarshallerTest {
    private static final Map<String, AttributeValue> EVERY_TYPE = MarshallerTestItems.EVERY_TYPE;

    @Test
    void everyAttributeValueTypeRoundTrips() {
        PutItemRequest put = PutItemRequest.builder().tableName("T").item(EVERY_TYPE)
                .conditionExpression("attribute_not_exists(#k)").expressionAttributeNames(Map.of("#k", "s")).build();
        PutItemRequest back = (PutItemRequest) roundTrip(put, PutItemRequest.builder());
        assertThat(back).isEqualTo(put);
        assertThat(back.item().get("b").b().asByteArray()).containsExactly(0, 1, 0xff, 42);
        assertThat(back.item().get("l").l().get(3).nul()).isTrue();
        assertThat(back.item().get("emptyL").hasL()).isTrue();
        assertThat(back.item().get("emptyM").hasM()).isTrue();
    }

    @Test
    void writesDynamoDbsWireNames() {
        String json = Marshaller.toJson(PutItemRequest.builder().tableName("T").item(Map.of(
                "n", AttributeValue.fromN("1"))).build());
        assertThat(json).isEqualTo("{\"TableName\":\"T\",\"Item\":{\"n\":{\"N\":\"1\"}}}");
        assertThat(Marshaller.toJson(AttributeValue.fromNul(true))).isEqualTo("{\"NULL\":true}");
        assertThat(Marshaller.toJson(AttributeValue.fromBool(false))).isEqualTo("{\"BOOL\":false}");
        assertThat(Marshaller.toJson(AttributeValue.fromB(SdkBytes.fromUtf8String("hi")))).isEqualTo("{\"B\":\"aGk=\"}");
        assertThat(Marshaller.toJson(AttributeValue.fromSs(List.of("a")))).isEqualTo("{\"SS\":[\"a\"]}");
        assertThat(Marshaller.toJson(AttributeValue.fromL(List.of()))).isEqualTo("{\"L\":[]}");
        assertThat(Marshaller.toJson(AttributeValue.fromS("a\"\\\n\u0001"))).isEqualTo("{\"S\":\"a\\\"\\\\\\n\\u0001\"}");
    }

    @Test
    void membersNeverSetAreLeftOut() {
        assertThat(Marshaller.toJson(QueryRequest.builder().tableName("T").build())).isEqualTo("{\"TableName\":\"T\"}");
        assertThat(Marshaller.toJson(QueryRequest.builder().tableName("T").limit(5).scanIndexForward(false)
                .select(Select.COUNT).build()))
                .isEqualTo("{\"TableName\":\"T\",\"Select\":\"COUNT\",\"Limit\":5,\"ScanIndexForward\":false}");
    }

    @Test
    void theRepositoriesRequestShapesRoundTrip() {
        UpdateItemRequest update = UpdateItemRequest.builder().tableName("T").key(Map.of("k", AttributeValue.fromS("1")))
                .updateExpression("SET a = :a REMOVE b").conditionExpression("c = :c")
                .expressionAttributeValues(Map.of(":a", AttributeValue.fromN("2"), ":c", AttributeValue.fromS("x")))
                .returnValues(ReturnValue.ALL_NEW)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build();
        assertThat(roundTrip(update, UpdateItemRequest.builder())).isEqualTo(update);
        TransactWriteItemsRequest transaction = TransactWriteItemsRequest.builder().transactItems(
                TransactWriteItem.builder().conditionCheck(ConditionCheck.builder().tableName("T")
                        .key(Map.of("k", AttributeValue.fromS("gate"))).conditionExpression("s = :s")
                        .expressionAttributeValues(Map.of(":s", AttributeValue.fromS("ACTIVE"))).build()).build(),
                TransactWriteItem.builder().update(Update.builder().tableName("T").key(Map.of("k", AttributeValue.fromS("1")))
                        .updateExpression("SET a = :a").expressionAttributeValues(Map.of(":a", AttributeValue.fromN("1")))
                        .build()).build()).build();
        // The idempotency token the SDK's model makes when none is set: one per marshalling, kept by its retries.
        TransactWriteItemsRequest back = (TransactWriteItemsRequest) roundTrip(transaction, TransactWriteItemsRequest.builder());
        assertThat(back.clientRequestToken()).matches("[0-9a-f-]{36}");
        assertThat(back).isEqualTo(transaction.toBuilder().clientRequestToken(back.clientRequestToken()).build());
        QueryRequest query = QueryRequest.builder().tableName("T").indexName("I")
                .keyConditionExpression("p = :p AND s BETWEEN :a AND :b").limit(3)
                .exclusiveStartKey(Map.of("p", AttributeValue.fromS("x"), "s", AttributeValue.fromS("y")))
                .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("x"))).consistentRead(true).build();
        assertThat(roundTrip(query, QueryRequest.builder())).isEqualTo(query);
        BatchGetItemRequest batch = BatchGetItemRequest.builder().requestItems(Map.of("T", KeysAndAttributes.builder()
                .keys(List.of(Map.of("k", AttributeValue.fromS("1")), Map.of("k", AttributeValue.fromS("2"))))
                .consistentRead(false).build())).build();
        assertThat(roundTrip(batch, BatchGetItemRequest.builder())).isEqualTo(batch);
    }

    /** Answers as DynamoDB writes them: numbers, timestamps, nested lists and maps, unknown members. */
    @Test
    void readsTheAnswersShapes() {
        QueryResponse query = Marshaller.fromJson(json("{\"Count\":2,\"ScannedCount\":3,\"Items\":[{\"k\":{\"S\":\"1\"}},"
                + "{\"k\":{\"S\":\"2\"},\"n\":{\"N\":\"5\"}}],\"LastEvaluatedKey\":{\"k\":{\"S\":\"2\"}},"
                + "\"ConsumedCapacity\":{\"TableName\":\"T\",\"CapacityUnits\":1.5,"
                + "\"GlobalSecondaryIndexes\":{\"I\":{\"CapacityUnits\":0.5}}},\"SomethingNew\":[1,{\"x\":null}]}"),
                QueryResponse.builder());
        assertThat(query.count()).isEqualTo(2);
        assertThat(query.scannedCount()).isEqualTo(3);
        assertThat(query.items()).hasSize(2);
        assertThat(query.items().get(1).get("n").n()).isEqualTo("5");
        assertThat(query.lastEvaluatedKey()).containsEntry("k", AttributeValue.fromS("2"));
        assertThat(query.consumedCapacity().capacityUnits()).isEqualTo(1.5);
        assertThat(query.consumedCapacity().globalSecondaryIndexes().get("I").capacityUnits()).isEqualTo(0.5);
        UpdateItemResponse update = Marshaller.fromJson(json("{\"Attributes\":{\"a\":{\"NS\":[\"1\",\"2\"]}}}"),
                UpdateItemResponse.builder());
        assertThat(update.attributes().get("a").ns()).containsExactly("1", "2");
        UpdateItemResponse empty = Marshaller.fromJson(json("{}"), UpdateItemResponse.builder());
        assertThat(empty.hasAttributes()).isFalse();
        BatchGetItemResponse batch = Marshaller.fromJson(json("{\"Responses\":{\"T\":[{\"k\":{\"S\":\"1\"}}]},"
                + "\"UnprocessedKeys\":{\"T\":{\"Keys\":[{\"k\":{\"S\":\"2\"}}],\"ConsistentRead\":true}}}"),
                BatchGetItemResponse.builder());
        assertThat(batch.responses().get("T")).containsExactly(Map.of("k", AttributeValue.fromS("1")));
        assertThat(batch.unprocessedKeys().get("T").consistentRead()).isTrue();
        DescribeTableResponse table = Marshaller.fromJson(json("{\"Table\":{\"TableName\":\"T\",\"TableStatus\":\"ACTIVE\","
                + "\"CreationDateTime\":1.700000000123E9,\"ItemCount\":12345678901,\"TableSizeBytes\":0}}"),
                DescribeTableResponse.builder());
        assertThat(table.table().tableStatus()).isEqualTo(TableStatus.ACTIVE);
        assertThat(table.table().creationDateTime()).isEqualTo(Instant.ofEpochSecond(1_700_000_000L, 123_000_000));
        assertThat(table.table().itemCount()).isEqualTo(12_345_678_901L);
    }

    @Test
    void instantsAreWrittenAsEpochSeconds() {
        var description = software.amazon.awssdk.services.dynamodb.model.TableDescription.builder()
                .creationDateTime(Instant.ofEpochSecond(1_700_000_000L, 500_000_000)).build();
        assertThat(Marshaller.toJson(description)).isEqualTo("{\"CreationDateTime\":1700000000.5}");
        assertThat(roundTrip(description, software.amazon.awssdk.services.dynamodb.model.TableDescription.builder()))
                .isEqualTo(description);
    }

    @Test
    void refusesWhatIsNotJson() {
        assertThatThrownBy(() -> JsonText.parse("{\"a\":1} x")).hasMessageContaining("after the value");
        assertThatThrownBy(() -> JsonText.parse("{\"a\":")).hasMessageContaining("unexpected end");
        assertThatThrownBy(() -> JsonText.parse("{\"a\":\"\\q\"}")).hasMessageContaining("bad escape");
        assertThat(JsonText.parse("{\"a\":\"\\u00e9\\/\",\"b\":[true,false,null,-1.5e-3]}"))
                .isEqualTo(Map.of("a", "é/", "b", java.util.Arrays.asList(true, false, null, new JsonText.Number("-1.5e-3"))));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(String text) {
        return (Map<String, Object>) JsonText.parse(text);
    }

    private static Object roundTrip(SdkPojo value, SdkPojo builder) {
        return Marshaller.fromJson(json(Marshaller.toJson(value)), builder);
    }
}

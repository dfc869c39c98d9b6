package io.gamefleet.local.bench.coldstart;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbTable;
import software.amazon.awssdk.enhanced.dynamodb.Key;
import software.amazon.awssdk.enhanced.dynamodb.TableSchema;

/**
 * The cold-start benchmark's baseline: a handler as the AWS documentation writes one, with the
 * DynamoDB Enhanced Client made from defaults ({@link DynamoDbEnhancedClient#create()}), a bean
 * table schema, and one get and one update per request. Not in the Lambda jar.
 */
public final class TextbookHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {
    private static final DynamoDbEnhancedClient ENHANCED = DynamoDbEnhancedClient.create();
    private static final DynamoDbTable<TextbookServer> TABLE =
            ENHANCED.table(System.getenv("TEXTBOOK_TABLE"), TableSchema.fromBean(TextbookServer.class));

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        String id = event.getPathParameters().get("GameServerId");
        TextbookServer server = TABLE.getItem(Key.builder().partitionValue(id).build());
        if (server == null) {
            return APIGatewayV2HTTPResponse.builder().withStatusCode(404).withBody("{}").build();
        }
        server.setLastHealthCheckTime(System.currentTimeMillis());
        TABLE.updateItem(server);
        return APIGatewayV2HTTPResponse.builder().withStatusCode(200)
                .withBody("{\"GameServerId\":\"" + server.getGameServerId() + "\"}").build();
    }
}

package io.gamefleet.adapters.dynamodb.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;

/** Error answers as exceptions: the code from {@code __type} or the x-amzn-ErrorType header. */
class ErrorsTest {
    @Test
    void errorCodesComeFromTheTypeOrTheHeader() {
        assertThat(error(400, Map.of("__type", "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",
                "message", "The conditional request failed"), null))
                .isInstanceOf(ConditionalCheckFailedException.class).hasMessageContaining("The conditional request failed");
        assertThat(error(400, Map.of("Message", "no type, the header's code"), "ConditionalCheckFailedException:http://x"))
                .isInstanceOf(ConditionalCheckFailedException.class)
                .satisfies(e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ConditionalCheckFailedException"));
        AwsServiceException unknown = error(503, Map.of(), null);
        assertThat(unknown).isInstanceOf(InternalServerErrorException.class);
        assertThat(unknown.awsErrorDetails().errorCode()).isEqualTo("InternalServerError");
        assertThat(unknown.statusCode()).isEqualTo(503);
        AwsServiceException unnamed = error(400, Map.of(), null);
        assertThat(unnamed).isExactlyInstanceOf(DynamoDbException.class);
        assertThat(unnamed.awsErrorDetails().errorCode()).isEqualTo("UnknownError");
        assertThat(error(400, Map.of("__type", "ValidationException", "message", "bad"), null).awsErrorDetails().errorCode())
                .isEqualTo("ValidationException");
    }

    private static AwsServiceException error(int status, Map<String, Object> body, String header) {
        return Errors.exception(new DynamoDbHttpClient.Answer(status, new byte[0], "req-1", header), body);
    }
}

package io.gamefleet.adapters.dynamodb.client;

import java.util.Map;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.dynamodb.model.BackupInUseException;
import software.amazon.awssdk.services.dynamodb.model.BackupNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DuplicateItemException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.IdempotentParameterMismatchException;
import software.amazon.awssdk.services.dynamodb.model.IndexNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.ItemCollectionSizeLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.LimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.PolicyNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.ReplicatedWriteConflictException;
import software.amazon.awssdk.services.dynamodb.model.RequestLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableAlreadyExistsException;
import software.amazon.awssdk.services.dynamodb.model.TableInUseException;
import software.amazon.awssdk.services.dynamodb.model.TableNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ThrottlingException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;
import software.amazon.awssdk.services.dynamodb.model.TransactionInProgressException;

/**
 * DynamoDB's error answers as the SDK's exceptions: the code is {@code __type}'s part after '#'
 * (or the x-amzn-ErrorType header's before ':'), the message {@code message} or {@code Message};
 * a modeled code gets its own exception class with its modeled members read from the answer (a
 * failed condition's {@code Item}, a cancelled transaction's {@code CancellationReasons}), any
 * other code (ValidationException, UnrecognizedClientException, ...) a {@link DynamoDbException}.
 */
final class Errors {
    private Errors() {}

    static AwsServiceException exception(DynamoDbHttpClient.Answer answer, Map<String, Object> body) {
        String code = code(body.get("__type"), answer.errorType());
        Object m = body.containsKey("message") ? body.get("message") : body.get("Message");
        String message = m instanceof String s ? s : null;
        if (code == null) {
            code = answer.status() >= 500 ? "InternalServerError" : "UnknownError";
            if (message == null) {
                message = "DynamoDB answered HTTP " + answer.status();
            }
        }
        DynamoDbException.Builder builder = builder(code);
        if (!body.isEmpty()) {
            Marshaller.fill(body, builder); // the modeled members; the base builder has none
        }
        builder.message(message).statusCode(answer.status()).requestId(answer.requestId())
                .awsErrorDetails(DynamoDbHttpClient.details(code, message));
        return (AwsServiceException) builder.build();
    }

    private static String code(Object type, String header) {
        String code = type instanceof String s ? s : header;
        if (code == null || code.isBlank()) {
            return null;
        }
        int hash = code.lastIndexOf('#');
        if (hash >= 0) {
            code = code.substring(hash + 1);
        } else if (type == null && code.indexOf(':') >= 0) {
            code = code.substring(0, code.indexOf(':'));
        }
        return code.isBlank() ? null : code;
    }

    /** The builder of the exception the SDK throws for {@code code}. */
    static DynamoDbException.Builder builder(String code) {
        return switch (code) {
            case "ConditionalCheckFailedException" -> ConditionalCheckFailedException.builder();
            case "TransactionCanceledException" -> TransactionCanceledException.builder();
            case "TransactionConflictException" -> TransactionConflictException.builder();
            case "TransactionInProgressException" -> TransactionInProgressException.builder();
            case "ResourceNotFoundException" -> ResourceNotFoundException.builder();
            case "ResourceInUseException" -> ResourceInUseException.builder();
            case "ProvisionedThroughputExceededException" -> ProvisionedThroughputExceededException.builder();
            case "RequestLimitExceeded" -> RequestLimitExceededException.builder();
            case "ThrottlingException" -> ThrottlingException.builder();
            case "InternalServerError" -> InternalServerErrorException.builder();
            case "LimitExceededException" -> LimitExceededException.builder();
            case "ItemCollectionSizeLimitExceededException" -> ItemCollectionSizeLimitExceededException.builder();
            case "IdempotentParameterMismatchException" -> IdempotentParameterMismatchException.builder();
            case "DuplicateItemException" -> DuplicateItemException.builder();
            case "ReplicatedWriteConflictException" -> ReplicatedWriteConflictException.builder();
            case "IndexNotFoundException" -> IndexNotFoundException.builder();
            case "TableNotFoundException" -> TableNotFoundException.builder();
            case "TableInUseException" -> TableInUseException.builder();
            case "TableAlreadyExistsException" -> TableAlreadyExistsException.builder();
            case "PolicyNotFoundException" -> PolicyNotFoundException.builder();
            case "BackupNotFoundException" -> BackupNotFoundException.builder();
            case "BackupInUseException" -> BackupInUseException.builder();
            default -> DynamoDbHttpClient.unmodeled();
        };
    }
}

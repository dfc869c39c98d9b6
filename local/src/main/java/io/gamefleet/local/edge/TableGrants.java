package io.gamefleet.local.edge;

import io.gamefleet.catalog.FunctionAccess;
import io.gamefleet.catalog.FunctionAccess.TableAccess;
import io.gamefleet.catalog.TableDefinition;
import io.gamefleet.catalog.Tables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * One function's IAM policy on the tables, enforced on its DynamoDB client as AWS enforces it:
 * the grants the CDK app makes of the catalog's {@link FunctionAccess} (item actions on the
 * table, Query on a queried index's ARN), so that every call a function makes on the local
 * profile is one its role allows in AWS. A call it does not allow fails before it is sent, with
 * the AccessDeniedException AWS would answer, and is reported to {@code denied}.
 *
 * <p>As IAM authorizes them: a batch on each of its tables; a transaction item by item, as the
 * item's own action (PutItem, UpdateItem, DeleteItem, ConditionCheckItem, GetItem); a Query or
 * Scan of an index on the index.
 */
public final class TableGrants implements ExecutionInterceptor {
    private final String functionName;
    private final FunctionAccess.Access access;
    private final Map<String, TableDefinition> tablesByName;
    private final Consumer<String> denied;

    /** {@code environment}: the functions' own, which names each catalog table. */
    public TableGrants(String functionName, Map<String, String> environment, Consumer<String> denied) {
        this.functionName = functionName;
        this.access = FunctionAccess.of(functionName);
        this.tablesByName = Tables.ALL.stream().filter(t -> environment.containsKey(t.environmentVariable()))
                .collect(Collectors.toUnmodifiableMap(t -> environment.get(t.environmentVariable()),
                        t -> t));
        this.denied = denied;
    }

    /** An action on a table, or on one of its indexes. */
    record Call(String action, String table, Optional<String> index) {
        String resource() {
            return "table/" + table + index.map(i -> "/index/" + i).orElse("");
        }
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes executionAttributes) {
        if (!(context.request() instanceof DynamoDbRequest)) {
            return; // the function's other clients (Step Functions, the push channel's) carry it too
        }
        for (Call call : calls(context.request())) {
            if (!allows(call)) {
                String message = "local IAM: function " + functionName + " is not authorized to perform: dynamodb:"
                        + call.action() + " on resource: " + call.resource() + " (its catalog FunctionAccess does"
                        + " not grant it)";
                denied.accept(message);
                throw DynamoDbException.builder().message(message).statusCode(400)
                        .awsErrorDetails(AwsErrorDetails.builder().errorCode("AccessDeniedException")
                                .errorMessage(message).serviceName("DynamoDb").build())
                        .build();
            }
        }
    }

    boolean allows(Call call) {
        TableDefinition table = tablesByName.get(call.table());
        if (table == null) {
            return false;
        }
        Optional<TableAccess> grant = access.tables().stream().filter(t -> t.table().equals(table)).findFirst();
        if (grant.isEmpty()) {
            return false;
        }
        return call.index().isPresent()
                ? call.action().equals(FunctionAccess.QUERY) && grant.get().queriedIndexes().contains(call.index().get())
                : grant.get().actions().contains(call.action());
    }

    static List<Call> calls(SdkRequest request) {
        List<Call> calls = new ArrayList<>();
        if (request instanceof GetItemRequest r) {
            calls.add(new Call(FunctionAccess.GET, r.tableName(), Optional.empty()));
        } else if (request instanceof PutItemRequest r) {
            calls.add(new Call(FunctionAccess.PUT, r.tableName(), Optional.empty()));
        } else if (request instanceof UpdateItemRequest r) {
            calls.add(new Call(FunctionAccess.UPDATE, r.tableName(), Optional.empty()));
        } else if (request instanceof DeleteItemRequest r) {
            calls.add(new Call(FunctionAccess.DELETE, r.tableName(), Optional.empty()));
        } else if (request instanceof QueryRequest r) {
            calls.add(new Call(FunctionAccess.QUERY, r.tableName(), Optional.ofNullable(r.indexName())));
        } else if (request instanceof ScanRequest r) {
            calls.add(new Call("Scan", r.tableName(), Optional.ofNullable(r.indexName())));
        } else if (request instanceof BatchGetItemRequest r) {
            r.requestItems().keySet().forEach(t -> calls.add(new Call(FunctionAccess.BATCH_GET, t, Optional.empty())));
        } else if (request instanceof BatchWriteItemRequest r) {
            r.requestItems().keySet().forEach(t -> calls.add(new Call("BatchWriteItem", t, Optional.empty())));
        } else if (request instanceof TransactWriteItemsRequest r) {
            for (TransactWriteItem item : r.transactItems()) {
                calls.add(item.put() != null ? new Call(FunctionAccess.PUT, item.put().tableName(), Optional.empty())
                        : item.update() != null ? new Call(FunctionAccess.UPDATE, item.update().tableName(), Optional.empty())
                        : item.delete() != null ? new Call(FunctionAccess.DELETE, item.delete().tableName(), Optional.empty())
                        : new Call(FunctionAccess.CONDITION_CHECK, item.conditionCheck().tableName(), Optional.empty()));
            }
        } else if (request instanceof TransactGetItemsRequest r) {
            r.transactItems().forEach(i -> calls.add(new Call(FunctionAccess.GET, i.get().tableName(), Optional.empty())));
        } else {
            // No function calls anything else (DescribeTable, CreateTable...): the catalog grants none of it.
            String operation = request.getClass().getSimpleName().replaceFirst("Request$", "");
            calls.add(new Call(operation, "*", Optional.empty()));
        }
        return calls;
    }
}

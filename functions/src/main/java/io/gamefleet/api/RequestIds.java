package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.gamefleet.logging.JsonLog;
import java.util.HashMap;
import java.util.Map;

/**
 * API Gateway's id of a request, which the AWS SDKs read from {@code x-amzn-RequestId} and put in
 * their exceptions ("Request ID: ..."), and which the function's log records carry as {@code
 * apiRequestId}: an error a caller reports leads to its log record.
 */
public final class RequestIds {
    public static final String HEADER = "x-amzn-RequestId";

    private RequestIds() {}

    /** Logs the request's id with the invocation's records; null when API Gateway gave none. */
    public static String log(APIGatewayV2HTTPEvent event) {
        String id = event.getRequestContext() == null ? null : event.getRequestContext().getRequestId();
        if (id != null) {
            JsonLog.with("apiRequestId", id);
        }
        return id;
    }

    /** The response with the request's id in {@link #HEADER}, when there is one. */
    public static APIGatewayV2HTTPResponse tag(String id, APIGatewayV2HTTPResponse response) {
        if (id == null || id.isBlank()) {
            return response;
        }
        Map<String, String> headers = response.getHeaders() == null ? new HashMap<>() : new HashMap<>(response.getHeaders());
        headers.put(HEADER, id);
        response.setHeaders(headers);
        return response;
    }
}

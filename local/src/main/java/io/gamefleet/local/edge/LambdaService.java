package io.gamefleet.local.edge;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Lambda's Invoke API ({@code POST /2015-03-31/functions/{name}/invocations}), which the Step
 * Functions sidecar's Task states call, for the workflow, event and schedule functions only
 * ({@link Functions#invocable}): an API function is not found here. A function error is 200 with
 * X-Amz-Function-Error, as in AWS.
 */
final class LambdaService implements EdgeService {
    private static final String PREFIX = "/2015-03-31/functions/";
    private static final String SUFFIX = "/invocations";

    private final Map<String, RequestHandler<?, ?>> functions;

    LambdaService(Map<String, RequestHandler<?, ?>> invocable) {
        this.functions = Map.copyOf(invocable);
    }

    @Override
    public boolean handles(Exchange exchange) {
        String path = exchange.path();
        return exchange.method().equals("POST") && path.startsWith(PREFIX) && path.endsWith(SUFFIX)
                && path.length() > PREFIX.length() + SUFFIX.length();
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void serve(Exchange exchange) throws IOException {
        String path = exchange.path();
        String name = path.substring(PREFIX.length(), path.length() - SUFFIX.length());
        RequestHandler handler = functions.get(PercentEncoding.segment(name));
        exchange.note(AccessLog.OPERATION, "Invoke " + PercentEncoding.segment(name));
        if (handler == null) {
            exchange.addResponseHeader("x-amzn-ErrorType", "ResourceNotFoundException");
            exchange.respond(404, Exchange.JSON.writeValueAsString(Map.of("Type", "User", "message",
                    "Function not found: " + name + " (the API functions are reached through the API, signed, not"
                            + " through Lambda's Invoke path)")));
            return;
        }
        Object output;
        try {
            Object input = Exchange.JSON.readValue(exchange.body(), Map.class);
            output = handler.handleRequest(input, null);
        } catch (RuntimeException e) {
            exchange.addResponseHeader("X-Amz-Function-Error", "Unhandled");
            Map<String, String> payload = new LinkedHashMap<>();
            payload.put("errorType", e.getClass().getName());
            payload.put("errorMessage", String.valueOf(e.getMessage()));
            exchange.respond(200, Exchange.JSON.writeValueAsString(payload));
            return;
        }
        exchange.respond(200, Exchange.JSON.writeValueAsString(output));
    }
}

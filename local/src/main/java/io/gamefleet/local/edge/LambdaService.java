package io.gamefleet.local.edge;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Lambda's Invoke API ({@code POST /2015-03-31/functions/{name}/invocations}), which the Step
 * Functions sidecar's Task states call, for the workflow, event and schedule functions only
 * ({@link Functions#invocable}): an API function is not found here. A function error is 200 with
 * X-Amz-Function-Error, as in AWS. An asynchronous invocation ({@code X-Amz-Invocation-Type: Event},
 * the functions' standby requests) is 202 at once, and run after on a thread of its own, one at a
 * time; past {@link #QUEUED_EVENTS} waiting, one is dropped (Lambda would retry it; a standby
 * request is a hint the balancer's next run makes good).
 */
final class LambdaService implements EdgeService, AutoCloseable {
    private static final String PREFIX = "/2015-03-31/functions/";
    private static final String SUFFIX = "/invocations";
    static final int QUEUED_EVENTS = 100;

    private final Map<String, RequestHandler<?, ?>> functions;
    private final ThreadPoolExecutor events = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(QUEUED_EVENTS), runnable -> {
                Thread t = new Thread(runnable, "edge-lambda-events");
                t.setDaemon(true);
                return t;
            }, (task, pool) -> System.err.println("local profile: an asynchronous Lambda invocation was dropped: "
                    + QUEUED_EVENTS + " were waiting"));

    LambdaService(Map<String, RequestHandler<?, ?>> invocable) {
        this.functions = Map.copyOf(invocable);
    }

    /** Waits until the asynchronous invocations taken so far have run (for tests); false when {@code limit} passed first. */
    boolean awaitEvents(Duration limit) throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(1);
        events.execute(ran::countDown);
        return ran.await(limit.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        events.shutdownNow();
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
        Object input = Exchange.JSON.readValue(exchange.body(), Map.class);
        if ("Event".equals(exchange.headers().getFirst("X-Amz-Invocation-Type"))) {
            events.execute(() -> {
                try {
                    handler.handleRequest(input, null);
                } catch (RuntimeException e) {
                    System.err.println("local profile: the asynchronous invocation of " + name + " failed: " + e);
                }
            });
            exchange.respond(202, "");
            return;
        }
        Object output;
        try {
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

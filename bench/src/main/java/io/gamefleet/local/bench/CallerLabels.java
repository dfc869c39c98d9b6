package io.gamefleet.local.bench;

import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Names, in a header of each DynamoDB request, what made it and the DynamoDB operation, a query's
 * with its index ({@code CreateSessionHandler GetItem}, {@code CreateSessionHandler Query:Claimable}), so that {@link CountingProxy} counts the calls at the endpoint
 * by caller and operation. The caller is the function (the innermost Lambda handler class on the
 * calling thread's stack, {@code CreateSessionHandler}, {@code BalancerHandler}), or what a thread
 * of the benchmark said it is ({@link #as}). A read of a group's shards fans out to a pool of
 * threads that do not know their caller ({@code Shards}): those calls are named {@code fan-out} and
 * told apart by the index they read, {@code fan-out Query:Claimable} (claims, and the sessions'
 * claims: the only readers of the claim index) or {@code fan-out Query:ByGroupRegistration} (a
 * listing of every server of a group, which the balancer makes; the benchmark's own listing pages
 * shard by shard on its thread).
 */
final class CallerLabels implements ExecutionInterceptor {
    static final String HEADER = "X-Gamefleet-Bench-Caller";
    private static final String FAN_OUT_THREAD = "gamefleet-shard-query";
    static final String FAN_OUT = "fan-out";
    /** The handlers' base classes: the function is the subclass, further in on the stack. */
    private static final Set<String> BASES = Set.of("ApiHandler", "ExtensionHandler", "WebSocketHandler", "StepHandler");
    private static final ThreadLocal<String> NAMED = new ThreadLocal<>();

    /** Names the calling thread's DynamoDB calls, until named again ({@code null}: by their stack). */
    static void as(String caller) {
        NAMED.set(caller);
    }

    @Override
    public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        if (context.request() instanceof QueryRequest q && q.indexName() != null) {
            operation += ":" + q.indexName(); // a claim's reads of the claim index apart from its other queries
        }
        return context.httpRequest().toBuilder().putHeader(HEADER, caller(context) + " " + operation).build();
    }

    /**
     * The caller of a label ({@code CreateSessionHandler} of {@code CreateSessionHandler GetItem}),
     * a fan-out's with its operation and index, which say whose it is.
     */
    static String callerOf(String label) {
        return label.startsWith(FAN_OUT + " ") ? label : label.substring(0, label.lastIndexOf(' '));
    }

    private static String caller(Context.ModifyHttpRequest context) {
        String named = NAMED.get();
        if (named != null) {
            return named;
        }
        if (Thread.currentThread().getName().startsWith(FAN_OUT_THREAD)) {
            return FAN_OUT;
        }
        Optional<String> handler = StackWalker.getInstance().walk(frames -> frames.map(StackWalker.StackFrame::getClassName)
                .filter(c -> c.startsWith("io.gamefleet.") && c.endsWith("Handler"))
                .map(c -> c.substring(c.lastIndexOf('.') + 1))
                .filter(c -> !BASES.contains(c))
                .findFirst());
        return handler.orElse("thread " + Thread.currentThread().getName());
    }
}

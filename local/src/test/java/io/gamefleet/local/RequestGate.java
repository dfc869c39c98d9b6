package io.gamefleet.local;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * An SDK interceptor for the profile's DynamoDB and Step Functions clients that counts the
 * requests matching a predicate and, while closed, holds them (up to a safety timeout), so a
 * test can catch a group in a transient status (NEW, ACTIVATING) or see a workflow poll.
 *
 * <p>A request still held when the safety timeout runs out fails (the interceptor throws), and
 * the next {@link #open()} fails the test: a gate that had let it through silently would leave a
 * test asserting on a status the system had already moved past.
 */
final class RequestGate implements ExecutionInterceptor {
    private static final Duration SAFETY = Duration.ofSeconds(20);

    private final Duration safety;
    private final Predicate<SdkRequest> matches;
    private final AtomicInteger seen = new AtomicInteger();
    private final AtomicInteger timedOut = new AtomicInteger();
    private volatile CountDownLatch open = new CountDownLatch(0);
    private volatile CountDownLatch arrived = new CountDownLatch(1);

    RequestGate(Predicate<SdkRequest> matches) {
        this(matches, SAFETY);
    }

    RequestGate(Predicate<SdkRequest> matches, Duration safety) {
        this.matches = matches;
        this.safety = safety;
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        if (!matches.test(context.request())) {
            return;
        }
        seen.incrementAndGet();
        arrived.countDown();
        try {
            if (!open.await(safety.toMillis(), TimeUnit.MILLISECONDS)) {
                timedOut.incrementAndGet();
                throw new IllegalStateException("RequestGate: " + context.request().getClass().getSimpleName()
                        + " was held " + safety.toMillis() + " ms and the gate was not opened; failing the request");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** From now on, matching requests wait until {@link #open()}. */
    void close() {
        timedOut.set(0);
        arrived = new CountDownLatch(1);
        open = new CountDownLatch(1);
    }

    /** Lets the held requests go; fails if one was held past the safety timeout since {@link #close()}. */
    void open() {
        open.countDown();
        int late = timedOut.getAndSet(0);
        if (late > 0) {
            throw new AssertionError(late + " request(s) held by this gate timed out after " + safety.toMillis()
                    + " ms before open() and were failed: the test held the gate longer than the safety timeout");
        }
    }

    /** Waits until a matching request has arrived since {@link #close()}. */
    boolean awaitArrival(Duration timeout) throws InterruptedException {
        return arrived.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    int seen() {
        return seen.get();
    }
}

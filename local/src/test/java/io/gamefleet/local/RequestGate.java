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
 */
final class RequestGate implements ExecutionInterceptor {
    private static final Duration SAFETY = Duration.ofSeconds(20);

    private final Predicate<SdkRequest> matches;
    private final AtomicInteger seen = new AtomicInteger();
    private volatile CountDownLatch open = new CountDownLatch(0);
    private volatile CountDownLatch arrived = new CountDownLatch(1);

    RequestGate(Predicate<SdkRequest> matches) {
        this.matches = matches;
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        if (!matches.test(context.request())) {
            return;
        }
        seen.incrementAndGet();
        arrived.countDown();
        try {
            open.await(SAFETY.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** From now on, matching requests wait until {@link #open()}. */
    void close() {
        arrived = new CountDownLatch(1);
        open = new CountDownLatch(1);
    }

    void open() {
        open.countDown();
    }

    /** Waits until a matching request has arrived since {@link #close()}. */
    boolean awaitArrival(Duration timeout) throws InterruptedException {
        return arrived.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    int seen() {
        return seen.get();
    }
}

package io.gamefleet.agent;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * The agent's one retry rule, for a slot's crash restarts, its API calls, its registrations at start
 * and its push channel's reconnects: after {@code n} failures in a row the step is {@code initial x
 * 2^(n-1)}, at most {@code max}, and the delay is drawn uniformly between half and one and a half
 * times the step. On average it is the step; a fleet that failed together (an outage of the API or
 * of the push endpoint) retries spread over a whole step instead of in step, and a crash loop still
 * waits at least half of it.
 */
final class Backoff {
    /** Every delay its whole step: for tests that count steps. */
    static final DoubleSupplier NO_JITTER = () -> 0.5;

    private final Duration initial;
    private final Duration max;
    private final DoubleSupplier jitter;

    /** {@code jitter}: uniform in [0, 1). */
    Backoff(Duration initial, Duration max, DoubleSupplier jitter) {
        this.initial = initial;
        this.max = max;
        this.jitter = jitter;
    }

    /** An agent's own random source of jitter, so that no two agents draw alike. */
    static DoubleSupplier randomJitter() {
        SecureRandom random = new SecureRandom();
        return random::nextDouble;
    }

    /** initial, 2 x initial, 4 x initial... up to max, before jitter. */
    Duration step(int failures) {
        long factor = 1L << Math.min(Math.max(failures, 1) - 1, 20);
        Duration d = initial.multipliedBy(factor);
        return d.compareTo(max) > 0 ? max : d;
    }

    /** The delay before the next try after {@code failures} failures in a row. */
    Duration delay(int failures) {
        long step = step(failures).toMillis();
        return Duration.ofMillis(step / 2 + Math.round(step * jitter.getAsDouble()));
    }
}

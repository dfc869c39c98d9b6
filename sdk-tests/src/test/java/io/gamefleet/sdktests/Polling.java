package io.gamefleet.sdktests;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Bounded polling of a separate process, whose clock this JVM cannot move: each poll is a request,
 * with a short pause between polls so that they do not hammer it, until a deadline.
 */
final class Polling {
    private static final Duration PAUSE = Duration.ofMillis(100);

    private Polling() {}

    /** Polls until {@code probe} gives a value, or fails after {@code timeout} saying what was awaited. */
    static <T> T until(String what, Duration timeout, Supplier<Optional<T>> probe) {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            Optional<T> value = probe.get();
            if (value.isPresent()) {
                return value.get();
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("not within " + timeout.toMillis() + " ms: " + what);
            }
            pause();
        }
    }

    static void pause() {
        try {
            Thread.sleep(PAUSE.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while polling", e);
        }
    }
}

package io.gamefleet.logging;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Logs unexpected errors for the operator without flooding the log: the first of a kind with its
 * stack trace, then the same error (same place, type and message) at most once a minute, as one
 * record with how many times it happened since it was last written. A dependency that is down would
 * otherwise write a stack trace per request.
 */
public final class ErrorLog {
    /** Where a report goes: a message, and the error when its stack trace is to be written. */
    public interface Sink {
        void write(String message, Throwable withStack);
    }

    /** The functions' JSON log, which the local profile prints readably. */
    public static final ErrorLog SHARED = new ErrorLog(
            (message, error) -> {
                if (error == null) {
                    JsonLog.warn(message);
                } else {
                    JsonLog.error(message, error);
                }
            }, Duration.ofMinutes(1));

    private static final int MAX_KINDS = 1000;

    private record Kind(long lastWritten) {}

    private final Sink out;
    private final long windowNanos;
    private final LongSupplier nanoTime;
    private final Map<String, Kind> kinds = new ConcurrentHashMap<>();
    private final Map<String, Long> counts = new ConcurrentHashMap<>();

    public ErrorLog(Sink out, Duration window) {
        this(out, window, System::nanoTime);
    }

    /** {@code nanoTime}: the monotonic time the window is measured in. */
    ErrorLog(Sink out, Duration window, LongSupplier nanoTime) {
        this.out = out;
        this.windowNanos = window.toNanos();
        this.nanoTime = nanoTime;
    }

    /** {@code what}: what failed, such as the operation ("CreateGameServerGroup failed unexpectedly"). */
    public void report(String what, Throwable e) {
        String key = what + "|" + e.getClass().getName() + "|" + e.getMessage() + "|"
                + (e.getStackTrace().length > 0 ? e.getStackTrace()[0] : "");
        if (kinds.size() > MAX_KINDS) {
            kinds.clear();
            counts.clear();
        }
        long now = nanoTime.getAsLong();
        long[] repeated = {0};
        boolean[] write = {false};
        kinds.compute(key, (k, seen) -> {
            long count = counts.merge(k, 1L, Long::sum);
            if (seen == null || now - seen.lastWritten() >= windowNanos) {
                write[0] = true;
                repeated[0] = count - 1;
                counts.put(k, 0L);
                return new Kind(now);
            }
            return seen;
        });
        if (!write[0]) {
            return;
        }
        if (repeated[0] > 0) {
            out.write(what + ": " + e + " (the same error " + repeated[0] + " more times since it was last written)", null);
        } else {
            out.write(what + " (the same error again is written at most once a minute, with a count)", e);
        }
    }
}

package io.gamefleet.local;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that stands still until a test moves it. Shared by the local profile (handlers, edge
 * server, simulated fleet) and the test's client, so claim expiry, health timeouts and SigV4
 * request times all follow the same timeline. Thread-safe.
 */
final class MutableClock extends Clock {
    private final AtomicReference<Instant> now;
    private final ZoneId zone;

    MutableClock(Instant start) {
        this(new AtomicReference<>(start), ZoneOffset.UTC);
    }

    private MutableClock(AtomicReference<Instant> now, ZoneId zone) {
        this.now = now;
        this.zone = zone;
    }

    /** Starts at the current wall-clock time, truncated to the millisecond (what the store keeps). */
    static MutableClock startingNow() {
        return new MutableClock(Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    /** Moves time forward (or back, for a negative duration); returns the new instant. */
    Instant advance(Duration by) {
        return now.updateAndGet(t -> t.plus(by));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    /** A view in another zone that still follows this clock's instant. */
    @Override
    public Clock withZone(ZoneId newZone) {
        return new MutableClock(now, newZone);
    }
}

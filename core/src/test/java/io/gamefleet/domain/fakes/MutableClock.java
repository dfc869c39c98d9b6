package io.gamefleet.domain.fakes;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that stands still until a test moves it; thread-safe. Clocks made by {@link #withZone}
 * move with it.
 */
public final class MutableClock extends Clock {
    private final AtomicReference<Instant> now;
    private final ZoneId zone;

    public MutableClock(Instant start) {
        this(new AtomicReference<>(start), ZoneOffset.UTC);
    }

    private MutableClock(AtomicReference<Instant> now, ZoneId zone) {
        this.now = now;
        this.zone = zone;
    }

    /** Starts at the wall-clock time, truncated to the millisecond (what the store keeps). */
    public static MutableClock startingNow() {
        return new MutableClock(Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return new MutableClock(now, zone);
    }

    /** Moves the clock forward (or back, with a negative duration); returns the new time. */
    public Instant advance(Duration by) {
        return now.updateAndGet(t -> t.plus(by));
    }

    public void set(Instant instant) {
        now.set(instant);
    }
}

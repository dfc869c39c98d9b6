package io.gamefleet.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * How long an instance lives, PlayFab's model: it ends at its launch time plus {@code max}, and from
 * {@code guaranteed} before that it is retiring: DRAINING, and no claim lands on it, so that every
 * claimed game server has at least {@code guaranteed} before its instance ends. A zero {@code max}:
 * instances live as long as their scaling group keeps them. An instance whose launch time is not
 * known is never retiring.
 */
public record InstanceLifetime(Duration max, Duration guaranteed) {
    public static final InstanceLifetime UNLIMITED = new InstanceLifetime(Duration.ZERO, Duration.ZERO);

    public InstanceLifetime {
        if (max.isNegative() || guaranteed.isNegative() || (!max.isZero() && guaranteed.compareTo(max) >= 0)) {
            throw new IllegalArgumentException("a guaranteed lifetime of " + guaranteed + " needs a longer maximum than "
                    + max + " (or none)");
        }
    }

    /**
     * How long past its instance's end a record of one of its servers (its process, its session) is
     * kept (a store forgets it after): the server cannot outlive its instance.
     */
    public static final Duration KEPT_PAST_END = Duration.ofDays(1);
    /** How long such a record is kept where instances have no end (lifetimes unlimited). */
    public static final Duration KEPT_UNLIMITED = Duration.ofDays(30);

    public boolean limited() {
        return !max.isZero();
    }

    /** When an instance launched at {@code launchTime} ends; empty when lifetimes are unlimited or the launch is unknown. */
    public Optional<Instant> end(Instant launchTime) {
        return limited() && launchTime != null ? Optional.of(launchTime.plus(max)) : Optional.empty();
    }

    /** Whether the instance has less than the guaranteed lifetime left at {@code now} (or has ended). */
    public boolean retiring(Instant launchTime, Instant now) {
        return end(launchTime).filter(end -> !now.isBefore(end.minus(guaranteed))).isPresent();
    }

    /** Whether the instance's lifetime is over at {@code now}. */
    public boolean ended(Instant launchTime, Instant now) {
        return end(launchTime).filter(end -> !now.isBefore(end)).isPresent();
    }

    /**
     * The latest launch time of an instance that is retiring at {@code now}: a claim lands only on
     * servers of instances launched after it. Empty when lifetimes are unlimited.
     */
    public Optional<Instant> retiringLaunchedBy(Instant now) {
        return limited() ? Optional.of(now.minus(max).plus(guaranteed)) : Optional.empty();
    }

    /**
     * Until when a record of a server on an instance launched at {@code launchTime}, written at
     * {@code now}, is kept: {@link #KEPT_PAST_END} past the instance's end, {@link #KEPT_UNLIMITED}
     * from now where it has none.
     */
    public Instant keepUntil(Instant launchTime, Instant now) {
        return end(launchTime).map(end -> (end.isAfter(now) ? end : now).plus(KEPT_PAST_END))
                .orElse(now.plus(KEPT_UNLIMITED));
    }
}

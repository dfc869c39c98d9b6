package io.gamefleet.domain;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Each caller's share of a stage-wide throttle, held by the container that serves it: a token
 * bucket per key (an instance, a push connection) that fills at {@link Budget#perSecond} up to
 * {@link Budget#burst}; a request finding it empty is refused ThrottlingException, for that key
 * alone. Kept in memory, so a request within its share costs no read or write; a key's requests
 * spread over several containers get a share in each (docs/capacity.md, "Fair shares").
 */
public final class FairShare {
    /** Requests per second a key's bucket fills at, and how many it holds. */
    public record Budget(double perSecond, int burst) {
        public Budget {
            if (!(perSecond > 0) || burst < 1) {
                throw new IllegalArgumentException("a fair share needs a positive rate and a burst of at least 1");
            }
        }
    }

    /** Keys a container remembers; past this, the least recently seen ones start again with a full bucket. */
    static final int KEYS = 10_000;

    private final Budget budget;
    private final Clock clock;
    private final String what;
    private final Map<String, Bucket> buckets;

    /** {@code what}: the requests counted, as the refusal names them ("registrations"). */
    public FairShare(Budget budget, Clock clock, String what) {
        this(budget, clock, what, KEYS);
    }

    FairShare(Budget budget, Clock clock, String what, int keys) {
        this.budget = budget;
        this.clock = clock;
        this.what = what;
        this.buckets = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
                return size() > keys;
            }
        };
    }

    private static final class Bucket {
        double tokens;
        Instant filledAt;

        Bucket(double tokens, Instant filledAt) {
            this.tokens = tokens;
            this.filledAt = filledAt;
        }
    }

    /** Counts one request of {@code key} ({@code whose}, as the refusal names it); refused when its share is spent. */
    public void take(String key, String whose) {
        Instant now = clock.instant();
        synchronized (buckets) {
            Bucket b = buckets.computeIfAbsent(key, k -> new Bucket(budget.burst(), now));
            if (now.isAfter(b.filledAt)) { // a clock that steps back fills nothing
                double seconds = Duration.between(b.filledAt, now).toNanos() / 1e9;
                b.tokens = Math.min(budget.burst(), b.tokens + seconds * budget.perSecond());
                b.filledAt = now;
            }
            if (b.tokens < 1) {
                throw GamefleetException.throttled(whose + " sent more " + what + " than its fair share of the stage's"
                        + " throttle (" + budget.burst() + " at once, then " + rate() + "); retry with backoff");
            }
            b.tokens -= 1;
        }
    }

    private String rate() {
        double perMinute = budget.perSecond() * 60;
        return perMinute >= 1 ? String.format(java.util.Locale.ROOT, "%.1f a minute", perMinute)
                : String.format(java.util.Locale.ROOT, "one every %.0f s", 1 / budget.perSecond());
    }
}

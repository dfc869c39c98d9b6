package io.gamefleet.agent;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * How many pings the QoS beacon answers: a token bucket per source address and one in all, each
 * holding a second's worth and refilled as the clock moves. A flood from one address (or one
 * spoofing it) takes its own share only; a flood from many takes the in-all share, so the beacon's
 * replies stay bounded whatever arrives. Only the beacon's thread calls it.
 */
final class QosReplyRate {
    static final int PER_SOURCE_PER_SECOND = 100;
    static final int IN_ALL_PER_SECOND = 2_000;
    /** The sources remembered at most: a flood of spoofed addresses cannot grow the map past it. */
    static final int SOURCES_TRACKED = 10_000;

    private final int perSourcePerSecond;
    private final int sourcesTracked;
    private final Clock clock;
    private final Bucket inAll;
    private final Map<InetAddress, Bucket> sources = new HashMap<>();
    private Instant swept = Instant.MIN;

    QosReplyRate(int perSourcePerSecond, int inAllPerSecond, int sourcesTracked, Clock clock) {
        this.perSourcePerSecond = perSourcePerSecond;
        this.sourcesTracked = sourcesTracked;
        this.clock = clock;
        this.inAll = new Bucket(inAllPerSecond, clock.instant());
    }

    static QosReplyRate defaults(Clock clock) {
        return new QosReplyRate(PER_SOURCE_PER_SECOND, IN_ALL_PER_SECOND, SOURCES_TRACKED, clock);
    }

    /** Whether a ping from {@code source} is answered now: a token from its bucket, then one from the bucket in all. */
    boolean allows(InetAddress source) {
        Instant now = clock.instant();
        Bucket bucket = sources.get(source);
        if (bucket == null) {
            if (sources.size() >= sourcesTracked) {
                // At most once a second: a flood of new addresses must not make every datagram a walk of the map.
                if (!now.isBefore(swept.plusSeconds(1))) {
                    sources.values().removeIf(b -> b.fullAt(now));
                    swept = now;
                }
                if (sources.size() >= sourcesTracked) {
                    return false; // until some source has been quiet for a second
                }
            }
            bucket = new Bucket(perSourcePerSecond, now);
            sources.put(source, bucket);
        }
        return bucket.take(now) && inAll.take(now);
    }

    /** A bucket of a second's {@code perSecond} tokens, refilled as the clock moves. */
    private static final class Bucket {
        private final int perSecond;
        private double tokens;
        private Instant refilled;

        Bucket(int perSecond, Instant now) {
            this.perSecond = perSecond;
            this.tokens = perSecond;
            this.refilled = now;
        }

        boolean take(Instant now) {
            refill(now);
            if (tokens < 1) {
                return false;
            }
            tokens--;
            return true;
        }

        /** Full again: its source has been quiet long enough to be forgotten without giving it more. */
        boolean fullAt(Instant now) {
            refill(now);
            return tokens >= perSecond;
        }

        private void refill(Instant now) {
            if (now.isAfter(refilled)) {
                double seconds = Duration.between(refilled, now).toNanos() / 1e9;
                tokens = Math.min(perSecond, tokens + seconds * perSecond);
                refilled = now;
            }
        }
    }
}

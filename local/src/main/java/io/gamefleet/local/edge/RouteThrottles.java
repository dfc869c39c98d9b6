package io.gamefleet.local.edge;

import io.gamefleet.catalog.Throttles.Limit;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The stage's route throttles, as API Gateway applies them: a token bucket per route (its rate
 * and burst, from the catalog's Throttles, as the CDK app sets them on the stage), shared by every
 * caller of the route, on the profile's clock. A request finding its route's bucket empty is
 * refused 429 before anything else is done, whoever sends it. A route without limits of its own
 * takes the stage's default, if there is one.
 */
final class RouteThrottles {
    private final Map<String, Bucket> buckets = new HashMap<>();
    private final Optional<Limit> others;
    private final Clock clock;

    RouteThrottles(Map<String, Limit> routes, Optional<Limit> others, Clock clock) {
        routes.forEach((key, limit) -> buckets.put(key, new Bucket(limit, clock.instant())));
        this.others = others;
        this.clock = clock;
    }

    /** No route is throttled (the profile's tests that do not flood on purpose). */
    static RouteThrottles none(Clock clock) {
        return new RouteThrottles(Map.of(), Optional.empty(), clock);
    }

    /** The route's limits, if it has any: what a refusal names. */
    Optional<Limit> limit(String routeKey) {
        Bucket b = buckets.get(routeKey);
        return b != null ? Optional.of(b.limit) : others;
    }

    /** Takes a token of the route's bucket: false when it is empty (the request is refused). */
    boolean admit(String routeKey) {
        Bucket b;
        synchronized (buckets) {
            b = buckets.get(routeKey);
            if (b == null) {
                if (others.isEmpty()) {
                    return true;
                }
                b = new Bucket(others.get(), clock.instant());
                buckets.put(routeKey, b);
            }
        }
        return b.take(clock.instant());
    }

    /** The refusal's words: API Gateway says "Too Many Requests"; this names the route and its limits. */
    String refusal(String routeKey) {
        Limit l = limit(routeKey).orElseThrow();
        return "Too Many Requests: route " + routeKey + " is throttled at " + l.rate() + " requests a second, burst "
                + l.burst() + " (the stage's throttle, sized by --expected-game-servers, --heartbeat-seconds and"
                + " --claims-per-second)";
    }

    private static final class Bucket {
        final Limit limit;
        double tokens;
        Instant at;

        Bucket(Limit limit, Instant now) {
            this.limit = limit;
            this.tokens = limit.burst();
            this.at = now;
        }

        synchronized boolean take(Instant now) {
            if (now.isAfter(at)) {
                tokens = Math.min(limit.burst(), tokens + Duration.between(at, now).toNanos() / 1e9 * limit.rate());
                at = now;
            }
            if (tokens < 1) {
                return false;
            }
            tokens -= 1;
            return true;
        }
    }
}

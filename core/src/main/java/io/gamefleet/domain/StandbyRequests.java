package io.gamefleet.domain;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The requests of one container (a warm Lambda environment, the local profile), at most one per
 * group per {@link #INTERVAL}: a burst of claims asks once, not once per claim. A request that
 * fails is logged and forgotten (the balancer's next run evaluates the group anyway).
 */
public final class StandbyRequests implements StandbyEvaluations {
    /**
     * How often one container asks for a group's evaluation at most: the evaluation a burst's
     * first claim asks for sees that claim; those of its next second ask again a second later.
     */
    public static final Duration INTERVAL = Duration.ofSeconds(1);
    /** Groups a container remembers asking for; past this it forgets them all. */
    static final int REMEMBERED_GROUPS = 1_000;

    private final StandbyEvaluations target;
    private final Clock clock;
    private final Consumer<String> log;
    private final Map<String, Instant> asked = new ConcurrentHashMap<>();

    public StandbyRequests(StandbyEvaluations target, Clock clock, Consumer<String> log) {
        this.target = target;
        this.clock = clock;
        this.log = log;
    }

    @Override
    public void requested(String group) {
        Instant now = clock.instant();
        Instant last = asked.get(group);
        if (last != null && now.isBefore(last.plus(INTERVAL)) && !now.isBefore(last)) {
            return;
        }
        if (asked.size() >= REMEMBERED_GROUPS) {
            asked.clear();
        }
        // Only the first of concurrent claims asks.
        if (last == null ? asked.putIfAbsent(group, now) != null : !asked.replace(group, last, now)) {
            return;
        }
        try {
            target.requested(group);
        } catch (RuntimeException e) {
            log.accept("standby: the evaluation of group " + group + " could not be requested; the balancer's next"
                    + " run evaluates it: " + e);
        }
    }
}

package io.gamefleet.local.edge;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A region that is down, as its edge plays it ({@code POST /_local/regions/{region}/outage}): each
 * API request that comes meanwhile is held, its handler never run, and dropped (its connection
 * closed, no answer) when the region recovers or {@link #HOLD} after it came, whichever is first,
 * so that nothing runs late. What is not the API (the {@code /_local/} paths, the Lambda Invoke
 * path of the region's own sidecar, the push channel, the console) answers all along.
 */
public final class Outage {
    /** How long a request is held at the most: long past any caller's budget (a peer's is 1 s). */
    static final Duration HOLD = Duration.ofSeconds(30);

    private final Set<Exchange> held = new HashSet<>();
    private boolean down;

    /** From now on the API's requests are held. */
    public synchronized void begin() {
        down = true;
    }

    /** The API answers again; the requests held until now are dropped. How many were. */
    public int end() {
        List<Exchange> dropped;
        synchronized (this) {
            down = false;
            dropped = List.copyOf(held);
            held.clear();
        }
        dropped.forEach(Exchange::drop);
        return dropped.size();
    }

    public synchronized boolean down() {
        return down;
    }

    /** True if the region is down: then the request is held, and never served. */
    boolean hold(Exchange exchange) {
        synchronized (this) {
            if (!down) {
                return false;
            }
            held.add(exchange);
        }
        exchange.after(HOLD, () -> {
            boolean stillHeld;
            synchronized (this) {
                stillHeld = held.remove(exchange);
            }
            if (stillHeld) {
                exchange.drop();
            }
        });
        return true;
    }
}

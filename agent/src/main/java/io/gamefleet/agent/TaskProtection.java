package io.gamefleet.agent;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executor;

/**
 * A sidecar's task kept from ECS scale-in while its game server is claimed or in a match: protected
 * for {@link #PROTECTION}, renewed at half of it (so a renewal that fails has half an hour of
 * retries before the protection lapses), released once the server is neither. A call that fails
 * is logged and tried again with the agent's API backoff; nothing of it stops the agent. Mutated
 * only under the supervisor's lock.
 */
final class TaskProtection {
    /** ECS's own suggestion, and what Gamefleet's balancer asks for a container group's task (issue 32). */
    static final Duration PROTECTION = Duration.ofMinutes(60);
    static final Duration RENEW_AFTER = PROTECTION.dividedBy(2);

    private final TaskProtectionEndpoint endpoint;
    private final Executor executor;
    private final Object lock;
    private final Clock clock;
    private final Backoff backoff;
    private final AgentLog log;
    /** What the last call that went through set. A new task is unprotected. */
    private boolean enabled;
    private Instant renewAt = Instant.MAX;
    private boolean inFlight;
    private int failures;
    private Instant retryAt = Instant.MIN;

    TaskProtection(TaskProtectionEndpoint endpoint, Executor executor, Object lock, Clock clock, Backoff backoff, AgentLog log) {
        this.endpoint = endpoint;
        this.executor = executor;
        this.lock = lock;
        this.clock = clock;
        this.backoff = backoff;
        this.log = log;
    }

    /** Called under the lock each round: one call, if one is due, to make the protection what {@code wanted} says. */
    void follow(boolean wanted, Instant now) {
        if (inFlight || now.isBefore(retryAt)) {
            return;
        }
        if (wanted && (!enabled || !now.isBefore(renewAt))) {
            submit(true, now);
        } else if (!wanted && enabled) {
            submit(false, now);
        }
    }

    /** Nothing in flight, and the protection is as wanted or its last call failed: what an ending sidecar waits for. */
    boolean settled(boolean wanted) {
        return !inFlight && (enabled == wanted || failures > 0);
    }

    private void submit(boolean enable, Instant sentAt) {
        inFlight = true;
        executor.execute(() -> {
            RuntimeException failure = null;
            try {
                endpoint.set(enable, (int) PROTECTION.toMinutes());
            } catch (RuntimeException e) {
                failure = e;
            }
            synchronized (lock) {
                inFlight = false;
                String what = enable ? (enabled ? "renewing the task's scale-in protection" : "protecting the task from scale-in")
                        : "releasing the task's scale-in protection";
                if (failure == null) {
                    if (failures > 0) {
                        log.info(what + " went through after " + failures + " failures");
                    }
                    failures = 0;
                    retryAt = Instant.MIN;
                    enabled = enable;
                    // From when it was asked for: the protection's own clock started no later than that.
                    renewAt = enable ? sentAt.plus(RENEW_AFTER) : Instant.MAX;
                    log.info(enable ? "task protected from scale-in for " + PROTECTION.toMinutes() + " min (its game server is "
                            + "claimed or in a match); renewed at " + GsdkReplies.time(renewAt)
                            : "task scale-in protection released (its game server is neither claimed nor in a match)");
                } else {
                    failures++;
                    Duration delay = backoff.delay(failures);
                    retryAt = clock.instant().plus(delay);
                    log.warn(what + " failed (" + failure.getMessage() + "); retry in " + delay.toMillis() + " ms");
                }
            }
        });
    }
}

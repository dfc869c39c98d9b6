package io.gamefleet.agent;

import io.gamefleet.agent.ServerRecord.Registration;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * Brings FleetIQ in line with what each process is: registered when StandingBy, UTILIZED once told
 * Active, a health report every health period (never one per local heartbeat), deregistered when it
 * ends or stops. A call that fails is retried with backoff; the processes run on meanwhile.
 */
final class FleetSync {
    private final FleetApi api;
    private final Executor executor;
    private final Object lock;
    private final Clock clock;
    private final AgentConfig.Timings timings;
    private final Function<ServerRecord, String> connectionInfo;
    private final AgentLog log;

    FleetSync(FleetApi api, Executor executor, Object lock, Clock clock, AgentConfig.Timings timings,
            Function<ServerRecord, String> connectionInfo, AgentLog log) {
        this.api = api;
        this.executor = executor;
        this.lock = lock;
        this.clock = clock;
        this.timings = timings;
        this.connectionInfo = connectionInfo;
        this.log = log;
    }

    /** Called under the lock: starts at most one call for the server, if one is due. */
    void reconcile(ServerRecord s, Instant now) {
        if (s.apiInFlight || now.isBefore(s.apiRetryAt)) {
            return;
        }
        Registration target = s.target();
        Registration held = s.registration;
        if (held == Registration.NONE && target != Registration.NONE) {
            String info = connectionInfo.apply(s);
            submit(s, "RegisterGameServer", () -> api.register(s.gameServerId, info), Registration.AVAILABLE);
        } else if (held != Registration.NONE && target == Registration.NONE) {
            submit(s, "DeregisterGameServer", () -> api.deregister(s.gameServerId), Registration.NONE);
        } else if (held == Registration.AVAILABLE && target == Registration.UTILIZED) {
            boolean healthy = s.healthy;
            submit(s, "UpdateGameServer UTILIZED", () -> api.update(s.gameServerId, healthy, true), Registration.UTILIZED);
        } else if (held != Registration.NONE && s.healthy && !now.isBefore(s.nextHealthAt)) {
            submit(s, "UpdateGameServer HEALTHY", () -> api.update(s.gameServerId, true, false), held);
        }
    }

    private void submit(ServerRecord s, String call, Runnable request, Registration after) {
        s.apiInFlight = true;
        executor.execute(() -> {
            Registration result;
            RuntimeException failure = null;
            try {
                request.run();
                result = after;
            } catch (FleetApi.NotFound e) {
                // Gone already (an operator's deregistration, or the health timeout during an outage):
                // what is still wanted is registered again on the next round.
                result = Registration.NONE;
            } catch (RuntimeException e) {
                result = null;
                failure = e;
            }
            synchronized (lock) {
                s.apiInFlight = false;
                Instant now = clock.instant();
                if (failure == null) {
                    if (s.apiFailures > 0) {
                        log.info(s.gameServerId + ": " + call + " went through after " + s.apiFailures + " failures");
                    }
                    s.apiFailures = 0;
                    s.registration = result;
                    if (result != Registration.NONE) {
                        s.nextHealthAt = now.plus(timings.healthPeriod());
                    }
                } else {
                    s.apiFailures++;
                    Duration backoff = backoff(timings.apiRetryInitial(), timings.apiRetryMax(), s.apiFailures);
                    s.apiRetryAt = now.plus(backoff);
                    log.warn(s.gameServerId + ": " + call + " failed (" + failure.getMessage() + "); retry in "
                            + backoff.toMillis() + " ms");
                }
            }
        });
    }

    /** initial, 2 x initial, 4 x initial... up to max. */
    static Duration backoff(Duration initial, Duration max, int failures) {
        long factor = 1L << Math.min(failures - 1, 20);
        Duration d = initial.multipliedBy(factor);
        return d.compareTo(max) > 0 ? max : d;
    }
}

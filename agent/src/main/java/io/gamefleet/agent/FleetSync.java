package io.gamefleet.agent;

import io.gamefleet.agent.ServerRecord.Registration;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * Brings FleetIQ in line with what each process is: registered when StandingBy, UTILIZED once told
 * Active, a health report every health period (never one per local heartbeat), deregistered when it
 * ends or stops. A call that fails is retried with backoff; the processes run on meanwhile.
 *
 * <p>While the push channel is open, the health of all the instance's servers goes in one message
 * per period ({@link #reportHealth}, {@link HealthReport}), with their processes' state; the servers'
 * own UpdateGameServer HEALTHY calls are the fallback, made when the channel is down or refused the
 * last report, so health never stops (the processes' state is not sent that way).
 */
final class FleetSync {
    private final FleetApi api;
    private final Executor executor;
    private final Object lock;
    private final Clock clock;
    private final AgentConfig.Timings timings;
    private final boolean wrapperMode;
    private final Backoff backoff;
    private final Function<ServerRecord, String> connectionInfo;
    private final AgentLog log;
    private final String groupName;
    private final ProcessSlots slots;
    private final ProcessEvents events;
    /** Told when a call's outcome changes what a restarted agent must know (the state file is rewritten). */
    private final Runnable changed;
    private HealthChannel channel = HealthChannel.NONE;
    private Instant nextReportAt = Instant.MIN;
    /** The last period's report went over the channel: the servers' health is held by its leases. */
    private boolean reportingOverChannel;
    /** The channel refused a report: the next period goes through the API (which also finds a server gone). */
    private boolean refused;

    FleetSync(FleetApi api, Executor executor, Object lock, Clock clock, AgentConfig config, Backoff backoff,
            Function<ServerRecord, String> connectionInfo, AgentLog log, ProcessSlots slots, ProcessEvents events,
            Runnable changed) {
        this.groupName = config.gameServerGroupName();
        this.wrapperMode = config.mode() == AgentConfig.Mode.WRAPPER;
        this.backoff = backoff;
        this.slots = slots;
        this.events = events;
        this.changed = changed;
        this.api = api;
        this.executor = executor;
        this.lock = lock;
        this.clock = clock;
        this.timings = config.timings();
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
            if (!s.registerAttempted) {
                s.registerAttempted = true;
                changed.run();
            }
            HealthChannel recorded = channel;
            submit(s, "RegisterGameServer", () -> {
                api.register(s.gameServerId, info);
                recorded.instanceRecorded();
            }, Registration.AVAILABLE, true);
        } else if ((held != Registration.NONE || s.registerAttempted) && target == Registration.NONE) {
            // A NotFound answer (never registered after all) is as final as a deregistration.
            submit(s, "DeregisterGameServer", () -> api.deregister(s.gameServerId), Registration.NONE, false);
        } else if (held == Registration.AVAILABLE && target == Registration.UTILIZED) {
            // Over the channel the lease holds the health: a HealthCheck here would end lease mode.
            boolean healthy = s.healthy && !reportingOverChannel;
            if (!s.utilizedAttempted) {
                s.utilizedAttempted = true; // from now on FleetIQ may hold it UTILIZED
                changed.run();
            }
            submit(s, "UpdateGameServer UTILIZED", () -> api.update(s.gameServerId, healthy, true), Registration.UTILIZED, false);
        } else if (held != Registration.NONE && s.healthy && !now.isBefore(s.nextHealthAt)) {
            submit(s, "UpdateGameServer HEALTHY", () -> api.update(s.gameServerId, true, false), held, false);
        }
    }

    void channel(HealthChannel channel) {
        this.channel = channel;
    }

    /**
     * Called under the lock before the servers' {@link #reconcile}: once a period, one report of
     * every registered server's health over the channel, if it is open. The servers it listed owe
     * no UpdateGameServer HEALTHY this period; while it is not open, they make theirs as they fall due.
     */
    void reportHealth(List<ServerRecord> servers, Instant now) {
        if (now.isBefore(nextReportAt)) {
            return;
        }
        List<ServerRecord> reported = servers.stream()
                .filter(s -> s.registration != Registration.NONE && s.target() != Registration.NONE).toList();
        if (reported.isEmpty()) {
            return;
        }
        if (refused) {
            refused = false;
            reportingOverChannel = false;
            nextReportAt = now.plus(timings.healthPeriod());
            return;
        }
        boolean sent = false;
        for (HealthReport.Message message : HealthReport.messages(groupName, reported, slots.all(), wrapperMode,
                events.forReport())) {
            if (!channel.send(message.text())) {
                break;
            }
            sent = true;
            message.servers().forEach(s -> s.nextHealthAt = now.plus(timings.healthPeriod()));
        }
        if (!sent) {
            events.notTaken();
        }
        reportingOverChannel = sent;
        if (sent) {
            nextReportAt = now.plus(timings.healthPeriod());
        }
    }

    /** The channel answered a report with an error: the next period's health goes through the API. */
    void refused(String why) {
        refused = true;
        events.notTaken();
        log.warn("push channel refused a health report (" + why + "); the next health period goes through the API");
    }

    /** The push connection was found dead: its last report may not have been taken. */
    void channelLost() {
        events.notTaken();
    }

    /**
     * {@code refusedIfNotFound}: a NotFound answer is a refusal (a registration's group or instance
     * is not there), retried with the backoff, not on the next round.
     */
    private void submit(ServerRecord s, String call, Runnable request, Registration after, boolean refusedIfNotFound) {
        s.apiInFlight = true;
        executor.execute(() -> {
            Registration result;
            RuntimeException failure = null;
            try {
                request.run();
                result = after;
            } catch (FleetApi.Refused e) {
                result = Registration.NONE; // FleetIQ's server of that id is not this agent's
                failure = e;
            } catch (FleetApi.NotFound e) {
                // Gone already (an operator's deregistration, or the health timeout during an outage):
                // what is still wanted is registered again on the next round.
                result = Registration.NONE;
                if (refusedIfNotFound) {
                    failure = e;
                }
            } catch (RuntimeException e) {
                result = null;
                failure = e;
            }
            synchronized (lock) {
                s.apiInFlight = false;
                s.deregisterTried |= after == Registration.NONE;
                Instant now = clock.instant();
                if (result != null && s.registerAttempted) {
                    s.registerAttempted = false; // an answer, if a refusal: what FleetIQ holds is known
                    changed.run();
                }
                if (failure == null) {
                    if (s.apiFailures > 0) {
                        log.info(s.gameServerId + ": " + call + " went through after " + s.apiFailures + " failures");
                    }
                    s.apiFailures = 0;
                    if (s.registration != result) {
                        s.registration = result;
                        if (result == Registration.UTILIZED) {
                            s.utilizedAt = now;
                        }
                        changed.run();
                    }
                    if (result != Registration.NONE) {
                        s.nextHealthAt = now.plus(timings.healthPeriod());
                    }
                } else {
                    s.apiFailures++;
                    Duration delay = backoff.delay(s.apiFailures);
                    s.apiRetryAt = now.plus(delay);
                    log.warn(s.gameServerId + ": " + call + " failed (" + failure.getMessage() + "); retry in "
                            + delay.toMillis() + " ms");
                }
            }
        });
    }
}

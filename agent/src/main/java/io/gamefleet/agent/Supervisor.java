package io.gamefleet.agent;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.function.IntSupplier;
import java.util.stream.Stream;

/**
 * The agent's processes, supervised: their slots ({@link ProcessSlots}) and GSDK sessions
 * ({@link GsdkSessions}); the timeouts (start, heartbeats) and the stops' TERM and KILL; claims and
 * operators' shutdowns from the push channel; the maintenance notices and the graceful end of an
 * instance that goes ({@link GracefulEnd}); the archive of each process that ended, and FleetIQ
 * brought in line ({@link FleetSync}). A clock drives it: {@link #tick()} does what is due, so tests
 * move a clock instead of waiting.
 */
final class Supervisor {
    final Object lock = this;
    private final AgentConfig config;
    private final String instanceId;
    private final Clock clock;
    private final ServerUsers users;
    private final ReadinessProbe probe;
    private final LogArchive archive;
    private final AgentLog log;
    private final IntSupplier gsdkPort;
    private final ProcessEvents events = new ProcessEvents();
    private final ProcessSlots slots;
    private final GsdkSessions sessions;
    private final FleetSync fleet;
    private final GracefulEnd end;

    /** Processes that ended and are not cleared yet: archived, deregistered. */
    private final List<ServerRecord> leaving = new ArrayList<>();
    /** The instance metadata's notices, and the agent's own (a retiring notice, its stop): every process's maintenance fields. */
    private MaintenanceEvent.Schedule metadataSchedule = MaintenanceEvent.Schedule.NONE;
    private final List<MaintenanceEvent> ownEvents = new ArrayList<>();
    private boolean changed = true;

    /** The backoffs: of a slot's restarts after failures in a row, and of a server's API calls. */
    record Backoffs(Backoff crashes, Backoff api) {
        static Backoffs of(AgentConfig.Timings t, java.util.function.DoubleSupplier jitter) {
            return new Backoffs(new Backoff(t.crashBackoffInitial(), t.crashBackoffMax(), jitter),
                    new Backoff(t.apiRetryInitial(), t.apiRetryMax(), jitter));
        }
    }

    Supervisor(AgentConfig config, String instanceId, Clock clock, ProcessLauncher launcher, GameServerLaunch launch,
            ServerUsers users, FleetApi api, Executor apiExecutor, ReadinessProbe probe, LogArchive archive,
            AgentLog log, IntSupplier gsdkPort, Backoffs backoffs) {
        this.config = config;
        this.instanceId = instanceId;
        this.clock = clock;
        this.users = users;
        this.probe = probe;
        this.archive = archive;
        this.log = log;
        this.gsdkPort = gsdkPort;
        Runnable changes = () -> changed = true;
        this.slots = new ProcessSlots(config, launcher, launch, users, backoffs.crashes(), events, log, gsdkPort, changes);
        this.sessions = new GsdkSessions(lock, config, instanceId, clock, slots, this::schedule, log, changes);
        this.fleet = new FleetSync(api, apiExecutor, lock, clock, config, backoffs.api(), s -> launch.connectionInfo(s.slot), log,
                slots, events, changes);
        this.end = new GracefulEnd(config.timings(), log);
    }

    int gsdkPort() {
        return gsdkPort.getAsInt();
    }

    /** What the GSDK endpoint answers. */
    GsdkSessions sessions() {
        return sessions;
    }

    /** Does what is due: starts, checks and stops processes, archives those that ended, and brings FleetIQ in line. */
    void tick() {
        synchronized (lock) {
            Instant now = clock.instant();
            for (ProcessSlots.Slot slot : slots.all()) {
                ServerRecord s = slot.current;
                if (s != null) {
                    supervise(s, now);
                    if (s.ended()) {
                        sessions.close(s);
                        slots.ended(slot, s, now);
                        leaving.add(s);
                    }
                }
            }
            end.apply(slots.running().toList(), slots, now);
            if (!end.draining()) {
                for (ProcessSlots.Slot slot : slots.all()) {
                    ServerRecord started = slots.startIfDue(slot, now);
                    if (started != null) {
                        sessions.open(started);
                    }
                }
            }
            // The logs of matches first, the oldest first: what an instance that goes must not lose.
            leaving.stream().filter(s -> !s.archived)
                    .sorted(Comparator.comparing((ServerRecord s) -> s.claim == null).thenComparing(ServerRecord::matchOrStart))
                    .forEach(s -> {
                        archive.archive(s);
                        s.archived = true;
                        if (s.console != null) {
                            s.console.close();
                            s.console = null;
                        }
                    });
            fleet.reportHealth(servers().toList(), now);
            servers().forEach(s -> fleet.reconcile(s, now));
            if (leaving.removeIf(ServerRecord::finished)) {
                changed = true;
            }
        }
    }

    private void supervise(ServerRecord s, Instant now) {
        if (config.mode() == AgentConfig.Mode.WRAPPER && !s.activeSent && s.utilizedWithinClaim()) {
            // Nothing to tell a game server with no SDK: its match began with the UTILIZED (even if it has just exited).
            s.activeSent = true;
            s.sessionId = UUID.randomUUID().toString();
            changed = true;
            log.info(s.gameServerId + ": claimed and UTILIZED");
        }
        if (!s.process.isAlive()) {
            s.endedAt = now;
            s.exitCode = s.process.exitCode().isPresent() ? s.process.exitCode().getAsInt() : null;
            return;
        }
        AgentConfig.Timings t = config.timings();
        if (config.mode() == AgentConfig.Mode.WRAPPER && s.state == null && probe.ready(s)) {
            s.state = GameState.StandingBy;
            s.everReady = true;
            changed = true;
            log.info(s.gameServerId + ": ready (wrapper mode)");
        }
        if (!s.stopping()) {
            boolean notReady = s.state == null || s.state == GameState.Initializing;
            if (notReady && !now.isBefore(s.startedAt.plus(t.startTimeout()))) {
                s.startTimedOut = true;
                slots.stop(s, "not StandingBy within the start timeout (" + t.startTimeoutSeconds() + " s)", true, false, now);
            } else if (config.mode().speaksGsdk() && s.lastHeartbeat != null
                    && !now.isBefore(s.lastHeartbeat.plus(t.heartbeatTimeout()))) {
                slots.stop(s, "no heartbeat for " + t.heartbeatTimeoutSeconds() + " s", !s.state.ending(), false, now);
            }
        }
        if (s.claim != null && !s.activeSent && !s.utilizedWithinClaim() && !now.isBefore(s.claim.claimExpiresAt())) {
            s.claim = null;
            changed = true;
            if (s.utilizedAttempted && !s.stopping()) {
                // FleetIQ may hold it UTILIZED with no match: never claimable again, so it makes way for a new one.
                slots.stop(s, "its claim lapsed before FleetIQ took its UTILIZED, so it was never told Active", false, true, now);
            } else {
                log.info(s.gameServerId + ": claim lapsed before its UTILIZED could be written; the process was not told");
            }
        }
        if (s.stopping()) {
            if (s.termSentAt == null && !now.isBefore(s.termAt)) {
                s.process.terminate();
                s.termSentAt = now;
            } else if (s.termSentAt != null && s.killSentAt == null && !now.isBefore(s.termSentAt.plus(t.stopGrace()))) {
                log.warn(s.gameServerId + ": still running " + t.stopGraceSeconds() + " s after TERM; KILL");
                s.process.kill();
                s.killSentAt = now;
            } else if (s.killSentAt != null && !now.isBefore(s.killSentAt.plus(t.stopGrace()))) {
                // Stuck in Terminating (a process the kernel holds, in uninterruptible sleep): its slot cannot
                // wait for it. It is given up on as ended, its uid's processes are killed once more, and it is replaced.
                log.warn(s.gameServerId + ": still running " + t.stopGraceSeconds() + " s after KILL (stuck in "
                        + "Terminating): given up on, deregistered, archived and replaced");
                s.endedAt = now;
                s.exitCode = null;
            }
        }
    }

    /** A claim notice: the process's next heartbeat is answered Active. */
    void claimed(Notices.Claimed notice) {
        synchronized (lock) {
            Instant now = clock.instant();
            ServerRecord s = slots.running(notice.gameServerId());
            if (s == null || s.stopping() || s.state != GameState.StandingBy || s.activeSent) {
                log.info(notice.gameServerId() + ": claim notice ignored (not a StandingBy server of this agent)");
                return;
            }
            if (!now.isBefore(notice.claimExpiresAt())) {
                log.info(notice.gameServerId() + ": claim notice came after the claim lapsed; ignored");
                return;
            }
            s.claim = notice;
            changed = true;
            log.info(s.gameServerId + ": claimed; UTILIZED first" + (config.mode().speaksGsdk()
                    ? ", then Active at its next heartbeat" : ""));
            fleet.reconcile(s, now); // the UTILIZED now, not at the next round
        }
    }

    /** The registered StandingBy servers that no claim has reached: those a lost claim notice could be for. */
    List<String> unclaimed() {
        synchronized (lock) {
            return slots.running().filter(s -> !s.stopping() && s.state == GameState.StandingBy && s.claim == null
                    && !s.activeSent && s.registration == ServerRecord.Registration.AVAILABLE).map(s -> s.gameServerId).toList();
        }
    }

    /** An operator's shutdown: Terminate, then TERM, grace, KILL, and a replacement. */
    void terminate(Notices.Terminate notice) {
        synchronized (lock) {
            ServerRecord s = slots.running(notice.gameServerId());
            if (s == null) {
                log.info(notice.gameServerId() + ": terminate notice ignored (no such running server)");
                return;
            }
            slots.stop(s, "terminate notice (" + notice.reason() + ")", false, true, clock.instant());
        }
    }

    /** Where the servers' health goes once a period while it is open (the push channel). */
    void healthChannel(HealthChannel channel) {
        synchronized (lock) {
            fleet.channel(channel);
        }
    }

    /** The push channel answered a message with an error (a refused health report). */
    void healthReportRefused(String why) {
        synchronized (lock) {
            fleet.refused(why);
        }
    }

    /** The push connection was found dead: what its last report carried goes into the next. */
    void healthChannelLost() {
        synchronized (lock) {
            fleet.channelLost();
        }
    }

    /** The instance metadata's reading: every process's maintenance fields, and the notices that end the instance. */
    void maintenance(MaintenanceEvent.Schedule schedule) {
        synchronized (lock) {
            if (schedule.documentIncarnation() != metadataSchedule.documentIncarnation()) {
                log.info("maintenance schedule " + schedule.documentIncarnation() + ": " + schedule.events());
            }
            metadataSchedule = schedule;
            Instant now = clock.instant();
            for (MaintenanceEvent e : schedule.events()) {
                if (e.ends() == GracefulEnd.Reason.SPOT_INTERRUPTION) {
                    end.spotInterruption(e.notBefore(), now);
                } else if (e.ends() == GracefulEnd.Reason.REBALANCE_RECOMMENDATION && config.rebalance() == AgentConfig.Rebalance.DRAIN) {
                    end.rebalanceRecommendation(now);
                } else if (e.ends() == GracefulEnd.Reason.SCALE_IN) {
                    end.scaleIn(now);
                }
            }
            endsBy();
        }
    }

    /**
     * Gamefleet's retiring notice ({@code PushChannel.RETIRING}): the instance reaches its maximum
     * lifetime at {@code retiresAt}. Every process gets it as a maintenance event ({@code Terminate}
     * at that time), and the graceful end begins; a repeat changes nothing.
     */
    void retiring(Instant retiresAt, String reason) {
        synchronized (lock) {
            String id = "retiring-" + retiresAt.getEpochSecond();
            if (ownEvents.stream().noneMatch(e -> e.eventId().equals(id))) {
                ownEvents.add(new MaintenanceEvent(id, "Terminate", List.of(instanceId), "Scheduled", retiresAt,
                        "Gamefleet retires the instance (" + reason + ")", "Gamefleet", 0, GracefulEnd.Reason.MAX_INSTANCE_LIFETIME));
            }
            end.retiring(retiresAt, clock.instant());
            endsBy();
        }
    }

    /** The agent is stopped: every process is told Terminate now, and ends with the graceful sequence. */
    void agentStops() {
        synchronized (lock) {
            Instant now = clock.instant();
            if (ownEvents.stream().noneMatch(e -> e.ends() == GracefulEnd.Reason.AGENT_STOP)) {
                ownEvents.add(new MaintenanceEvent("agent-stop-" + now.getEpochSecond(), "Terminate", List.of(instanceId),
                        "Scheduled", now, "the Gamefleet agent stops: the game servers end", "Gamefleet", 0,
                        GracefulEnd.Reason.AGENT_STOP));
            }
            end.agentStop(now);
            endsBy();
        }
    }

    /** The archive's uploads end by the instance's end, once it is known. */
    private void endsBy() {
        if (end.endsAt() != null) {
            archive.endBy(end.endsAt());
        }
    }

    /**
     * Whether a stopping agent may exit: no process runs, every one that ended is archived (its upload
     * done or given up), and each registered one had its DeregisterGameServer answered or failed (what
     * failed is left to Gamefleet's health timeout).
     */
    boolean settled() {
        synchronized (lock) {
            return slots.running().findAny().isEmpty() && archive.idle() && leaving.stream().allMatch(s -> s.archived
                    && (s.finished() || (s.deregisterTried && !s.apiInFlight)));
        }
    }

    /** A sidecar's game server has ended and is settled (deregistered, archived): the agent may exit. */
    boolean gameServerOver() {
        synchronized (lock) {
            return slots.allRetired() && settled();
        }
    }

    /** What every reply's maintenance fields say: the metadata's notices and the agent's own, in one schedule. */
    private MaintenanceEvent.Schedule schedule() {
        if (ownEvents.isEmpty()) {
            return metadataSchedule;
        }
        List<MaintenanceEvent> all = new ArrayList<>(metadataSchedule.events());
        all.addAll(ownEvents);
        // Each part's incarnation only goes up (the agent's own events are only added): so does their sum.
        return new MaintenanceEvent.Schedule(metadataSchedule.documentIncarnation() + ownEvents.size(), all);
    }

    /** Every process the agent still looks after: the running ones, then those ended and not yet cleared. */
    Stream<ServerRecord> servers() {
        return Stream.concat(slots.running(), leaving.stream());
    }

    /** Whether anything worth saving changed since the last call (and forgets it). */
    boolean takeChanged() {
        synchronized (lock) {
            boolean c = changed;
            changed = false;
            return c;
        }
    }

    ServerUsers users() {
        return users;
    }

    ProcessSlots.Slot[] slots() {
        return slots.all();
    }

    List<ServerRecord> leaving() {
        return leaving;
    }

    /** A process of an earlier run of the agent, found again at start (see {@link StateFile}). */
    void adopt(ServerRecord s) {
        synchronized (lock) {
            if (s.ended()) {
                leaving.add(s);
            } else {
                slots.adopt(s);
                sessions.open(s);
            }
            changed = true;
        }
    }
}

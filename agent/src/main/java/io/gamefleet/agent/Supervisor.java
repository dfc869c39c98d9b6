package io.gamefleet.agent;

import io.gamefleet.agent.GsdkReplies.Operation;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The agent's processes: N slots, each running one game server process; what a process says over
 * the GSDK protocol; the push channel's notices; the stops (TERM, grace, KILL of the process group);
 * the replacement of every process that ends, with a backoff for those that keep failing. A clock
 * drives it: {@link #tick()} does what is due, so tests move a clock instead of waiting.
 */
final class Supervisor {
    /** How many failures in a row make a slot's failures a crash loop (reported as such). */
    static final int CRASH_LOOP = 3;

    final Object lock = this;
    private final AgentConfig config;
    private final String instanceId;
    private final Clock clock;
    private final ProcessLauncher launcher;
    private final GameServerLaunch launch;
    private final ServerUsers users;
    private final FleetSync fleet;
    private final ReadinessProbe probe;
    private final LogArchive archive;
    private final AgentLog log;
    private final SecureRandom random = new SecureRandom();
    private final java.util.function.IntSupplier gsdkPort;

    private final Slot[] slots;
    private final List<ServerRecord> retiring = new ArrayList<>();
    private final Map<String, ServerRecord> bySessionHost = new LinkedHashMap<>();
    private MaintenanceEvent.Schedule maintenance = MaintenanceEvent.Schedule.NONE;
    private boolean changed = true;

    /** One place for a process, with its ports; its failures in a row decide when the next starts. */
    static final class Slot {
        final int index;
        ServerRecord current;
        int failures;
        Instant nextStartAt = Instant.MIN;

        Slot(int index) {
            this.index = index;
        }
    }

    Supervisor(AgentConfig config, String instanceId, Clock clock, ProcessLauncher launcher, GameServerLaunch launch,
            ServerUsers users, FleetApi api, java.util.concurrent.Executor apiExecutor, ReadinessProbe probe, LogArchive archive,
            AgentLog log, java.util.function.IntSupplier gsdkPort) {
        this.config = config;
        this.instanceId = instanceId;
        this.clock = clock;
        this.launcher = launcher;
        this.launch = launch;
        this.users = users;
        this.probe = probe;
        this.archive = archive;
        this.log = log;
        this.gsdkPort = gsdkPort;
        this.fleet = new FleetSync(api, apiExecutor, lock, clock, config.timings(), s -> launch.connectionInfo(s.slot), log,
                config.gameServerGroupName(), () -> changed = true);
        this.slots = new Slot[config.processes()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = new Slot(i);
        }
    }

    int gsdkPort() {
        return gsdkPort.getAsInt();
    }

    /** Does what is due: starts, checks and stops processes, and brings FleetIQ in line. */
    void tick() {
        synchronized (lock) {
            Instant now = clock.instant();
            for (Slot slot : slots) {
                ServerRecord s = slot.current;
                if (s != null) {
                    supervise(s, now);
                    if (s.ended()) {
                        endLeftovers(s.uid);
                        slot.current = null;
                        retiring.add(s);
                        afterEnd(slot, s, now);
                    }
                }
                if (slot.current == null && !now.isBefore(slot.nextStartAt)) {
                    start(slot, now);
                }
            }
            for (ServerRecord s : retiring) {
                if (!s.archived) {
                    archive.archive(s);
                    s.archived = true;
                }
            }
            fleet.reportHealth(servers().toList(), now);
            servers().forEach(s -> fleet.reconcile(s, now));
            if (retiring.removeIf(ServerRecord::finished)) {
                changed = true;
            }
        }
    }

    private void start(Slot slot, Instant now) {
        // The game server id is public (FleetIQ lists it); the session host id is the process's secret.
        String gameServerId = "gs-" + hex(8);
        ServerRecord s = new ServerRecord(slot.index, gameServerId, hex(16), config.serversDirectory().resolve(gameServerId),
                now, users.uid(slot.index));
        try {
            endLeftovers(s.uid);
            s.process = launcher.launch(launch.prepare(s, gsdkPort.getAsInt()));
        } catch (IOException | RuntimeException e) {
            slot.failures++;
            Duration delay = backoff(slot.failures);
            slot.nextStartAt = now.plus(delay);
            log.warn("slot " + slot.index + ": cannot start " + config.command() + " (" + e.getMessage() + "); "
                    + "next try in " + delay.toMillis() + " ms");
            return;
        }
        slot.current = s;
        bySessionHost.put(s.sessionHostId, s);
        changed = true;
        log.info(s.gameServerId + ": started, pid " + s.process.pid() + ", slot " + slot.index);
    }

    /**
     * Before a slot's uid starts a new process and before an ended one's folder is archived, nothing
     * of that uid may run on: a process that left its group (setsid, a double fork) would otherwise
     * pass as the next process of the slot on the GSDK endpoint, or race the archive in its folder.
     */
    private void endLeftovers(int uid) {
        if (uid != ServerUsers.AGENT_USER) {
            launcher.killAll(uid);
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
                stop(s, "not StandingBy within the start timeout (" + t.startTimeoutSeconds() + " s)", true, false, now);
            } else if (config.mode() == AgentConfig.Mode.GSDK && s.lastHeartbeat != null
                    && !now.isBefore(s.lastHeartbeat.plus(t.heartbeatTimeout()))) {
                stop(s, "no heartbeat for " + t.heartbeatTimeoutSeconds() + " s", !s.state.ending(), false, now);
            }
        }
        if (s.claim != null && !s.activeSent && !s.utilizedWithinClaim() && !now.isBefore(s.claim.claimExpiresAt())) {
            s.claim = null;
            changed = true;
            if (s.utilizedAttempted && !s.stopping()) {
                // FleetIQ may hold it UTILIZED with no match: never claimable again, so it makes way for a new one.
                stop(s, "its claim lapsed before FleetIQ took its UTILIZED, so it was never told Active", false, true, now);
            } else {
                log.info(s.gameServerId + ": claim lapsed before its UTILIZED could be written; the process was not told");
            }
        }
        if (s.stopping()) {
            if (s.termSentAt == null && !now.isBefore(s.termAt)) {
                s.process.terminate();
                s.termSentAt = now;
            } else if (s.termSentAt != null && !s.killSent && !now.isBefore(s.termSentAt.plus(t.stopGrace()))) {
                log.warn(s.gameServerId + ": still running " + t.stopGraceSeconds() + " s after TERM; KILL");
                s.process.kill();
                s.killSent = true;
            }
        }
    }

    private void afterEnd(Slot slot, ServerRecord s, Instant now) {
        bySessionHost.remove(s.sessionHostId);
        changed = true;
        boolean failure = s.stopping() ? s.stopIsFailure
                : !s.everReady || (s.exitCode != null && s.exitCode != 0) || endedTooSoon(s, now);
        String how = (s.exitCode == null ? "ended" : "exited " + s.exitCode)
                + (s.state == null ? " before its first heartbeat" : " in state " + s.state)
                + (s.stopping() ? " (stopped: " + s.stopReason + ")" : "");
        if (!failure) {
            slot.failures = 0;
            slot.nextStartAt = now;
            log.info(s.gameServerId + ": " + how + "; replacing it");
            return;
        }
        slot.failures++;
        Duration delay = backoff(slot.failures);
        slot.nextStartAt = now.plus(delay);
        String loop = slot.failures >= CRASH_LOOP ? "crash loop: " : "";
        log.warn(loop + s.gameServerId + ": " + how + "; slot " + slot.index + " failed " + slot.failures
                + " time(s) in a row; next start in " + delay.toMillis() + " ms");
    }

    /**
     * An end the process chose (exit 0, Terminating reported) counts as a failure unless it played a
     * match or stayed up the start timeout: one quitting right after StandingBy backs off, instead of
     * registering and deregistering as fast as it starts.
     */
    private boolean endedTooSoon(ServerRecord s, Instant now) {
        return !s.activeSent && now.isBefore(s.startedAt.plus(config.timings().startTimeout()));
    }

    private Duration backoff(int failures) {
        return FleetSync.backoff(config.timings().crashBackoffInitial(), config.timings().crashBackoffMax(), failures);
    }

    private void stop(ServerRecord s, String reason, boolean failure, boolean notice, Instant now) {
        if (s.stopping()) {
            return;
        }
        s.stopReason = reason;
        s.stopIsFailure = failure;
        boolean canTell = notice && config.mode() == AgentConfig.Mode.GSDK;
        s.termAt = canTell ? now.plus(config.timings().terminateNotice()) : now;
        changed = true;
        log.info(s.gameServerId + ": stopping: " + reason);
    }

    /** A GSDK heartbeat of the process with that session host id. */
    GsdkAnswer heartbeat(String sessionHostId, Heartbeat hb) {
        synchronized (lock) {
            Instant now = clock.instant();
            ServerRecord s = bySessionHost.get(sessionHostId);
            if (s == null) {
                return new GsdkAnswer.Refusal(404, "SessionHostNotFound", "no game server process of this agent has that session host id");
            }
            // Once FleetIQ took the claim's UTILIZED, the match is the process's: an Active it reports is accepted
            // even if the reply that told it was lost (the agent restarted before saving that it was sent).
            Optional<String> refusal = GsdkTransitions.refusal(s.state, hb.state(), s.activeSent || s.utilizedWithinClaim());
            if (refusal.isPresent()) {
                return new GsdkAnswer.Refusal(400, "InvalidTransition", refusal.get());
            }
            GameState from = s.state;
            s.state = hb.state();
            s.lastHeartbeat = now;
            s.healthy = !Boolean.FALSE.equals(hb.healthy());
            if (from != s.state) {
                changed = true;
                log.info(s.gameServerId + ": " + (from == null ? "first heartbeat" : from) + " -> " + s.state);
                s.everReady |= s.state == GameState.StandingBy;
                s.activeSent |= s.state == GameState.Active;
                if (s.state.ending()) {
                    stop(s, "the process reported " + s.state, endedTooSoon(s, now), true, now);
                }
            }
            Operation operation = Operation.Continue;
            if (s.stopping()) {
                operation = Operation.Terminate;
            } else if (s.state == GameState.StandingBy && s.claim != null && (s.activeSent || s.utilizedWithinClaim())) {
                // UTILIZED first: a process is told Active only once FleetIQ holds the match as its own.
                operation = Operation.Active;
                if (!s.activeSent) {
                    s.activeSent = true;
                    s.sessionId = UUID.randomUUID().toString();
                    changed = true;
                    log.info(s.gameServerId + ": told Active");
                }
            }
            boolean withSchedule = maintenance.documentIncarnation() > s.maintenanceIncarnationSent;
            s.maintenanceIncarnationSent = maintenance.documentIncarnation();
            return new GsdkAnswer.Reply(GsdkReplies.reply(operation, s, config.gameServerGroupName(), instanceId,
                    maintenance, withSchedule));
        }
    }

    /**
     * The uid whose process alone may call for that session, or {@link ServerUsers#AGENT_USER} when
     * any may (the agent's user runs it, or no running process has that session host id).
     */
    int ownerOf(String sessionHostId) {
        synchronized (lock) {
            ServerRecord s = bySessionHost.get(sessionHostId);
            return s == null ? ServerUsers.AGENT_USER : s.uid;
        }
    }

    /** {@code POST /v1/metrics/{id}/gsdkinfo}: which GSDK the process uses. */
    GsdkAnswer gsdkInfo(String sessionHostId, String flavor, String version) {
        synchronized (lock) {
            ServerRecord s = bySessionHost.get(sessionHostId);
            if (s == null) {
                return new GsdkAnswer.Refusal(404, "SessionHostNotFound", "no game server process of this agent has that session host id");
            }
            if (s.gsdkFlavor == null) {
                log.info(s.gameServerId + ": GSDK " + flavor + " " + version);
            }
            s.gsdkFlavor = flavor + " " + version;
            return new GsdkAnswer.Reply(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode());
        }
    }

    /** A claim notice: the process's next heartbeat is answered Active. */
    void claimed(Notices.Claimed notice) {
        synchronized (lock) {
            Instant now = clock.instant();
            ServerRecord s = running(notice.gameServerId());
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
            log.info(s.gameServerId + ": claimed; UTILIZED first" + (config.mode() == AgentConfig.Mode.GSDK
                    ? ", then Active at its next heartbeat" : ""));
            fleet.reconcile(s, now); // the UTILIZED now, not at the next round
        }
    }

    /** The registered StandingBy servers that no claim has reached: those a lost claim notice could be for. */
    List<String> unclaimed() {
        synchronized (lock) {
            return Stream.of(slots).map(slot -> slot.current).filter(s -> s != null && !s.stopping()
                    && s.state == GameState.StandingBy && s.claim == null && !s.activeSent
                    && s.registration == ServerRecord.Registration.AVAILABLE).map(s -> s.gameServerId).toList();
        }
    }

    /** An operator's shutdown: Terminate, then TERM, grace, KILL, and a replacement. */
    void terminate(Notices.Terminate notice) {
        synchronized (lock) {
            ServerRecord s = running(notice.gameServerId());
            if (s == null) {
                log.info(notice.gameServerId() + ": terminate notice ignored (no such running server)");
                return;
            }
            stop(s, "terminate notice (" + notice.reason() + ")", false, true, clock.instant());
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

    void maintenance(MaintenanceEvent.Schedule schedule) {
        synchronized (lock) {
            if (schedule.documentIncarnation() != maintenance.documentIncarnation()) {
                log.info("maintenance schedule " + schedule.documentIncarnation() + ": " + schedule.events());
            }
            maintenance = schedule;
        }
    }

    private ServerRecord running(String gameServerId) {
        for (Slot slot : slots) {
            if (slot.current != null && slot.current.gameServerId.equals(gameServerId)) {
                return slot.current;
            }
        }
        return null;
    }

    /** Every process the agent still looks after: the running ones, then those ended and not yet cleared. */
    Stream<ServerRecord> servers() {
        return Stream.concat(Stream.of(slots).map(slot -> slot.current).filter(java.util.Objects::nonNull), retiring.stream());
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

    Slot[] slots() {
        return slots;
    }

    List<ServerRecord> retiring() {
        return retiring;
    }

    /** A process of an earlier run of the agent, found again at start (see {@link StateFile}). */
    void adopt(ServerRecord s) {
        synchronized (lock) {
            if (s.ended()) {
                retiring.add(s);
            } else {
                slots[s.slot].current = s;
                bySessionHost.put(s.sessionHostId, s);
            }
            changed = true;
        }
    }

    private String hex(int bytes) {
        byte[] b = new byte[bytes];
        random.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}

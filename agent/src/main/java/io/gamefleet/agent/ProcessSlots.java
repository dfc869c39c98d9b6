package io.gamefleet.agent;

import java.io.IOException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntSupplier;
import java.util.stream.Stream;

/**
 * The agent's N process slots, each with its ports and its uid: a process started in each, with new
 * ids; a process that ended replaced, at once after a healthy run, after a backoff after failures in
 * a row; the stops (Terminate, TERM, grace, KILL). Each slot counts its crashes and start timeouts
 * and keeps its previous process's exit code, which the health report carries. Mutated only under
 * the supervisor's lock.
 */
final class ProcessSlots {
    /** How many of a failed process's last lines of output the agent's log shows. */
    static final int FAILURE_OUTPUT_LINES = 5;
    /** How many failures in a row make a slot's failures a crash loop (reported as such). */
    static final int CRASH_LOOP = 3;

    /** One place for a process, with its ports; its failures in a row decide when the next starts. */
    static final class Slot {
        final int index;
        ServerRecord current;
        int failures;
        Instant nextStartAt = Instant.MIN;
        /** Since the agent started: failures other than start timeouts, and start timeouts. */
        int crashes;
        int startTimeouts;
        /** The previous process's exit code, when it had one the agent could know. */
        Integer lastExitCode;
        /** A sidecar's one game server has ended: nothing starts in the slot again (ECS replaces the task). */
        boolean retired;
        /** Its port of each name of the config's {@code ports}, in their order: every process in it is given them. */
        final Map<String, Integer> ports;

        Slot(int index, Map<String, Integer> ports) {
            this.index = index;
            this.ports = Collections.unmodifiableMap(new LinkedHashMap<>(ports));
        }
    }

    private final AgentConfig config;
    private final ProcessLauncher launcher;
    private final GameServerLaunch launch;
    private final ServerUsers users;
    private final Backoff crashBackoff;
    private final ProcessEvents events;
    private final AgentLog log;
    private final IntSupplier gsdkPort;
    private final Runnable changed;
    private final SecureRandom random = new SecureRandom();
    private final Slot[] slots;

    ProcessSlots(AgentConfig config, ProcessLauncher launcher, GameServerLaunch launch, ServerUsers users, Backoff crashBackoff,
            ProcessEvents events, AgentLog log, IntSupplier gsdkPort, Runnable changed) {
        this.config = config;
        this.launcher = launcher;
        this.launch = launch;
        this.users = users;
        this.crashBackoff = crashBackoff;
        this.events = events;
        this.log = log;
        this.gsdkPort = gsdkPort;
        this.changed = changed;
        this.slots = new Slot[config.processes()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = new Slot(i, GameServerLaunch.ports(config, i));
        }
    }

    Slot[] all() {
        return slots;
    }

    /** Whether every slot is retired: a sidecar's game server has ended. */
    boolean allRetired() {
        return Stream.of(slots).allMatch(slot -> slot.retired);
    }

    /** The process running in each slot that has one. */
    Stream<ServerRecord> running() {
        return Stream.of(slots).map(slot -> slot.current).filter(Objects::nonNull);
    }

    ServerRecord running(String gameServerId) {
        return running().filter(s -> s.gameServerId.equals(gameServerId)).findFirst().orElse(null);
    }

    /** Starts a process in the slot if it has none and its backoff has passed; the new process, or null. */
    ServerRecord startIfDue(Slot slot, Instant now) {
        if (slot.current != null || slot.retired || now.isBefore(slot.nextStartAt)) {
            return null;
        }
        // The game server id is public (FleetIQ lists it); the session host id is the process's secret.
        String gameServerId = "gs-" + hex(8);
        ServerRecord s = new ServerRecord(slot.index, gameServerId, hex(16), config.serversDirectory().resolve(gameServerId),
                now, users.uid(slot.index));
        try {
            endLeftovers(s.uid);
            s.process = launcher.launch(launch.prepare(s, gsdkPort.getAsInt()));
        } catch (IOException | RuntimeException e) {
            Duration delay = failed(slot, false, now);
            log.warn("slot " + slot.index + ": cannot start " + config.command() + " (" + e.getMessage() + "); "
                    + "next try in " + delay.toMillis() + " ms");
            return null;
        }
        slot.current = s;
        changed.run();
        log.info(s.gameServerId + ": started, pid " + s.process.pid() + ", slot " + slot.index);
        return s;
    }

    /**
     * Before a slot's uid starts a new process and before an ended one's folder is archived, nothing
     * of that uid may run on: a process that left its group (setsid, a double fork) would otherwise
     * pass as the next process of the slot on the GSDK endpoint, or race the archive in its folder.
     */
    void endLeftovers(int uid) {
        if (uid != ServerUsers.AGENT_USER) {
            launcher.killAll(uid);
        }
    }

    /** The slot's process has ended: the slot is free, and its next start is due at once or after its backoff. */
    void ended(Slot slot, ServerRecord s, Instant now) {
        endLeftovers(s.uid);
        slot.current = null;
        slot.lastExitCode = s.exitCode;
        changed.run();
        String how = (s.exitCode == null ? "ended" : "exited " + s.exitCode)
                + (s.state == null ? " before its first heartbeat" : " in state " + s.state)
                + (s.stopping() ? " (stopped: " + s.stopReason + ")" : "");
        if (config.mode() == AgentConfig.Mode.SIDECAR) {
            slot.retired = true;
            log.info(s.gameServerId + ": " + how + "; the task's game server is over: the agent exits once it is "
                    + "deregistered and archived, and ECS replaces the task");
            return;
        }
        boolean failure = s.stopping() ? s.stopIsFailure
                : !s.everReady || (s.exitCode != null && s.exitCode != 0) || endedTooSoon(s, now);
        if (!failure) {
            slot.failures = 0;
            slot.nextStartAt = now;
            log.info(s.gameServerId + ": " + how + "; replacing it");
            return;
        }
        Duration delay = failed(slot, s.startTimedOut, now);
        String loop = slot.failures >= CRASH_LOOP ? "crash loop: " : "";
        log.warn(loop + s.gameServerId + ": " + how + "; slot " + slot.index + " failed " + slot.failures
                + " time(s) in a row; next start in " + delay.toMillis() + " ms" + lastOutput(s));
    }

    /** A failed process's last lines of output, for the line that says it failed: the reason is often there. */
    private static String lastOutput(ServerRecord s) {
        if (s.console == null) {
            return "";
        }
        List<String> lines = s.console.lastLines(FAILURE_OUTPUT_LINES);
        return lines.isEmpty() ? "; it printed nothing" : "; its last output: " + String.join(" | ", lines);
    }

    private Duration failed(Slot slot, boolean startTimeout, Instant now) {
        slot.failures++;
        if (startTimeout) {
            slot.startTimeouts++;
            events.startTimeout();
        } else {
            slot.crashes++;
            events.crash();
        }
        Duration delay = crashBackoff.delay(slot.failures);
        slot.nextStartAt = now.plus(delay);
        return delay;
    }

    /**
     * An end the process chose (exit 0, Terminating reported) counts as a failure unless it played a
     * match or stayed up the start timeout: one quitting right after StandingBy backs off, instead of
     * registering and deregistering as fast as it starts.
     */
    boolean endedTooSoon(ServerRecord s, Instant now) {
        return !s.activeSent && now.isBefore(s.startedAt.plus(config.timings().startTimeout()));
    }

    /**
     * Stops the process: with {@code notice}, a GSDK process is answered Terminate and gets TERM
     * {@code terminateNoticeSeconds} later (at once in wrapper mode, or without notice); KILL follows
     * {@code stopGraceSeconds} after TERM.
     */
    void stop(ServerRecord s, String reason, boolean failure, boolean notice, Instant now) {
        if (s.stopping()) {
            return;
        }
        s.stopReason = reason;
        s.stopIsFailure = failure;
        boolean canTell = notice && config.mode().speaksGsdk();
        s.termAt = canTell ? now.plus(config.timings().terminateNotice()) : now;
        changed.run();
        log.info(s.gameServerId + ": stopping: " + reason);
    }

    /** A process of an earlier run, in the slot it ran in. */
    void adopt(ServerRecord s) {
        slots[s.slot].current = s;
    }

    private String hex(int bytes) {
        byte[] b = new byte[bytes];
        random.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}

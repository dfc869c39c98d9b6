package io.gamefleet.agent;

import java.nio.file.Path;
import java.time.Instant;

/**
 * One game server process and what the agent knows of it: its GSDK state, its claim, its FleetIQ
 * registration, its stop. Mutated only under the supervisor's lock.
 */
final class ServerRecord {
    /** What FleetIQ holds for the server, as far as the agent's calls went through. */
    enum Registration { NONE, AVAILABLE, UTILIZED }

    final int slot;
    final String gameServerId;
    final String sessionHostId;
    final Path folder;
    final Instant startedAt;
    GameProcess process;

    /** Null until the first heartbeat (or, in wrapper mode, until the readiness check passes). */
    GameState state;
    Instant lastHeartbeat;
    boolean healthy = true;
    /** It reached StandingBy once: ending after that with exit code 0 is no failure. */
    boolean everReady;
    String gsdkFlavor;
    /** Wrapper mode's readyLine: how far its console log has been read. */
    long outputReadOffset;

    Notices.Claimed claim;
    String sessionId;
    /** A reply has said {@code operation: Active}: from then on FleetIQ is told UTILIZED. */
    boolean activeSent;
    long maintenanceIncarnationSent;

    Registration registration = Registration.NONE;
    /**
     * A RegisterGameServer went out and its outcome is unknown (in flight, or failed with a fault):
     * it may have gone through, so a server that is not wanted any more is deregistered all the same.
     */
    boolean registerAttempted;
    boolean apiInFlight;
    Instant apiRetryAt = Instant.MIN;
    int apiFailures;
    Instant nextHealthAt = Instant.MIN;

    String stopReason;
    /** Whether the stop is the server's own failure (counted towards the crash backoff). */
    boolean stopIsFailure;
    Instant termAt;
    Instant termSentAt;
    boolean killSent;

    Instant endedAt;
    Integer exitCode;
    boolean archived;

    ServerRecord(int slot, String gameServerId, String sessionHostId, Path folder, Instant startedAt) {
        this.slot = slot;
        this.gameServerId = gameServerId;
        this.sessionHostId = sessionHostId;
        this.folder = folder;
        this.startedAt = startedAt;
    }

    Path logFolder() {
        return folder.resolve("logs");
    }

    boolean stopping() {
        return stopReason != null;
    }

    boolean ended() {
        return endedAt != null;
    }

    /** What FleetIQ should hold: nothing once the process ends, stops or leaves StandingBy/Active. */
    Registration target() {
        if (ended() || stopping() || state == null) {
            return Registration.NONE;
        }
        return switch (state) {
            case StandingBy -> activeSent ? Registration.UTILIZED : Registration.AVAILABLE;
            case Active -> Registration.UTILIZED;
            default -> Registration.NONE;
        };
    }

    /** Nothing more to do for it: ended, archived, and nothing left registered. */
    boolean finished() {
        return ended() && archived && registration == Registration.NONE && !registerAttempted && !apiInFlight;
    }
}

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
    /** The uid (and gid) it runs as, {@link ServerUsers#AGENT_USER} for the agent's own: the only caller its session accepts. */
    final int uid;
    GameProcess process;

    /** Null until the first heartbeat (or, in wrapper mode, until the readiness check passes). */
    GameState state;
    Instant lastHeartbeat;
    boolean healthy = true;
    /** The count of the last heartbeat's CurrentPlayers, and their PlayerIds as the health report may carry them. */
    int connectedPlayers;
    java.util.List<String> playerIds = java.util.List.of();
    /** It reached StandingBy once: ending after that with exit code 0 is no failure. */
    boolean everReady;
    String gsdkFlavor;
    /** Wrapper mode's readyLine: how far its console log has been read. */
    long outputReadOffset;
    /** The agent's own handle on its console log, from its start; null for a process adopted from a state file. */
    ConsoleOutput console;

    Notices.Claimed claim;
    String sessionId;
    /** A reply has said {@code operation: Active} (told only once FleetIQ took UTILIZED within the claim). */
    boolean activeSent;
    /** A claim's UpdateGameServer UTILIZED went out: FleetIQ may hold it UTILIZED, answer or not. */
    boolean utilizedAttempted;
    /** When FleetIQ answered the UTILIZED: before the claim's end, the process may be told Active. */
    Instant utilizedAt;
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
    /** A DeregisterGameServer of it was answered, or failed: what an agent that stops waits for, at most. */
    boolean deregisterTried;

    String stopReason;
    /** Whether the stop is the server's own failure (counted towards the crash backoff). */
    boolean stopIsFailure;
    /** It was stopped for not reaching StandingBy within the start timeout (its slot counts those apart). */
    boolean startTimedOut;
    Instant termAt;
    Instant termSentAt;
    Instant killSentAt;

    Instant endedAt;
    Integer exitCode;
    boolean archived;

    /** A process that runs as the agent's own user. */
    ServerRecord(int slot, String gameServerId, String sessionHostId, Path folder, Instant startedAt) {
        this(slot, gameServerId, sessionHostId, folder, startedAt, ServerUsers.AGENT_USER);
    }

    ServerRecord(int slot, String gameServerId, String sessionHostId, Path folder, Instant startedAt, int uid) {
        this.slot = slot;
        this.uid = uid;
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

    /** In a match, or about to be: claimed (its players on their way) or told Active. */
    boolean inMatch() {
        return claim != null || activeSent || state == GameState.Active;
    }

    /** When its match began (the claim), or, with none, when it started: the order its logs are archived in. */
    Instant matchOrStart() {
        return claim != null ? claim.claimedAt() : startedAt;
    }

    /** FleetIQ took the claim's UTILIZED while the claim lasted: the match is this process's. */
    boolean utilizedWithinClaim() {
        return claim != null && utilizedAt != null && utilizedAt.isBefore(claim.claimExpiresAt());
    }

    /**
     * What FleetIQ should hold: nothing once the process ends, stops or leaves StandingBy/Active;
     * UTILIZED as soon as a claim reaches a StandingBy process, before it is told Active.
     */
    Registration target() {
        if (ended() || stopping() || state == null) {
            return Registration.NONE;
        }
        return switch (state) {
            case StandingBy -> activeSent || claim != null ? Registration.UTILIZED : Registration.AVAILABLE;
            case Active -> Registration.UTILIZED;
            default -> Registration.NONE;
        };
    }

    /** Nothing more to do for it: ended, archived, and nothing left registered. */
    boolean finished() {
        return ended() && archived && registration == Registration.NONE && !registerAttempted && !apiInFlight;
    }
}

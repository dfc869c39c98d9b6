package io.gamefleet.agent;

import java.time.Instant;
import java.util.List;

/** What the push channel brings (docs/agent.md, "Push channel"). */
final class Notices {
    private Notices() {}

    /**
     * A claim of one of this instance's servers: a ClaimGameServer's, or a session's ({@code session}
     * not null), whose id, cookie and initial players the GSDK is handed when it is told Active.
     */
    record Claimed(String gameServerId, String gameServerData, Instant claimedAt, Instant claimExpiresAt,
            Session session) {
        /** A ClaimGameServer's. */
        Claimed(String gameServerId, String gameServerData, Instant claimedAt, Instant claimExpiresAt) {
            this(gameServerId, gameServerData, claimedAt, claimExpiresAt, null);
        }
    }

    /** A session's id, cookie (null: none) and initial players, as the claimed notice brings them. */
    record Session(String sessionId, String sessionCookie, List<String> initialPlayers) {
        Session {
            initialPlayers = List.copyOf(initialPlayers);
        }
    }

    /** An operator's DeregisterGameServer of one of this instance's running servers. */
    record Terminate(String gameServerId, String reason) {}
}

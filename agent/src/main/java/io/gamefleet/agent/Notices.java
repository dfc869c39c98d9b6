package io.gamefleet.agent;

import java.time.Instant;

/** What the push channel brings (docs/agent.md, "Push channel"). */
final class Notices {
    private Notices() {}

    /** A ClaimGameServer of one of this instance's servers. */
    record Claimed(String gameServerId, String gameServerData, Instant claimedAt, Instant claimExpiresAt) {}

    /** An operator's DeregisterGameServer of one of this instance's running servers. */
    record Terminate(String gameServerId, String reason) {}
}

package io.gamefleet.domain;

/**
 * What one instance may do to its group, even with its own credentials (docs/api.md, "What one
 * instance can do"): hold at most {@code maxGameServers} registered game servers; with
 * {@code connectionInfoCheck}, name only its own addresses in ConnectionInfo; and register game
 * servers, and send push messages, within its fair share of the stage's throttles.
 */
public record InstanceLimits(int maxGameServers, boolean connectionInfoCheck, FairShare.Budget registrations,
        FairShare.Budget pushMessages) {
    public InstanceLimits {
        if (maxGameServers < 1) {
            throw new IllegalArgumentException("an instance must be allowed at least 1 game server, not " + maxGameServers);
        }
    }
}

package io.gamefleet.agent;

/**
 * What the agent asks of Gamefleet's FleetIQ API for its game servers. Each call throws
 * {@link Unreachable} when it should be retried later and {@link NotFound} when the server is not
 * registered (any more); a registration throws {@link Refused} when FleetIQ holds that id for a
 * server that is not this instance's.
 */
public interface FleetApi {
    void register(String gameServerId, String connectionInfo);

    /** UpdateGameServer: HealthCheck HEALTHY, and UtilizationStatus UTILIZED when {@code utilized}. */
    void update(String gameServerId, boolean healthy, boolean utilized);

    void deregister(String gameServerId);

    /** DescribeGameServer: its GameServerData (null when it has none) and LastClaimTime while it is CLAIMED. */
    java.util.Optional<Claim> claimOf(String gameServerId);

    record Claim(String gameServerData, java.time.Instant lastClaimTime) {}

    final class Unreachable extends RuntimeException {
        public Unreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    final class NotFound extends RuntimeException {
        public NotFound(String message) {
            super(message);
        }
    }

    /** A refusal that leaves nothing of this agent's registered: retried on the backoff. */
    final class Refused extends RuntimeException {
        public Refused(String message) {
            super(message);
        }
    }
}

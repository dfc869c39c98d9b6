package io.gamefleet.agent;

/**
 * What the agent asks of Gamefleet's FleetIQ API for its game servers. Each call throws
 * {@link Unreachable} when it should be retried later and {@link NotFound} when the server is not
 * registered (any more).
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
}

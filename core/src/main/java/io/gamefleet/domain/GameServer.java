package io.gamefleet.domain;

import java.time.Instant;

/**
 * A registered game server. {@code claimExpiresAt} is set while a claim may be live; the claim
 * is live only while it is in the future (see {@link #isClaimedAt}). {@code instanceStatus} and
 * {@code instanceLaunchTime} are copied from the instance at registration (and by the balancer
 * when the instance changes): they order claim candidates without reading the instance.
 * {@code pushConnectionId} is a copy of the instance's push connection (made at registration and
 * when the instance's agent connects), so that the claim's own write returns it and its notice
 * needs no read of the instance; the instance's record stays the authority.
 * {@code healthLeaseExpiresAt} is set on a server whose instance's agent reports its health over
 * the push channel ({@link HealthReports}): it is healthy until then, whatever its
 * {@code lastHealthCheckTime}; without one, health is its last heartbeat within the health timeout.
 * {@code process}: what its item keeps of its process's last report through the agent
 * ({@link ProcessSummary}; null when none came). {@code claimSessionId}: the session whose claim
 * its last claim was (null after a ClaimGameServer's), so that its game server can read the
 * session's cookie and players when the claimed notice did not reach its agent.
 */
public record GameServer(
        String gameServerGroupName,
        String gameServerId,
        String instanceId,
        String connectionInfo,
        String gameServerData,
        UtilizationStatus utilizationStatus,
        Instant claimExpiresAt,
        Instant lastClaimTime,
        Instant lastHealthCheckTime,
        Instant registrationTime,
        InstanceStatus instanceStatus,
        Instant instanceLaunchTime,
        String pushConnectionId,
        Instant healthLeaseExpiresAt,
        ProcessSummary process,
        String claimSessionId) {

    public boolean isClaimedAt(Instant now) {
        return claimExpiresAt != null && claimExpiresAt.isAfter(now);
    }

    /** Claimable as far as health goes: its lease runs past {@code now}, or (with none) it beat since the cutoff. */
    public boolean isHealthyAt(Instant now, Instant healthCutoff) {
        return healthLeaseExpiresAt != null ? healthLeaseExpiresAt.isAfter(now) : !lastHealthCheckTime.isBefore(healthCutoff);
    }

    /**
     * Due for the health sweep: no heartbeat since the cutoff, or a lease that ended before it (an
     * agent whose channel dropped has the health timeout to report through the API instead).
     */
    public boolean isSilentSince(Instant healthCutoff) {
        return healthLeaseExpiresAt != null ? healthLeaseExpiresAt.isBefore(healthCutoff)
                : lastHealthCheckTime.isBefore(healthCutoff);
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    public static Builder builder() {
        return new Builder(null);
    }

    public static final class Builder {
        private String gameServerGroupName;
        private String gameServerId;
        private String instanceId;
        private String connectionInfo;
        private String gameServerData;
        private UtilizationStatus utilizationStatus = UtilizationStatus.AVAILABLE;
        private Instant claimExpiresAt;
        private Instant lastClaimTime;
        private Instant lastHealthCheckTime;
        private Instant registrationTime;
        private InstanceStatus instanceStatus = InstanceStatus.ACTIVE;
        private Instant instanceLaunchTime;
        private String pushConnectionId;
        private Instant healthLeaseExpiresAt;
        private ProcessSummary process;
        private String claimSessionId;

        private Builder(GameServer s) {
            if (s == null) {
                return;
            }
            gameServerGroupName = s.gameServerGroupName;
            gameServerId = s.gameServerId;
            instanceId = s.instanceId;
            connectionInfo = s.connectionInfo;
            gameServerData = s.gameServerData;
            utilizationStatus = s.utilizationStatus;
            claimExpiresAt = s.claimExpiresAt;
            lastClaimTime = s.lastClaimTime;
            lastHealthCheckTime = s.lastHealthCheckTime;
            registrationTime = s.registrationTime;
            instanceStatus = s.instanceStatus;
            instanceLaunchTime = s.instanceLaunchTime;
            pushConnectionId = s.pushConnectionId;
            healthLeaseExpiresAt = s.healthLeaseExpiresAt;
            process = s.process;
            claimSessionId = s.claimSessionId;
        }

        public Builder gameServerGroupName(String v) { gameServerGroupName = v; return this; }
        public Builder gameServerId(String v) { gameServerId = v; return this; }
        public Builder instanceId(String v) { instanceId = v; return this; }
        public Builder connectionInfo(String v) { connectionInfo = v; return this; }
        public Builder gameServerData(String v) { gameServerData = v; return this; }
        public Builder utilizationStatus(UtilizationStatus v) { utilizationStatus = v; return this; }
        public Builder claimExpiresAt(Instant v) { claimExpiresAt = v; return this; }
        public Builder lastClaimTime(Instant v) { lastClaimTime = v; return this; }
        public Builder lastHealthCheckTime(Instant v) { lastHealthCheckTime = v; return this; }
        public Builder registrationTime(Instant v) { registrationTime = v; return this; }
        public Builder instanceStatus(InstanceStatus v) { instanceStatus = v; return this; }
        public Builder instanceLaunchTime(Instant v) { instanceLaunchTime = v; return this; }
        public Builder pushConnectionId(String v) { pushConnectionId = v; return this; }
        public Builder healthLeaseExpiresAt(Instant v) { healthLeaseExpiresAt = v; return this; }
        public Builder process(ProcessSummary v) { process = v; return this; }
        public Builder claimSessionId(String v) { claimSessionId = v; return this; }

        public GameServer build() {
            return new GameServer(gameServerGroupName, gameServerId, instanceId, connectionInfo,
                    gameServerData, utilizationStatus, claimExpiresAt, lastClaimTime,
                    lastHealthCheckTime, registrationTime, instanceStatus, instanceLaunchTime, pushConnectionId,
                    healthLeaseExpiresAt, process, claimSessionId);
        }
    }
}

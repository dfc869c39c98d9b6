package io.gamefleet.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class GameServerTest {
    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

    private static GameServer claimedUntil(Instant expiresAt) {
        return GameServer.builder().gameServerId("gs").claimExpiresAt(expiresAt).lastHealthCheckTime(NOW).build();
    }

    @Test
    void aClaimIsLiveOnlyWhileItsExpiryIsInTheFuture() {
        assertThat(claimedUntil(null).isClaimedAt(NOW)).isFalse();
        assertThat(claimedUntil(NOW.plusMillis(1)).isClaimedAt(NOW)).isTrue();
        assertThat(claimedUntil(NOW).isClaimedAt(NOW)).as("a claim expiring exactly now is not live").isFalse();
        assertThat(claimedUntil(NOW.minusMillis(1)).isClaimedAt(NOW)).isFalse();
    }

    @Test
    void healthyWhenTheLastCheckIsAtOrAfterTheCutoff() {
        GameServer server = GameServer.builder().gameServerId("gs").lastHealthCheckTime(NOW).build();
        assertThat(server.isHealthyAt(NOW, NOW)).as("checked exactly at the cutoff").isTrue();
        assertThat(server.isHealthyAt(NOW, NOW.minusMillis(1))).isTrue();
        assertThat(server.isHealthyAt(NOW, NOW.plusMillis(1))).isFalse();
        assertThat(server.isSilentSince(NOW)).isFalse();
        assertThat(server.isSilentSince(NOW.plusMillis(1))).isTrue();
    }

    @Test
    void aLeaseDecidesHealthWhateverTheLastCheck() {
        GameServer leased = GameServer.builder().gameServerId("gs").lastHealthCheckTime(NOW.minusSeconds(3600))
                .healthLeaseExpiresAt(NOW.plusSeconds(1)).build();
        assertThat(leased.isHealthyAt(NOW, NOW.minusSeconds(180))).as("an old check, a live lease").isTrue();
        assertThat(leased.isHealthyAt(NOW.plusSeconds(1), NOW)).as("the lease ends exactly then").isFalse();
        GameServer ended = leased.toBuilder().lastHealthCheckTime(NOW).healthLeaseExpiresAt(NOW).build();
        assertThat(ended.isHealthyAt(NOW, NOW.minusSeconds(180))).as("ended (UNHEALTHY), however recent the check")
                .isFalse();
        assertThat(ended.isSilentSince(NOW)).as("swept only a health timeout after the lease's end").isFalse();
        assertThat(ended.isSilentSince(NOW.plusMillis(1))).isTrue();
    }

    @Test
    void builderDefaultsAndRoundTrip() {
        GameServer fresh = GameServer.builder().build();
        assertThat(fresh.utilizationStatus()).isEqualTo(UtilizationStatus.AVAILABLE);
        assertThat(fresh.instanceStatus()).isEqualTo(InstanceStatus.ACTIVE);

        GameServer full = new GameServer("g", "gs", "i-1", "1.2.3.4:7777", "data", UtilizationStatus.UTILIZED,
                NOW.plusSeconds(1), NOW.plusSeconds(2), NOW.plusSeconds(3), NOW.plusSeconds(4),
                InstanceStatus.DRAINING, NOW.plusSeconds(5), "connection-1", NOW.plusSeconds(6),
                new ProcessSummary(ProcessState.Active, 2, "0123456789abcdef"), "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b");
        assertThat(full.toBuilder().build()).isEqualTo(full);
        assertThat(full.toBuilder().gameServerData("other").build().gameServerData()).isEqualTo("other");
        assertThat(full.gameServerData()).isEqualTo("data");
    }
}

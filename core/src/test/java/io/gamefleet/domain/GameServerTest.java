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
        assertThat(server.isHealthyAt(NOW)).as("checked exactly at the cutoff").isTrue();
        assertThat(server.isHealthyAt(NOW.minusMillis(1))).isTrue();
        assertThat(server.isHealthyAt(NOW.plusMillis(1))).isFalse();
    }

    @Test
    void builderDefaultsAndRoundTrip() {
        GameServer fresh = GameServer.builder().build();
        assertThat(fresh.utilizationStatus()).isEqualTo(UtilizationStatus.AVAILABLE);
        assertThat(fresh.instanceStatus()).isEqualTo(InstanceStatus.ACTIVE);

        GameServer full = new GameServer("g", "gs", "i-1", "1.2.3.4:7777", "data", UtilizationStatus.UTILIZED,
                NOW.plusSeconds(1), NOW.plusSeconds(2), NOW.plusSeconds(3), NOW.plusSeconds(4),
                InstanceStatus.DRAINING, NOW.plusSeconds(5), "connection-1");
        assertThat(full.toBuilder().build()).isEqualTo(full);
        assertThat(full.toBuilder().gameServerData("other").build().gameServerData()).isEqualTo("other");
        assertThat(full.gameServerData()).isEqualTo("data");
    }
}

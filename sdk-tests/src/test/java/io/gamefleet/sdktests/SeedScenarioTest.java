package io.gamefleet.sdktests;

import static io.gamefleet.sdktests.JavaClients.anInstance;
import static io.gamefleet.sdktests.JavaClients.awaitActive;
import static io.gamefleet.sdktests.JavaClients.createGroup;
import static io.gamefleet.sdktests.JavaClients.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.sdktests.LocalGamefleet.Profile;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.gamelift.GameLiftClient;
import software.amazon.awssdk.services.gamelift.model.ConflictException;
import software.amazon.awssdk.services.gamelift.model.GameServer;
import software.amazon.awssdk.services.gamelift.model.GameServerClaimStatus;
import software.amazon.awssdk.services.gamelift.model.GameServerGroup;
import software.amazon.awssdk.services.gamelift.model.GameServerGroupDeleteOption;
import software.amazon.awssdk.services.gamelift.model.GameServerGroupStatus;
import software.amazon.awssdk.services.gamelift.model.GameServerUtilizationStatus;
import software.amazon.awssdk.services.gamelift.model.NotFoundException;

/**
 * A game server's life, through the official Java v2 client only: a group is created and becomes
 * ACTIVE, a game server registers, a matchmaker claims it, the claim lapses, the game server is
 * claimed again and reports UTILIZED when its players arrive, then deregisters, and the group is
 * deleted.
 */
@ExtendWith(LocalGamefleet.class)
class SeedScenarioTest {

    @Test
    void aGameServerFromRegistrationToTheGroupsDeletion(Profile profile) throws InterruptedException {
        try (GameLiftClient admin = JavaClients.gameLift(profile, LocalGamefleet.ADMIN);
                GameLiftClient matchmaker = JavaClients.gameLift(profile, LocalGamefleet.MATCHMAKER)) {
            String group = uniqueName("seed");
            assertThat(createGroup(admin, group).status()).isEqualTo(GameServerGroupStatus.NEW);
            assertThat(awaitActive(admin, group).autoScalingGroupArn()).isNotNull();

            String instance = anInstance(admin, group);
            GameServer registered = admin.registerGameServer(r -> r.gameServerGroupName(group).gameServerId("seed-match-1")
                    .instanceId(instance).connectionInfo("127.0.0.1:7777")).gameServer();
            assertThat(registered.claimStatus()).isNull();

            GameServer claimed = matchmaker.claimGameServer(r -> r.gameServerGroupName(group)
                    .gameServerData("map=dunes")).gameServer();
            assertThat(claimed.gameServerId()).isEqualTo("seed-match-1");
            assertThat(claimed.claimStatus()).isEqualTo(GameServerClaimStatus.CLAIMED);
            // While the claim lasts, nobody else gets the server.
            assertThatThrownBy(() -> matchmaker.claimGameServer(r -> r.gameServerGroupName(group)
                    .gameServerId("seed-match-1"))).isInstanceOf(ConflictException.class);

            // The claim lapses by itself when the claim TTL ends. The profile is a separate process
            // whose clock cannot be moved: this is the test run's one wait in real time, until the
            // claim's end as the claim itself reports it.
            Instant claimEnds = claimed.lastClaimTime().plusSeconds(LocalGamefleet.CLAIM_TTL_SECONDS);
            Duration untilEnd = Duration.between(Instant.now(), claimEnds).plusMillis(50);
            if (!untilEnd.isNegative()) {
                Thread.sleep(untilEnd.toMillis());
            }
            GameServer lapsed = Polling.until("the claim lapses", Duration.ofSeconds(5), () -> Optional.of(
                    admin.describeGameServer(r -> r.gameServerGroupName(group).gameServerId("seed-match-1")).gameServer())
                    .filter(s -> s.claimStatus() == null));
            assertThat(lapsed.lastClaimTime()).isEqualTo(claimed.lastClaimTime());
            assertThat(lapsed.utilizationStatus()).isEqualTo(GameServerUtilizationStatus.AVAILABLE);

            // Claimable again; its players arrive and it says so.
            assertThat(matchmaker.claimGameServer(r -> r.gameServerGroupName(group).gameServerId("seed-match-1"))
                    .gameServer().claimStatus()).isEqualTo(GameServerClaimStatus.CLAIMED);
            GameServer utilized = admin.updateGameServer(r -> r.gameServerGroupName(group).gameServerId("seed-match-1")
                    .utilizationStatus(GameServerUtilizationStatus.UTILIZED)).gameServer();
            assertThat(utilized.utilizationStatus()).isEqualTo(GameServerUtilizationStatus.UTILIZED);
            assertThat(utilized.claimStatus()).isNull();

            // The match ends.
            admin.deregisterGameServer(r -> r.gameServerGroupName(group).gameServerId("seed-match-1"));
            assertThat(admin.listGameServers(r -> r.gameServerGroupName(group)).gameServers()).isEmpty();

            GameServerGroup scheduled = admin.deleteGameServerGroup(r -> r.gameServerGroupName(group)
                    .deleteOption(GameServerGroupDeleteOption.SAFE_DELETE)).gameServerGroup();
            assertThat(scheduled.status()).isEqualTo(GameServerGroupStatus.DELETE_SCHEDULED);
            assertThat(JavaClients.awaitDeleted(admin, group).gameServerGroupName()).isEqualTo(group);
            assertThatThrownBy(() -> admin.describeGameServer(r -> r.gameServerGroupName(group)
                    .gameServerId("seed-match-1"))).isInstanceOf(NotFoundException.class);
        }
    }
}

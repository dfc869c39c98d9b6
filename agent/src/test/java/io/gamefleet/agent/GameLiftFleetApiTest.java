package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.gamelift.GameLiftClient;

/** The agent's FleetIQ calls through the official GameLift client, against the stand-in Gamefleet over HTTP. */
class GameLiftFleetApiTest {
    private FakeGamefleet gamefleet;
    private GameLiftClient client;

    @BeforeEach
    void start() throws Exception {
        gamefleet = new FakeGamefleet().start();
        client = GameLiftClient.builder().region(Region.US_EAST_1).endpointOverride(URI.create("http://127.0.0.1:" + gamefleet.port()))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"))).build();
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        gamefleet.close();
    }

    @Test
    void aConflictForAServerOnThisInstanceIsItsEarlierRegistrationWhoseAnswerWasLost() {
        new GameLiftFleetApi(client, "g", "i-1").register("gs-1", "10.0.0.5:7777");
        new GameLiftFleetApi(client, "g", "i-1").register("gs-1", "10.0.0.5:7777");
        assertThat(gamefleet.calls).containsExactly("RegisterGameServer gs-1", "RegisterGameServer gs-1", "DescribeGameServer gs-1");
    }

    @Test
    void aConflictForAServerOfAnotherInstanceIsARefusalThatNamesIt() {
        new GameLiftFleetApi(client, "g", "i-other").register("gs-1", "10.9.9.9:7777");
        assertThatThrownBy(() -> new GameLiftFleetApi(client, "g", "i-1").register("gs-1", "10.0.0.5:7777"))
                .isInstanceOf(FleetApi.Refused.class)
                .hasMessageContaining("gs-1 is registered on instance i-other, not this instance i-1");
        assertThat(gamefleet.instanceOf).containsEntry("gs-1", "i-other");
    }

    @Test
    void anUpdateSaysHealthyAndUtilizedOnlyWhenTheyAre() {
        FleetApi api = new GameLiftFleetApi(client, "g", "i-1");
        api.register("gs-1", "10.0.0.5:7777");
        api.update("gs-1", true, false);
        api.update("gs-1", false, true);
        assertThat(gamefleet.requests.subList(1, 3)).satisfiesExactly(
                healthy -> {
                    assertThat(healthy.path("HealthCheck").asText()).isEqualTo("HEALTHY");
                    assertThat(healthy.has("UtilizationStatus")).isFalse();
                },
                utilized -> {
                    assertThat(utilized.path("UtilizationStatus").asText()).isEqualTo("UTILIZED");
                    assertThat(utilized.has("HealthCheck")).isFalse();
                });
        assertThat(gamefleet.requests).allSatisfy(r -> assertThat(r.path("GameServerGroupName").asText()).isEqualTo("g"));
        assertThat(gamefleet.registered).containsEntry("gs-1", "UTILIZED");
    }

    @Test
    void aDeregistrationRemovesTheServerAndAnUnknownServerIsNotFound() {
        FleetApi api = new GameLiftFleetApi(client, "g", "i-1");
        api.register("gs-1", "10.0.0.5:7777");
        api.deregister("gs-1");
        assertThat(gamefleet.calls).containsExactly("RegisterGameServer gs-1", "DeregisterGameServer gs-1");
        assertThat(gamefleet.registered).isEmpty();
        assertThatThrownBy(() -> api.update("gs-1", true, false)).isInstanceOf(FleetApi.NotFound.class);
        assertThatThrownBy(() -> api.claimOf("gs-1")).isInstanceOf(FleetApi.NotFound.class);
    }

    @Test
    void aClaimIsWhatDescribeGameServerTellsOfAClaimedServerAndNothingForAnAvailableOne() {
        FleetApi api = new GameLiftFleetApi(client, "g", "i-1");
        api.register("gs-1", "10.0.0.5:7777");
        assertThat(api.claimOf("gs-1")).isEmpty();
        gamefleet.claimed.put("gs-1", "map=dust2");
        assertThat(api.claimOf("gs-1")).hasValue(new FleetApi.Claim("map=dust2", FakeGamefleet.CLAIMED_AT));
    }
}

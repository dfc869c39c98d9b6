package io.gamefleet.local.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.InstanceDefinition;
import io.gamefleet.domain.fakes.MutableClock;
import io.gamefleet.local.fleet.InstanceMetadata.Answer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A simulated instance's IMDSv2: its agent's endpoint secret, tokens on the profile's clock, what an
 * interruption shows, and the instance profile's keys.
 */
class InstanceMetadataTest {
    private static final InstanceMetadata.RoleCredentials KEYS = new InstanceMetadata.RoleCredentials("gamefleet-game-server",
            "local-instance-1", "secret-1", "token-1", Instant.parse("2100-01-01T00:00:00Z"));
    private final MutableClock clock = new MutableClock(Instant.parse("2100-01-01T00:00:00Z"));
    private final SimulatedFleet fleet = new SimulatedFleet(clock, Duration.ZERO, LocalAccount.REGION, LocalAccount.ACCOUNT_ID, Duration.ZERO);
    private final InstanceMetadata imds = new InstanceMetadata(fleet, clock,
            id -> fleet.instance(id).map(i -> KEYS));
    private String instance;
    private String other;

    @BeforeEach
    void twoInstances() {
        fleet.createScalingGroup(GameServerGroup.builder().name("g").autoScalingGroupName("gamefleet-g").minSize(2)
                .maxSize(2).instanceDefinitions(List.of(new InstanceDefinition("c5.large", null))).build());
        instance = fleet.instancesOf("g").get(0).instanceId();
        other = fleet.instancesOf("g").get(1).instanceId();
    }

    private String token(String instanceId, String ttl) {
        Answer a = imds.serve(instanceId, imds.secretOf(instanceId), "PUT", InstanceMetadata.TOKEN_PATH, ttl, null);
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.tokenTtlSeconds()).as("EC2's TTL header, which the SDK's client requires").contains(Long.parseLong(ttl));
        return a.body();
    }

    private Answer get(String instanceId, String item, String token) {
        return imds.serve(instanceId, imds.secretOf(instanceId), "GET", "/latest/meta-data/" + item, null, token);
    }

    @Test
    void anItemNeedsAValidTokenOfThatInstance() {
        assertThat(get(instance, "instance-id", null).status()).as("IMDSv1 is off").isEqualTo(401);
        assertThat(get(instance, "instance-id", "made-up").status()).isEqualTo(401);
        String token = token(instance, "60");
        assertThat(get(instance, "instance-id", token)).isEqualTo(new Answer(200, "text/plain", instance, Optional.empty()));
        assertThat(get(other, "instance-id", token).status()).as("another instance's token").isEqualTo(401);

        clock.advance(Duration.ofSeconds(60));
        assertThat(get(instance, "instance-id", token).status()).as("expired on the profile's clock").isEqualTo(401);
        assertThat(get(instance, "instance-id", token(instance, "21600")).status()).isEqualTo(200);
    }

    @Test
    void withoutItsAgentsEndpointSecretACallerGetsA403AndNothingOfTheInstance() {
        String token = token(instance, "60");
        String otherSecret = imds.secretOf(other);
        for (String secret : new String[] {null, "", "latest", otherSecret, imds.secretOf(instance) + "x"}) {
            Answer put = imds.serve(instance, secret, "PUT", InstanceMetadata.TOKEN_PATH, "60", null);
            Answer keys = imds.serve(instance, secret, "GET", "/latest/meta-data/iam/security-credentials/gamefleet-game-server",
                    null, token);
            for (Answer refused : new Answer[] {put, keys}) {
                assertThat(refused.status()).as(secret).isEqualTo(403);
                assertThat(refused.tokenTtlSeconds()).isEmpty();
                assertThat(refused.body()).contains("metadata answers its agent only").doesNotContain(KEYS.accessKeyId())
                        .doesNotContain(KEYS.secretAccessKey()).doesNotContain("c5.large");
            }
        }
        assertThat(imds.secretOf(instance)).as("one secret per instance, the same each time").isEqualTo(imds.secretOf(instance))
                .isNotEqualTo(otherSecret).hasSizeGreaterThanOrEqualTo(43);
    }

    @Test
    void theInstanceProfilesKeysAreEc2sItemsInEc2sShape() throws Exception {
        String token = token(instance, "60");
        assertThat(get(instance, "iam/security-credentials/", token)).isEqualTo(new Answer(200, "text/plain",
                "gamefleet-game-server", Optional.empty()));
        Answer keys = get(instance, "iam/security-credentials/gamefleet-game-server", token);
        assertThat(keys.status()).isEqualTo(200);
        assertThat(keys.contentType()).isEqualTo("application/json");
        assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(keys.body())).isEqualTo(
                new com.fasterxml.jackson.databind.ObjectMapper().readTree("""
                        {"Code": "Success", "LastUpdated": "2100-01-01T00:00:00Z", "Type": "AWS-HMAC",
                         "AccessKeyId": "local-instance-1", "SecretAccessKey": "secret-1", "Token": "token-1",
                         "Expiration": "2100-01-01T06:00:00Z"}"""));
        assertThat(imds.credentials(instance)).contains(keys.body());
        assertThat(get(instance, "iam/security-credentials/another-role", token).status()).isEqualTo(404);
        assertThat(imds.credentials("i-00000000000000000")).isEmpty();
    }

    @Test
    void aTokenNeedsATtlWithinEc2sBounds() {
        for (String ttl : new String[] {null, "", "0", "21601", "soon"}) {
            assertThat(imds.serve(instance, imds.secretOf(instance), "PUT", InstanceMetadata.TOKEN_PATH, ttl, null)
                    .status()).as(ttl).isEqualTo(400);
        }
        assertThat(imds.serve(instance, imds.secretOf(instance), "GET", InstanceMetadata.TOKEN_PATH, "60", null).status())
                .isEqualTo(405);
        assertThat(imds.serve("i-00000000000000000", "x", "PUT", InstanceMetadata.TOKEN_PATH, "60", null).status())
                .isEqualTo(404);
    }

    @Test
    void anInterruptionShowsAsEc2sNoticesUntilTheInstanceEnds() {
        String token = token(instance, "21600");
        assertThat(get(instance, "spot/instance-action", token).status()).isEqualTo(404);
        assertThat(get(instance, "events/recommendations/rebalance", token).status()).isEqualTo(404);
        assertThat(get(instance, "events/maintenance/scheduled", token).body()).isEqualTo("[]");
        assertThat(get(instance, "autoscaling/target-lifecycle-state", token).body()).isEqualTo("InService");

        fleet.interrupt(instance);
        Instant end = clock.instant().plus(Duration.ofMinutes(2));
        assertThat(get(instance, "spot/instance-action", token))
                .isEqualTo(new Answer(200, "application/json", "{\"action\":\"terminate\",\"time\":\"" + end + "\"}", Optional.empty()));
        assertThat(get(instance, "events/recommendations/rebalance", token).body())
                .isEqualTo("{\"noticeTime\":\"" + clock.instant() + "\"}");
        assertThat(get(other, "spot/instance-action", token(other, "60")).status()).isEqualTo(404);

        clock.advance(Duration.ofSeconds(119));
        fleet.tick();
        assertThat(fleet.instance(instance)).isPresent();
        clock.advance(Duration.ofSeconds(1));
        fleet.tick();
        assertThat(fleet.instance(instance)).as("ended two minutes after the warning").isEmpty();
        assertThat(get(instance, "instance-id", token).status()).isEqualTo(404);
    }
}

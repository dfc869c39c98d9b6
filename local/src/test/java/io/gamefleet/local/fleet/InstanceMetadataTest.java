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

/** A simulated instance's IMDSv2: tokens on the profile's clock, and what an interruption shows. */
class InstanceMetadataTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2100-01-01T00:00:00Z"));
    private final SimulatedFleet fleet = new SimulatedFleet(clock, Duration.ZERO, LocalAccount.ACCOUNT_ID);
    private final InstanceMetadata imds = new InstanceMetadata(fleet, clock);
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
        Answer a = imds.serve(instanceId, "PUT", InstanceMetadata.TOKEN_PATH, ttl, null);
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.tokenTtlSeconds()).as("EC2's TTL header, which the SDK's client requires").contains(Long.parseLong(ttl));
        return a.body();
    }

    private Answer get(String instanceId, String item, String token) {
        return imds.serve(instanceId, "GET", "/latest/meta-data/" + item, null, token);
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
    void aTokenNeedsATtlWithinEc2sBounds() {
        for (String ttl : new String[] {null, "", "0", "21601", "soon"}) {
            assertThat(imds.serve(instance, "PUT", InstanceMetadata.TOKEN_PATH, ttl, null).status()).as(ttl)
                    .isEqualTo(400);
        }
        assertThat(imds.serve(instance, "GET", InstanceMetadata.TOKEN_PATH, "60", null).status()).isEqualTo(405);
        assertThat(imds.serve("i-00000000000000000", "PUT", InstanceMetadata.TOKEN_PATH, "60", null).status())
                .isEqualTo(404);
    }

    @Test
    void anInterruptionShowsAsEc2sNoticesUntilTheInstanceEnds() {
        String token = token(instance, "21600");
        assertThat(get(instance, "spot/instance-action", token).status()).isEqualTo(404);
        assertThat(get(instance, "events/recommendations/rebalance", token).status()).isEqualTo(404);
        assertThat(get(instance, "events/maintenance/scheduled", token).body()).isEqualTo("[]");

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

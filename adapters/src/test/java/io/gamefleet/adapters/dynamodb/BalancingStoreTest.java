package io.gamefleet.adapters.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.GameServerRepository.ClaimCondition;
import io.gamefleet.domain.GameServerRepository.ServerUpdate;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.InterruptionRepository.Interruption;
import io.gamefleet.domain.UtilizationStatus;
import io.gamefleet.testing.Dynoxide;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The store operations the balancer and the instance events use, against dynoxide. */
class BalancingStoreTest {
    /** The group's maximum size, which its servers are registered for: large, so that they spread over every shard. */
    private static final int GROUP_MAX_SIZE = 1_000;
    /** How many servers one instance may hold: more than any of these tests registers on one. */
    private static final int ON_ONE_INSTANCE = 1_000;
    @RegisterExtension
    static final Dynoxide DYNAMO = new Dynoxide();

    /**
     * Far in the future: the interruption rows expire (TTL) two hours after T0, and on a real
     * DynamoDB or LocalStack a row whose expiry has passed may vanish in the middle of the test.
     */
    private static final Instant T0 = Instant.parse("2100-01-01T12:00:00Z");
    private static DynamoGameServerRepository servers;
    private static DynamoGroupRepository groups;
    private static DynamoInstanceRepository instances;
    private static DynamoInterruptionRepository interruptions;
    private static int sequence;

    @BeforeAll
    static void repositories() {
        servers = new DynamoGameServerRepository(DYNAMO.client(), DYNAMO.tableNames());
        groups = new DynamoGroupRepository(DYNAMO.client(), DYNAMO.enhanced(), DYNAMO.tableNames());
        instances = new DynamoInstanceRepository(DYNAMO.client(), DYNAMO.enhanced(), DYNAMO.tableNames());
        interruptions = new DynamoInterruptionRepository(DYNAMO.client(), DYNAMO.tableNames());
    }

    private static String activeGroup() {
        String name = "balance-" + (++sequence);
        GameServerGroup g = GameServerGroup.builder().name(name).creationTime(T0).lastUpdatedTime(T0)
                .maxSize(GROUP_MAX_SIZE).build();
        groups.create(g);
        groups.update(g.toBuilder().status(GameServerGroupStatus.ACTIVE).build());
        return name;
    }

    private static GameServer register(String group, String id, String instanceId) {
        GameServer s = GameServer.builder().gameServerGroupName(group).gameServerId(id).instanceId(instanceId)
                .registrationTime(T0).lastHealthCheckTime(T0).instanceStatus(InstanceStatus.ACTIVE)
                .instanceLaunchTime(T0.minusSeconds(600)).build();
        servers.register(s, GROUP_MAX_SIZE, ON_ONE_INSTANCE);
        return s;
    }

    private static List<String> candidates(String group, InstanceStatus bucket, Instant now) {
        return servers.claimCandidates(group, bucket, now, Instant.EPOCH, 50).servers().stream().map(GameServer::gameServerId).toList();
    }

    @Test
    void drainingMovesAnInstancesServersToTheLastResortBucketInOneGo() {
        String g = activeGroup();
        List<GameServer> onA = new ArrayList<>();
        for (int i = 0; i < 120; i++) { // more than one transaction's worth
            onA.add(register(g, g + "-a" + i, "i-0000000000000000a"));
        }
        GameServer onB = register(g, g + "-b", "i-0000000000000000b");
        GameServer utilized = onA.get(0);
        servers.update(g, utilized.gameServerId(), Optional.empty(),
                new ServerUpdate(Optional.empty(), Optional.of(UtilizationStatus.UTILIZED), Optional.empty()));

        assertThat(servers.onInstance("i-0000000000000000a")).hasSize(120);
        servers.setInstanceStatus(servers.onInstance("i-0000000000000000a"), InstanceStatus.DRAINING);

        assertThat(candidates(g, InstanceStatus.ACTIVE, T0)).containsExactly(onB.gameServerId());
        assertThat(candidates(g, InstanceStatus.DRAINING, T0)).hasSize(50).doesNotContain(utilized.gameServerId());
        assertThat(servers.find(utilized.gameServerId()).orElseThrow().instanceStatus()).isEqualTo(InstanceStatus.DRAINING);
        assertThat(servers.listAll(g)).hasSize(121);
    }

    @Test
    void aServerReadBeforeAClaimIsMovedFromAFreshRead() {
        String g = activeGroup();
        GameServer stale = register(g, g + "-s", "i-0000000000000000c");
        Instant expires = T0.plusSeconds(60);
        assertThat(servers.tryClaim(stale, new ClaimCondition(T0, T0.minusSeconds(180),
                EnumSet.of(InstanceStatus.ACTIVE, InstanceStatus.DRAINING)), expires, Optional.empty())).isPresent();

        servers.setInstanceStatus(List.of(stale), InstanceStatus.DRAINING); // the transaction fails; one by one works

        // Still claimed: a write from the stale read would have made it a candidate again at once.
        assertThat(candidates(g, InstanceStatus.DRAINING, T0)).isEmpty();
        GameServer moved = servers.find(stale.gameServerId()).orElseThrow();
        assertThat(moved.instanceStatus()).isEqualTo(InstanceStatus.DRAINING);
        assertThat(moved.claimExpiresAt()).isEqualTo(expires);
        assertThat(candidates(g, InstanceStatus.DRAINING, expires)).containsExactly(stale.gameServerId());
    }

    /** The index holds no health: the claims that meet silent servers take them out of it. */
    @Test
    void claimsTakeSilentServersOutOfTheCandidates() {
        String g = activeGroup();
        for (int i = 0; i < 30; i++) { // on the oldest instance: first in the index
            register(g, g + "-silent" + i, "i-0000000000000001a");
        }
        GameServer healthy = GameServer.builder().gameServerGroupName(g).gameServerId(g + "-healthy")
                .instanceId("i-0000000000000001b").registrationTime(T0).lastHealthCheckTime(T0.plusSeconds(300))
                .instanceStatus(InstanceStatus.ACTIVE).instanceLaunchTime(T0).build();
        servers.register(healthy, GROUP_MAX_SIZE, ON_ONE_INSTANCE);
        Instant now = T0.plusSeconds(400);
        ClaimCondition condition = new ClaimCondition(now, now.minusSeconds(180),
                EnumSet.of(InstanceStatus.ACTIVE, InstanceStatus.DRAINING));
        var candidates = servers.claimCandidates(g, InstanceStatus.ACTIVE, now, now.minusSeconds(180), 25);
        assertThat(candidates.servers()).hasSize(25).allMatch(s -> s.gameServerId().contains("-silent"));
        assertThat(candidates.groupStatus()).contains(GameServerGroupStatus.ACTIVE);

        for (GameServer silent : servers.claimCandidates(g, InstanceStatus.ACTIVE, now, now, 100).servers()) {
            if (!silent.gameServerId().equals(healthy.gameServerId())) {
                assertThat(servers.tryClaim(silent, condition, now.plusSeconds(60), Optional.empty())).isEmpty();
            }
        }
        assertThat(servers.claimCandidates(g, InstanceStatus.ACTIVE, now, now.minusSeconds(180), 25).servers())
                .extracting(GameServer::gameServerId).containsExactly(healthy.gameServerId());
    }

    @Test
    void spotTerminatingTakesServersOutOfClaims() {
        String g = activeGroup();
        GameServer s = register(g, g + "-t", "i-0000000000000000d");
        servers.setInstanceStatus(List.of(s), InstanceStatus.SPOT_TERMINATING);
        assertThat(candidates(g, InstanceStatus.ACTIVE, T0)).isEmpty();
        assertThat(candidates(g, InstanceStatus.DRAINING, T0)).isEmpty();
        assertThat(servers.find(s.gameServerId()).orElseThrow().instanceStatus()).isEqualTo(InstanceStatus.SPOT_TERMINATING);
    }

    @Test
    void onlyServersStillUnhealthyAreSwept() {
        String g = activeGroup();
        GameServer quiet = register(g, g + "-q", "i-0000000000000000e");
        GameServer revived = register(g, g + "-r", "i-0000000000000000e");
        servers.update(g, revived.gameServerId(), Optional.empty(),
                new ServerUpdate(Optional.empty(), Optional.empty(), Optional.of(T0.plusSeconds(200))));
        Instant cutoff = T0.plusSeconds(100);
        assertThat(servers.deleteIfUnhealthy(quiet.gameServerId(), cutoff)).isTrue();
        assertThat(servers.deleteIfUnhealthy(revived.gameServerId(), cutoff)).isFalse();
        assertThat(servers.find(quiet.gameServerId())).isEmpty();
        assertThat(servers.find(revived.gameServerId())).isPresent();
    }

    @Test
    void anInstanceIsFoundByItsIdAloneAndListedWithItsGroup() {
        String g = activeGroup();
        GameServerInstance i = new GameServerInstance(g, "i-0000000000000000f", InstanceStatus.ACTIVE, "c5.large",
                "us-east-1a", T0);
        instances.save(i);
        assertThat(instances.findById("i-0000000000000000f")).contains(i);
        assertThat(instances.findById("i-00000000000000404")).isEmpty();
        assertThat(instances.listAll(g)).containsExactly(i);
        instances.delete(g, i.instanceId());
        assertThat(instances.listAll(g)).isEmpty();
    }

    @Test
    void interruptionsAreReadBackSinceATime() {
        String g = activeGroup();
        interruptions.record(new Interruption(g, "i-1", "c4.large", T0), T0.plus(Duration.ofHours(2)));
        interruptions.record(new Interruption(g, "i-2", "c4.large", T0.plusSeconds(600)), T0.plus(Duration.ofHours(2)));
        interruptions.record(new Interruption(g, "i-2", "c4.large", T0.plusSeconds(600)), T0.plus(Duration.ofHours(2)));
        interruptions.record(new Interruption(g + "-other", "i-3", "m4.large", T0), T0.plus(Duration.ofHours(2)));

        assertThat(interruptions.since(g, T0)).extracting(Interruption::instanceId).containsExactly("i-1", "i-2");
        assertThat(interruptions.since(g, T0.plusSeconds(1))).extracting(Interruption::instanceId).containsExactly("i-2");
        assertThat(interruptions.since(g, T0).get(1).at()).isEqualTo(T0.plusSeconds(600));
    }
}

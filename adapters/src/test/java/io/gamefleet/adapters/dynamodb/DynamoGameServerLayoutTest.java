package io.gamefleet.adapters.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerRepository.ClaimCandidates;
import io.gamefleet.domain.GameServerRepository.ClaimCondition;
import io.gamefleet.domain.GameServerRepository.HealthLease;
import io.gamefleet.domain.GameServerRepository.ReportedProcess;
import io.gamefleet.domain.GameServerRepository.ServerUpdate;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.ProcessReport;
import io.gamefleet.domain.ProcessState;
import io.gamefleet.domain.UtilizationStatus;
import io.gamefleet.testing.Dynoxide;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What only DynamoDB shows of the game servers, beside the behaviour the contract suites check
 * on both stores: the claim index's attributes on the raw items, and what a candidate read from
 * that index carries (its keys only).
 */
class DynamoGameServerLayoutTest {
    /** The group's maximum size, which its servers are registered for: large, so that they spread over every shard. */
    private static final int GROUP_MAX_SIZE = 1_000;
    /** How many servers one instance may hold: more than any of these tests registers on one. */
    private static final int ON_ONE_INSTANCE = 1_000;
    @RegisterExtension
    static final Dynoxide DYNAMO = new Dynoxide();

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final Duration TTL = Duration.ofSeconds(60);
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private static DynamoGameServerRepository servers;
    private static DynamoGroupRepository groups;

    private String group;

    @BeforeAll
    static void repositories() {
        servers = new DynamoGameServerRepository(DYNAMO.client(), DYNAMO.tableNames());
        groups = new DynamoGroupRepository(DYNAMO.client(), DYNAMO.enhanced(), DYNAMO.tableNames());
    }

    @BeforeEach
    void activeGroup() {
        group = "layout-" + SEQUENCE.incrementAndGet();
        GameServerGroup g = GameServerGroup.builder().name(group).creationTime(T0).lastUpdatedTime(T0)
                .maxSize(GROUP_MAX_SIZE).build();
        groups.create(g);
        groups.update(g.toBuilder().status(GameServerGroupStatus.ACTIVE).build());
    }

    /** An AVAILABLE server on an instance in the status, launched at T0 - 1 h + launchSeconds, healthy at T0. */
    private GameServer registered(String name, String instanceId, long launchSeconds, InstanceStatus instanceStatus) {
        GameServer s = GameServer.builder().gameServerGroupName(group).gameServerId(group + "-" + name)
                .instanceId(instanceId).connectionInfo("10.0.0.1:7777").registrationTime(T0).lastHealthCheckTime(T0)
                .instanceStatus(instanceStatus).instanceLaunchTime(T0.minusSeconds(3600).plusSeconds(launchSeconds))
                .build();
        servers.register(s, GROUP_MAX_SIZE, ON_ONE_INSTANCE);
        return s;
    }

    private Map<String, AttributeValue> rawItem(String gameServerId) {
        return DYNAMO.client().getItem(g -> g.tableName(DYNAMO.tableNames().of(Tables.GAME_SERVERS))
                .key(Map.of("GameServerId", AttributeValue.fromS(gameServerId))).consistentRead(true)).item();
    }

    /** What the claim index projects: the keys, and the server fields its sort key spells out. */
    private static GameServer indexed(GameServer s) {
        return GameServer.builder().gameServerGroupName(s.gameServerGroupName()).gameServerId(s.gameServerId())
                .utilizationStatus(UtilizationStatus.AVAILABLE).instanceStatus(s.instanceStatus())
                .claimExpiresAt(s.claimExpiresAt()).instanceLaunchTime(s.instanceLaunchTime()).build();
    }

    @Test
    void aCandidateCarriesWhatTheIndexHoldsOnly() {
        GameServer young = registered("young", "i-young", 300, InstanceStatus.ACTIVE);
        GameServer oldest = registered("oldest", "i-oldest", 0, InstanceStatus.ACTIVE);
        GameServer middle = registered("middle", "i-middle", 100, InstanceStatus.ACTIVE);
        GameServer oldestToo = registered("oldest2", "i-oldest", 0, InstanceStatus.ACTIVE);

        ClaimCandidates candidates = servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, Instant.EPOCH, 25);

        assertThat(candidates.groupStatus()).contains(GameServerGroupStatus.ACTIVE);
        assertThat(candidates.servers()).containsExactly(indexed(oldest), indexed(oldestToo), indexed(middle), indexed(young));
    }

    /**
     * An instance's count is a number on its own item, no index key on it, and each server it
     * counts is marked; the item goes when the instance is forgotten with no server counted on it.
     */
    @Test
    void anInstancesCountIsOneItemGoneOnceForgotten() {
        String instance = group + "-i1";
        GameServer a = registered("a", instance, 0, InstanceStatus.ACTIVE);
        GameServer b = registered("b", instance, 0, InstanceStatus.ACTIVE);
        Map<String, AttributeValue> count = rawItem(InstanceCounts.ID_PREFIX + instance);
        assertThat(count).containsOnlyKeys("GameServerId", InstanceCounts.COUNT);
        assertThat(count.get(InstanceCounts.COUNT).n()).isEqualTo("2");
        assertThat(rawItem(a.gameServerId()).get(InstanceCounts.COUNTED).bool()).isTrue();

        servers.forgetInstance(instance);
        assertThat(rawItem(InstanceCounts.ID_PREFIX + instance)).as("it still counts two").isNotEmpty();
        servers.delete(a.gameServerId());
        servers.delete(b.gameServerId());
        assertThat(rawItem(InstanceCounts.ID_PREFIX + instance).get(InstanceCounts.COUNT).n()).isEqualTo("0");
        servers.forgetInstance(instance);
        assertThat(rawItem(InstanceCounts.ID_PREFIX + instance)).isEmpty();
    }

    /** A server registered before instances were counted holds no count: its deletion takes none back. */
    @Test
    void aServerRegisteredBeforeInstancesWereCountedGivesNothingBack() {
        String instance = group + "-i2";
        GameServer counted = registered("counted", instance, 0, InstanceStatus.ACTIVE);
        Map<String, AttributeValue> before = new java.util.HashMap<>(rawItem(counted.gameServerId()));
        before.remove(InstanceCounts.COUNTED);
        before.put("GameServerId", AttributeValue.fromS(group + "-older"));
        DYNAMO.client().putItem(p -> p.tableName(DYNAMO.tableNames().of(Tables.GAME_SERVERS)).item(before));

        assertThat(servers.deregister(group, group + "-older", Optional.of(instance))).isPresent();
        assertThat(rawItem(InstanceCounts.ID_PREFIX + instance).get(InstanceCounts.COUNT).n()).isEqualTo("1");
        assertThat(servers.deregister(group, counted.gameServerId(), Optional.empty())).isPresent();
        assertThat(rawItem(InstanceCounts.ID_PREFIX + instance).get(InstanceCounts.COUNT).n()).isEqualTo("0");
    }

    @Test
    void aServerOnASpotTerminatingInstanceHasNoClaimIndexAttributes() {
        GameServer spot = registered("spot", "i-4", 0, InstanceStatus.SPOT_TERMINATING);
        assertThat(servers.find(spot.gameServerId())).contains(spot);
        assertThat(rawItem(spot.gameServerId())).doesNotContainKeys("ClaimPartition", "ClaimSortKey");
        GameServer draining = registered("draining", "i-5", 0, InstanceStatus.DRAINING);
        assertThat(rawItem(draining.gameServerId())).containsKeys("ClaimPartition", "ClaimSortKey");
    }

    @Test
    void utilizedTakesTheItemOutOfTheClaimIndexAndDropsTheClaim() {
        GameServer s = registered("a", "i-1", 0, InstanceStatus.ACTIVE);
        assertThat(servers.tryClaim(s, new ClaimCondition(T0, T0, EnumSet.of(InstanceStatus.ACTIVE)), T0.plus(TTL),
                Optional.empty())).isPresent();
        assertThat(rawItem(s.gameServerId())).containsKeys("ClaimPartition", "ClaimSortKey", "ClaimExpiresAt");

        servers.update(group, s.gameServerId(), Optional.empty(),
                new ServerUpdate(Optional.empty(), Optional.of(UtilizationStatus.UTILIZED), Optional.empty()));

        assertThat(rawItem(s.gameServerId())).doesNotContainKeys("ClaimPartition", "ClaimSortKey", "ClaimExpiresAt");
    }

    /**
     * A reported process: its own item, in no index (so no listing or instance's servers show it),
     * expiring (TTL, epoch seconds) when the report says; the server's item holds its summary alone.
     */
    @Test
    void aReportedProcessIsAnItemOfItsOwnInNoIndexExpiringWhenTheReportSays() {
        GameServer s = registered("reported", group + "-i", 0, InstanceStatus.ACTIVE);
        Instant keepUntil = T0.plus(Duration.ofDays(11));
        servers.setHealthLease(group, s.gameServerId(), s.instanceId(), new HealthLease(T0.plusSeconds(600),
                Optional.of(T0), "conn-1", Optional.of(new ReportedProcess(new ProcessReport(ProcessState.Active, 2,
                        java.util.List.of("p1", "p2"), 1, 0, 139), T0, T0, keepUntil)))).orElseThrow();
        Map<String, AttributeValue> process = rawItem(ProcessItems.ID_PREFIX + s.gameServerId());
        assertThat(process.get("ExpiresAt").n()).isEqualTo(Long.toString(keepUntil.getEpochSecond()));
        assertThat(process).doesNotContainKeys("InstanceId", "RegistrationPartition", "ClaimPartition");
        assertThat(process.get("PlayerIds").l()).extracting(AttributeValue::s).containsExactly("p1", "p2");
        assertThat(rawItem(s.gameServerId())).containsKeys(ProcessItems.STATE, ProcessItems.CONNECTED_PLAYERS,
                ProcessItems.DIGEST).doesNotContainKeys("PlayerIds", "ExpiresAt");
        assertThat(servers.onInstance(s.instanceId())).extracting(GameServer::gameServerId).containsExactly(s.gameServerId());
        assertThat(servers.listAll(group)).extracting(GameServer::gameServerId).containsExactly(s.gameServerId());
    }
}

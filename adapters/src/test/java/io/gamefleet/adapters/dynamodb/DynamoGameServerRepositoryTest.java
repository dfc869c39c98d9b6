package io.gamefleet.adapters.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.ErrorKind;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerRepository.ClaimCandidates;
import io.gamefleet.domain.GameServerRepository.ClaimCondition;
import io.gamefleet.domain.GameServerRepository.ServerUpdate;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.Page;
import io.gamefleet.domain.SortOrder;
import io.gamefleet.domain.UtilizationStatus;
import io.gamefleet.testing.Dynoxide;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class DynamoGameServerRepositoryTest {
    @RegisterExtension
    static final Dynoxide DYNAMO = new Dynoxide();

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final Duration TTL = Duration.ofSeconds(60);
    private static final Set<InstanceStatus> BOTH = EnumSet.of(InstanceStatus.ACTIVE, InstanceStatus.DRAINING);
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private static DynamoGameServerRepository servers;
    private static DynamoGroupRepository groups;

    /** A group name and id prefix of this test alone: the tables are shared by the class. */
    private String group;
    private GameServerGroup activeGroup;
    private static final java.util.Set<String> ACTIVE_OTHER_GROUPS = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @BeforeAll
    static void repositories() {
        servers = new DynamoGameServerRepository(DYNAMO.client(), DYNAMO.tableNames());
        groups = new DynamoGroupRepository(DYNAMO.client(), DYNAMO.enhanced(), DYNAMO.tableNames());
    }

    @BeforeEach
    void uniqueGroup() {
        group = "group-" + SEQUENCE.incrementAndGet();
        activeGroup = null;
    }

    // ---- helpers -------------------------------------------------------------------------

    private String id(String name) {
        return group + "-" + name;
    }

    /** An AVAILABLE server on an ACTIVE instance launched at T0 + launchSeconds, healthy at T0. */
    private GameServer server(String name, String instanceId, long launchSeconds) {
        return GameServer.builder()
                .gameServerGroupName(group)
                .gameServerId(id(name))
                .instanceId(instanceId)
                .connectionInfo("10.0.0.1:7777")
                .registrationTime(T0)
                .lastHealthCheckTime(T0)
                .instanceStatus(InstanceStatus.ACTIVE)
                .instanceLaunchTime(T0.minusSeconds(3600).plusSeconds(launchSeconds))
                .build();
    }

    /** Registration needs the group's gate to say ACTIVE: the group is created on first use. */
    private GameServer registered(GameServer s) {
        if (s.gameServerGroupName().equals(group)) {
            createActiveGroup();
        } else if (ACTIVE_OTHER_GROUPS.add(s.gameServerGroupName())) {
            activate(s.gameServerGroupName());
        }
        servers.register(s);
        return s;
    }

    private void createActiveGroup() {
        if (activeGroup == null) {
            activeGroup = activate(group);
        }
    }

    private static GameServerGroup activate(String name) {
        GameServerGroup g = GameServerGroup.builder().name(name).creationTime(T0).lastUpdatedTime(T0).build();
        groups.create(g);
        return groups.update(g.toBuilder().status(GameServerGroupStatus.ACTIVE).build());
    }

    private List<String> candidateIds(InstanceStatus status, Instant now) {
        return servers.claimCandidates(group, status, now, Instant.EPOCH, 25).servers().stream().map(GameServer::gameServerId).toList();
    }

    private static ClaimCondition condition(Instant now) {
        return new ClaimCondition(now, now.minus(Duration.ofSeconds(60)), BOTH);
    }

    private static Optional<GameServer> claim(GameServer candidate, Instant now) {
        return servers.tryClaim(candidate, condition(now), now.plus(TTL), Optional.empty());
    }

    private GameServer stored(GameServer s) {
        return servers.find(s.gameServerId()).orElseThrow();
    }

    private Map<String, AttributeValue> rawItem(String gameServerId) {
        return DYNAMO.client().getItem(g -> g.tableName(DYNAMO.tableNames().of(Tables.GAME_SERVERS))
                .key(Map.of("GameServerId", AttributeValue.fromS(gameServerId))).consistentRead(true)).item();
    }

    private static ServerUpdate utilization(UtilizationStatus status) {
        return new ServerUpdate(Optional.empty(), Optional.of(status), Optional.empty());
    }

    private List<String> listAll(SortOrder order, int limit) {
        List<String> ids = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        int pages = 0;
        do {
            Page<GameServer> page = servers.listByGroup(group, order, limit, cursor);
            assertThat(page.items().size()).isLessThanOrEqualTo(limit);
            page.items().forEach(s -> ids.add(s.gameServerId()));
            cursor = page.cursor();
            assertThat(++pages).as("paging terminates").isLessThan(50);
        } while (cursor.isPresent());
        return ids;
    }

    // ---- register, find, list ------------------------------------------------------------

    @Test
    void registrationNeedsAnActiveGroup() {
        GamefleetException noGroup = catchThrowableOfType(GamefleetException.class,
                () -> servers.register(server("a", "i-1", 0)));
        assertThat(noGroup).isNotNull();
        assertThat(noGroup.errorType()).isEqualTo("ConflictException");
        assertThat(servers.find(id("a"))).isEmpty();

        createActiveGroup();
        groups.update(activeGroup.toBuilder().status(GameServerGroupStatus.DELETE_SCHEDULED).build());
        assertThat(catchThrowableOfType(GamefleetException.class, () -> servers.register(server("a", "i-1", 0))))
                .isNotNull();
        assertThat(servers.find(id("a"))).isEmpty();
    }

    @Test
    void registerThenFindReturnsTheSameServer() {
        GameServer s = registered(server("a", "i-1", 0).toBuilder().gameServerData("hello").build());
        assertThat(servers.find(s.gameServerId())).contains(s);
        assertThat(servers.find(id("missing"))).isEmpty();
    }

    @Test
    void anIdIsRegisteredOnceAcrossAllGroups() {
        GameServer first = registered(server("a", "i-1", 0));

        GamefleetException sameGroup = catchThrowableOfType(GamefleetException.class,
                () -> servers.register(first.toBuilder().connectionInfo("other").build()));
        GamefleetException otherGroup = catchThrowableOfType(GamefleetException.class,
                () -> servers.register(first.toBuilder().gameServerGroupName(group + "-other").build()));

        assertThat(sameGroup).isNotNull();
        assertThat(sameGroup.errorType()).isEqualTo("ConflictException");
        assertThat(otherGroup).isNotNull();
        assertThat(otherGroup.errorType()).isEqualTo("ConflictException");
        assertThat(otherGroup.kind()).isEqualTo(ErrorKind.CONFLICT);
        // The id is taken: that is the reason given, also where the other group is not ACTIVE either.
        assertThat(sameGroup).hasMessageContaining("with id " + first.gameServerId() + " is already registered");
        assertThat(otherGroup).hasMessageContaining("is already registered");
        assertThat(servers.find(first.gameServerId())).contains(first);
    }

    @Test
    void aNewIdInAGroupThatIsNotActiveIsRefusedForTheGroup() {
        GameServerGroup g = GameServerGroup.builder().name(group).creationTime(T0).lastUpdatedTime(T0).build();
        groups.create(g); // NEW: its gate says so
        GamefleetException e = catchThrowableOfType(GamefleetException.class, () -> servers.register(server("a", "i-1", 0)));
        assertThat(e).isNotNull();
        assertThat(e.kind()).isEqualTo(ErrorKind.CONFLICT);
        assertThat(e).hasMessage("game server group " + group + " stopped being ACTIVE during the registration");
        assertThat(servers.find(id("a"))).isEmpty();
    }

    @Test
    void listByGroupPagesThroughAllServersInRegistrationOrder() {
        createActiveGroup(); // its gate entry must not show up in the listing
        List<String> ascending = new ArrayList<>();
        int[] registrationOrder = {4, 0, 6, 2, 1, 5, 3};
        for (int n : registrationOrder) {
            registered(server("s" + n, "i-1", 0).toBuilder().registrationTime(T0.plusSeconds(n)).build());
        }
        for (int n = 0; n < 7; n++) {
            ascending.add(id("s" + n));
        }
        registered(server("x", "i-9", 0).toBuilder().gameServerGroupName(group + "-other").build());
        List<String> descending = new ArrayList<>(ascending);
        java.util.Collections.reverse(descending);

        assertThat(listAll(SortOrder.ASCENDING, 3)).containsExactlyElementsOf(ascending);
        assertThat(listAll(SortOrder.DESCENDING, 3)).containsExactlyElementsOf(descending);
        assertThat(listAll(SortOrder.ASCENDING, 1)).containsExactlyElementsOf(ascending);
        assertThat(listAll(SortOrder.DESCENDING, 100)).containsExactlyElementsOf(descending);

        Page<GameServer> first = servers.listByGroup(group, SortOrder.ASCENDING, 3, Optional.empty());
        assertThat(first.items()).hasSize(3);
        assertThat(first.cursor()).isPresent();
        assertThat(servers.listByGroup(group, SortOrder.ASCENDING, 3, first.cursor()).items())
                .extracting(GameServer::gameServerId).containsExactly(id("s3"), id("s4"), id("s5"));
    }

    @Test
    void listByGroupOfAnEmptyGroupIsEmpty() {
        Page<GameServer> page = servers.listByGroup(group, SortOrder.ASCENDING, 10, Optional.empty());
        assertThat(page.items()).isEmpty();
        assertThat(page.cursor()).isEmpty();
    }

    // ---- claim candidates ----------------------------------------------------------------

    @Test
    void theGateCarriesTheGroupStatus() {
        assertThat(servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, Instant.EPOCH, 10).groupStatus()).isEmpty();

        GameServerGroup g = GameServerGroup.builder().name(group).creationTime(T0).lastUpdatedTime(T0).build();
        groups.create(g);
        assertThat(servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, Instant.EPOCH, 10).groupStatus())
                .contains(GameServerGroupStatus.NEW);

        groups.update(g.toBuilder().status(GameServerGroupStatus.ACTIVE).build());
        ClaimCandidates candidates = servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, Instant.EPOCH, 10);
        assertThat(candidates.groupStatus()).contains(GameServerGroupStatus.ACTIVE);
        assertThat(candidates.servers()).isEmpty();
    }

    @Test
    void candidatesComeOldestInstanceFirstAndShowWhatTheIndexHolds() {
        createActiveGroup();
        GameServer young = registered(server("young", "i-young", 300));
        GameServer oldest = registered(server("oldest", "i-oldest", 0));
        GameServer middle = registered(server("middle", "i-middle", 100));
        GameServer oldestToo = registered(server("oldest2", "i-oldest", 0));

        ClaimCandidates candidates = servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, Instant.EPOCH, 25);

        assertThat(candidates.groupStatus()).contains(GameServerGroupStatus.ACTIVE);
        // The index holds keys only: a candidate shows the group, id, instance status and launch, and claim.
        assertThat(candidates.servers()).containsExactly(indexed(oldest), indexed(oldestToo), indexed(middle), indexed(young));
    }

    @Test
    void theLimitCountsServersNotTheGate() {
        createActiveGroup();
        for (int n = 0; n < 5; n++) {
            registered(server("s" + n, "i-" + n, n));
        }
        ClaimCandidates candidates = servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, Instant.EPOCH, 2);
        assertThat(candidates.groupStatus()).contains(GameServerGroupStatus.ACTIVE);
        assertThat(candidates.servers()).extracting(GameServer::gameServerId).containsExactly(id("s0"), id("s1"));
    }

    @Test
    void liveClaimsAreExcludedAndLapsedOnesIncluded() {
        createActiveGroup();
        GameServer a = registered(server("a", "i-1", 0));
        GameServer b = registered(server("b", "i-2", 10));
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0)).containsExactly(a.gameServerId(), b.gameServerId());

        assertThat(claim(a, T0)).isPresent();
        Instant expiry = T0.plus(TTL);

        assertThat(candidateIds(InstanceStatus.ACTIVE, T0)).containsExactly(b.gameServerId());
        assertThat(candidateIds(InstanceStatus.ACTIVE, expiry.minusMillis(1))).containsExactly(b.gameServerId());
        // A claim expiring exactly now is not live (GameServer.isClaimedAt): the index agrees.
        // (In any order: see lapsedClaimsKeepTheirPlaceInThePackingOrder for the order.)
        assertThat(candidateIds(InstanceStatus.ACTIVE, expiry)).containsExactlyInAnyOrder(a.gameServerId(), b.gameServerId());
        assertThat(candidateIds(InstanceStatus.ACTIVE, expiry.plusSeconds(3600)))
                .containsExactlyInAnyOrder(a.gameServerId(), b.gameServerId());
        assertThat(stored(a).isClaimedAt(expiry)).isFalse();
    }

    /**
     * The ClaimSortKey is {@code <bucket>#<claim expiry>#<launch>#<id>}: never-claimed servers
     * come first, oldest instance first; a server whose claim lapsed comes after them, whatever its
     * instance's age (its matchmaker gave up on it, so fresh servers are the better bet).
     */
    @Test
    void neverClaimedServersComeBeforeLapsedClaims() {
        createActiveGroup();
        GameServer old = registered(server("old", "i-old", 0));
        GameServer young = registered(server("young", "i-young", 100));
        assertThat(claim(old, T0)).isPresent();

        assertThat(candidateIds(InstanceStatus.ACTIVE, T0.plus(TTL)))
                .containsExactly(young.gameServerId(), old.gameServerId());
    }

    /** With the ACTIVE bucket, the query reads limit + 1 items to make room for the gate, even when there is none. */
    @Test
    void withoutAGateTheLimitStillHolds() {
        for (int n = 0; n < 3; n++) {
            registered(server("s" + n, "i-" + n, n));
        }
        groups.update(activeGroup.toBuilder().status(GameServerGroupStatus.DELETED).build()); // removes the gate
        ClaimCandidates candidates = servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, Instant.EPOCH, 2);
        assertThat(candidates.groupStatus()).isEmpty();
        assertThat(candidates.servers()).extracting(GameServer::gameServerId).startsWith(id("s0"), id("s1"));
        assertThat(candidates.servers()).hasSizeLessThanOrEqualTo(2);
    }

    @Test
    void utilizedServersAreNoCandidates() {
        createActiveGroup();
        GameServer a = registered(server("a", "i-1", 0));
        GameServer b = registered(server("b", "i-2", 10));

        assertThat(servers.update(group, b.gameServerId(), Optional.empty(), utilization(UtilizationStatus.UTILIZED)))
                .isPresent();

        assertThat(candidateIds(InstanceStatus.ACTIVE, T0)).containsExactly(a.gameServerId());
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0.plus(Duration.ofDays(1)))).containsExactly(a.gameServerId());
    }

    @Test
    void drainingServersHaveTheirOwnBucketAndSpotTerminatingOnesNone() {
        createActiveGroup();
        GameServer active = registered(server("active", "i-1", 50));
        GameServer draining = registered(server("draining", "i-2", 0).toBuilder()
                .instanceStatus(InstanceStatus.DRAINING).build());
        GameServer drainingYounger = registered(server("draining2", "i-3", 20).toBuilder()
                .instanceStatus(InstanceStatus.DRAINING).build());
        GameServer spot = registered(server("spot", "i-4", 0).toBuilder()
                .instanceStatus(InstanceStatus.SPOT_TERMINATING).build());

        assertThat(candidateIds(InstanceStatus.ACTIVE, T0)).containsExactly(active.gameServerId());
        assertThat(candidateIds(InstanceStatus.DRAINING, T0))
                .containsExactly(draining.gameServerId(), drainingYounger.gameServerId());
        assertThat(servers.find(spot.gameServerId())).contains(spot);
        assertThat(rawItem(spot.gameServerId())).doesNotContainKeys("ClaimPartition", "ClaimSortKey");

        // Claims in the DRAINING bucket lapse the same way.
        assertThat(claim(draining, T0)).isPresent();
        assertThat(candidateIds(InstanceStatus.DRAINING, T0)).containsExactly(drainingYounger.gameServerId());
        assertThat(candidateIds(InstanceStatus.DRAINING, T0.plus(TTL)))
                .containsExactlyInAnyOrder(draining.gameServerId(), drainingYounger.gameServerId());
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0.plus(TTL))).containsExactly(active.gameServerId());
    }

    @Test
    void candidatesOfOtherGroupsAreNotSeen() {
        createActiveGroup();
        registered(server("mine", "i-1", 0));
        registered(server("theirs", "i-2", 0).toBuilder().gameServerGroupName(group + "-x").build());
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0)).containsExactly(id("mine"));
    }

    // ---- tryClaim ------------------------------------------------------------------------

    @Test
    void aCandidateIsClaimedOnceUntilTheClaimExpires() {
        GameServer s = registered(server("a", "i-1", 0).toBuilder().gameServerData("initial").build());
        Instant expiry = T0.plus(TTL);

        Optional<GameServer> first = claim(s, T0);
        assertThat(first).isPresent();
        assertThat(first.get().claimExpiresAt()).isEqualTo(expiry);
        assertThat(first.get().lastClaimTime()).isEqualTo(T0);
        assertThat(first.get().gameServerData()).as("kept when the claim gives none").isEqualTo("initial");
        assertThat(stored(s)).isEqualTo(first.get());

        assertThat(claim(s, T0)).as("the same candidate again, same now").isEmpty();
        assertThat(claim(s, expiry.minusMillis(1))).as("just before the claim expires").isEmpty();
        assertThat(stored(s).claimExpiresAt()).isEqualTo(expiry);

        Optional<GameServer> again = claim(s, expiry);
        assertThat(again).as("once the claim expired").isPresent();
        assertThat(again.get().claimExpiresAt()).isEqualTo(expiry.plus(TTL));
        assertThat(again.get().lastClaimTime()).isEqualTo(expiry);
    }

    @Test
    void tryClaimSetsGameServerDataWhenGiven() {
        GameServer s = registered(server("a", "i-1", 0).toBuilder().gameServerData("initial").build());
        Optional<GameServer> claimed = servers.tryClaim(s, condition(T0), T0.plus(TTL), Optional.of("match-42"));
        assertThat(claimed).map(GameServer::gameServerData).contains("match-42");
        assertThat(stored(s).gameServerData()).isEqualTo("match-42");
    }

    @Test
    void anUnhealthyServerIsNotClaimed() {
        GameServer s = registered(server("a", "i-1", 0)); // last health check at T0
        Instant later = T0.plusSeconds(120);

        ClaimCondition cutoffJustAfterCheck = new ClaimCondition(later, T0.plusMillis(1), BOTH);
        assertThat(servers.tryClaim(s, cutoffJustAfterCheck, later.plus(TTL), Optional.empty())).isEmpty();
        assertThat(stored(s).claimExpiresAt()).isNull();

        ClaimCondition cutoffAtCheck = new ClaimCondition(later, T0, BOTH);
        assertThat(servers.tryClaim(s, cutoffAtCheck, later.plus(TTL), Optional.empty())).isPresent();
    }

    @Test
    void aStaleCandidateWhoseInstanceStatusChangedIsNotClaimed() {
        GameServer s = registered(server("a", "i-1", 0)); // stored on an ACTIVE instance
        GameServer staleAsDraining = s.toBuilder().instanceStatus(InstanceStatus.DRAINING).build();

        assertThat(claim(staleAsDraining, T0)).isEmpty();
        assertThat(stored(s)).isEqualTo(s);
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0)).containsExactly(s.gameServerId());
    }

    @Test
    void aCandidateOnAnInstanceStatusTheConditionExcludesIsNotClaimed() {
        GameServer s = registered(server("a", "i-1", 0).toBuilder().instanceStatus(InstanceStatus.DRAINING).build());
        ClaimCondition activeOnly = new ClaimCondition(T0, T0, EnumSet.of(InstanceStatus.ACTIVE));

        assertThat(servers.tryClaim(s, activeOnly, T0.plus(TTL), Optional.empty())).isEmpty();
        assertThat(stored(s)).isEqualTo(s);
    }

    @Test
    void aCandidateOfAnotherGroupOrAUtilizedOneIsNotClaimed() {
        GameServer s = registered(server("a", "i-1", 0));
        assertThat(claim(s.toBuilder().gameServerGroupName(group + "-other").build(), T0)).isEmpty();

        servers.update(group, s.gameServerId(), Optional.empty(), utilization(UtilizationStatus.UTILIZED));
        assertThat(claim(s, T0)).as("the candidate still says AVAILABLE; the store says UTILIZED").isEmpty();
        assertThat(stored(s).utilizationStatus()).isEqualTo(UtilizationStatus.UTILIZED);
        assertThat(stored(s).claimExpiresAt()).isNull();
    }

    @Test
    void aDeregisteredCandidateIsNotClaimedNorRecreated() {
        GameServer s = registered(server("a", "i-1", 0));
        assertThat(servers.deregister(group, s.gameServerId(), Optional.empty())).isPresent();
        assertThat(claim(s, T0)).isEmpty();
        assertThat(servers.find(s.gameServerId())).isEmpty();
    }

    // ---- update --------------------------------------------------------------------------

    @Test
    void utilizedClearsTheClaim() {
        GameServer s = registered(server("a", "i-1", 0));
        assertThat(claim(s, T0)).isPresent();

        Optional<GameServer> updated = servers.update(group, s.gameServerId(), Optional.empty(),
                utilization(UtilizationStatus.UTILIZED));

        assertThat(updated).isPresent();
        assertThat(updated.get().utilizationStatus()).isEqualTo(UtilizationStatus.UTILIZED);
        assertThat(updated.get().claimExpiresAt()).isNull();
        assertThat(stored(s)).isEqualTo(updated.get());
        assertThat(rawItem(s.gameServerId())).doesNotContainKeys("ClaimPartition", "ClaimSortKey", "ClaimExpiresAt");
    }

    @Test
    void aUtilizedServerDoesNotReturnToAvailable() {
        GameServer s = registered(server("a", "i-1", 0).toBuilder().gameServerData("before").build());
        GameServer utilized = servers.update(group, s.gameServerId(), Optional.empty(),
                utilization(UtilizationStatus.UTILIZED)).orElseThrow();

        ServerUpdate backToAvailable = new ServerUpdate(Optional.of("after"), Optional.of(UtilizationStatus.AVAILABLE),
                Optional.of(T0.plusSeconds(5)));
        assertThat(servers.update(group, s.gameServerId(), Optional.empty(), backToAvailable)).isEmpty();
        assertThat(stored(s)).as("left unchanged, data and health included").isEqualTo(utilized);
    }

    @Test
    void availableOnAnAvailableServerIsAllowed() {
        GameServer s = registered(server("a", "i-1", 0));
        assertThat(servers.update(group, s.gameServerId(), Optional.empty(), utilization(UtilizationStatus.AVAILABLE)))
                .map(GameServer::utilizationStatus).contains(UtilizationStatus.AVAILABLE);
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0)).containsExactly(s.gameServerId());
    }

    @Test
    void updateRequiresTheGroupAndTheInstanceWhenGiven() {
        GameServer s = registered(server("a", "i-1", 0));
        ServerUpdate data = new ServerUpdate(Optional.of("new"), Optional.empty(), Optional.empty());

        assertThat(servers.update(group, s.gameServerId(), Optional.of("i-2"), data)).isEmpty();
        assertThat(servers.update(group + "-other", s.gameServerId(), Optional.empty(), data)).isEmpty();
        assertThat(stored(s)).isEqualTo(s);

        assertThat(servers.update(group, s.gameServerId(), Optional.of("i-1"), data))
                .map(GameServer::gameServerData).contains("new");
        assertThat(stored(s).gameServerData()).isEqualTo("new");
    }

    @Test
    void healthTimeIsSetAndTheRestKept() {
        GameServer s = registered(server("a", "i-1", 0).toBuilder().gameServerData("d").build());
        GameServer claimed = claim(s, T0).orElseThrow();
        Instant checked = T0.plusSeconds(30);

        Optional<GameServer> updated = servers.update(group, s.gameServerId(), Optional.empty(),
                new ServerUpdate(Optional.empty(), Optional.empty(), Optional.of(checked)));

        assertThat(updated).contains(claimed.toBuilder().lastHealthCheckTime(checked).build());
        assertThat(stored(s).lastHealthCheckTime()).isEqualTo(checked);
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0.plus(TTL))).as("still in the claim index")
                .containsExactly(s.gameServerId());
    }

    @Test
    void anEmptyUpdateChangesNothing() {
        GameServer s = registered(server("a", "i-1", 0));
        ServerUpdate nothing = new ServerUpdate(Optional.empty(), Optional.empty(), Optional.empty());
        assertThat(servers.update(group, s.gameServerId(), Optional.empty(), nothing)).contains(s);
        assertThat(stored(s)).isEqualTo(s);
    }

    @Test
    void updatingAnUnknownServerFailsAndCreatesNothing() {
        ServerUpdate health = new ServerUpdate(Optional.empty(), Optional.empty(), Optional.of(T0));
        assertThat(servers.update(group, id("ghost"), Optional.empty(), health)).isEmpty();
        assertThat(servers.find(id("ghost"))).isEmpty();
    }

    // ---- deregister, count, delete -------------------------------------------------------

    @Test
    void deregisterRequiresTheGroupAndTheInstanceWhenGiven() {
        GameServer s = registered(server("a", "i-1", 0));

        assertThat(servers.deregister(group + "-other", s.gameServerId(), Optional.empty())).isEmpty();
        assertThat(servers.deregister(group, s.gameServerId(), Optional.of("i-2"))).isEmpty();
        assertThat(servers.find(s.gameServerId())).contains(s);

        assertThat(servers.deregister(group, s.gameServerId(), Optional.of("i-1"))).isPresent();
        assertThat(servers.find(s.gameServerId())).isEmpty();
        assertThat(servers.deregister(group, s.gameServerId(), Optional.empty())).as("already gone").isEmpty();

        GameServer t = registered(server("b", "i-1", 0));
        assertThat(servers.deregister(group, t.gameServerId(), Optional.empty())).isPresent();
        assertThat(servers.find(t.gameServerId())).isEmpty();
    }

    @Test
    void countUtilizedCountsOnlyThisGroupsUtilizedServers() {
        assertThat(servers.countUtilized(group)).isZero();
        for (int n = 0; n < 5; n++) {
            GameServer s = registered(server("s" + n, "i-1", 0).toBuilder().registrationTime(T0.plusSeconds(n)).build());
            if (n % 2 == 0) {
                servers.update(group, s.gameServerId(), Optional.empty(), utilization(UtilizationStatus.UTILIZED));
            }
        }
        GameServer elsewhere = registered(server("x", "i-9", 0).toBuilder().gameServerGroupName(group + "-o").build());
        servers.update(group + "-o", elsewhere.gameServerId(), Optional.empty(), utilization(UtilizationStatus.UTILIZED));

        assertThat(servers.countUtilized(group)).isEqualTo(3);
        assertThat(servers.countUtilized(group + "-o")).isEqualTo(1);
    }

    @Test
    void deleteSomeDeletesInBatchesAndOnlyThisGroup() {
        createActiveGroup();
        for (int n = 0; n < 7; n++) {
            registered(server("s" + n, "i-1", 0).toBuilder().registrationTime(T0.plusSeconds(n)).build());
        }
        GameServer other = registered(server("x", "i-9", 0).toBuilder().gameServerGroupName(group + "-o").build());

        assertThat(servers.deleteSome(group, 3)).isEqualTo(3);
        assertThat(listAll(SortOrder.ASCENDING, 10)).containsExactly(id("s3"), id("s4"), id("s5"), id("s6"));
        assertThat(servers.deleteSome(group, 3)).isEqualTo(3);
        assertThat(servers.deleteSome(group, 3)).isEqualTo(1);
        assertThat(servers.deleteSome(group, 3)).isZero();

        assertThat(listAll(SortOrder.ASCENDING, 10)).isEmpty();
        assertThat(servers.find(other.gameServerId())).contains(other);
        assertThat(servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, Instant.EPOCH, 10).groupStatus())
                .as("the gate belongs to the group, not to its servers").contains(GameServerGroupStatus.ACTIVE);
    }

    private static GameServer indexed(GameServer s) {
        return GameServer.builder().gameServerGroupName(s.gameServerGroupName()).gameServerId(s.gameServerId())
                .utilizationStatus(UtilizationStatus.AVAILABLE).instanceStatus(s.instanceStatus())
                .claimExpiresAt(s.claimExpiresAt()).instanceLaunchTime(s.instanceLaunchTime()).build();
    }
}

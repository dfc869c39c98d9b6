package io.gamefleet.domain.contracts;

import static io.gamefleet.domain.contracts.ContractSupport.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gamefleet.domain.ErrorKind;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerRepository;
import io.gamefleet.domain.GameServerRepository.ClaimCandidates;
import io.gamefleet.domain.GameServerRepository.ClaimCondition;
import io.gamefleet.domain.GameServerRepository.ServerUpdate;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.GroupRepository;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.Page;
import io.gamefleet.domain.SortOrder;
import io.gamefleet.domain.UtilizationStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link GameServerRepository} does, seen through the port only. Each test uses groups
 * and ids of its own, so an implementation may keep one store for the whole class.
 */
public abstract class GameServerRepositoryContract {
    private static final Duration TTL = Duration.ofSeconds(60);
    /** The groups' maximum size, which their servers are registered for: large, so that they spread over every shard. */
    private static final int GROUP_MAX_SIZE = 1_000;
    /** How many servers one instance may hold: more than any of these tests registers on one. */
    private static final int ON_ONE_INSTANCE = 1_000;
    private static final Set<InstanceStatus> ACTIVE_OR_DRAINING = EnumSet.of(InstanceStatus.ACTIVE, InstanceStatus.DRAINING);

    /** The repository under test. */
    protected abstract GameServerRepository newRepository();

    /** A group repository whose writes keep the groups' gates that {@link #newRepository()} reads. */
    protected abstract GroupRepository newGroupRepository();

    private GameServerRepository servers;
    private GroupRepository groups;
    /** This test's group; its name starts the ids of its servers. */
    private String group;
    private final Map<String, GameServerGroup> created = new HashMap<>();

    @BeforeEach
    void repositories() {
        servers = newRepository();
        groups = newGroupRepository();
        group = ContractSupport.unique("servers");
    }

    // ---- helpers -------------------------------------------------------------------------

    private String id(String name) {
        return group + "-" + name;
    }

    private String other() {
        return group + "-other";
    }

    /** An instance id of this test alone. */
    private String instance(String name) {
        return group + "-" + name;
    }

    /** An AVAILABLE server of this test's group on an ACTIVE instance launched launchSeconds after T0 - 1 h, healthy at T0. */
    private GameServer server(String name, String instanceName, long launchSeconds) {
        return GameServer.builder()
                .gameServerGroupName(group)
                .gameServerId(id(name))
                .instanceId(instance(instanceName))
                .connectionInfo("10.0.0.1:7777")
                .registrationTime(T0)
                .lastHealthCheckTime(T0)
                .instanceStatus(InstanceStatus.ACTIVE)
                .instanceLaunchTime(T0.minusSeconds(3600).plusSeconds(launchSeconds))
                .build();
    }

    /** Puts the group in the status (creating it first), which its gate then carries. */
    private void groupIn(String name, GameServerGroupStatus status) {
        GameServerGroup g = created.get(name);
        if (g == null) {
            g = GameServerGroup.builder().name(name).creationTime(T0).lastUpdatedTime(T0)
                .maxSize(GROUP_MAX_SIZE).build();
            groups.create(g);
        }
        if (g.status() != status) {
            g = groups.update(g.toBuilder().status(status).build());
        }
        created.put(name, g);
    }

    /** Registers the server, its group made ACTIVE first. */
    private GameServer registered(GameServer s) {
        groupIn(s.gameServerGroupName(), GameServerGroupStatus.ACTIVE);
        servers.register(s, GROUP_MAX_SIZE, ON_ONE_INSTANCE);
        return s;
    }

    private List<GameServer> registeredOn(String instanceName, int count) {
        List<GameServer> all = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            all.add(registered(server(String.format("s%03d", n), instanceName, 0)));
        }
        return all;
    }

    private GameServer stored(GameServer s) {
        return servers.find(s.gameServerId()).orElseThrow();
    }

    private static List<String> ids(List<GameServer> servers) {
        return servers.stream().map(GameServer::gameServerId).toList();
    }

    private List<String> candidateIds(InstanceStatus bucket, Instant now) {
        return ids(servers.claimCandidates(group, bucket, now, Instant.EPOCH, 25).servers());
    }

    /** At {@code now}, with servers healthy since T0 and on ACTIVE or DRAINING instances. */
    private static ClaimCondition condition(Instant now) {
        return new ClaimCondition(now, T0, ACTIVE_OR_DRAINING);
    }

    private Optional<GameServer> claim(GameServer candidate, Instant now) {
        return servers.tryClaim(candidate, condition(now), now.plus(TTL), Optional.empty());
    }

    private Optional<GameServer> setUtilization(GameServer s, UtilizationStatus status) {
        return servers.update(s.gameServerGroupName(), s.gameServerId(), Optional.empty(),
                new ServerUpdate(Optional.empty(), Optional.of(status), Optional.empty()));
    }

    private List<String> listAll(SortOrder order, int limit) {
        List<String> listed = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        int pages = 0;
        do {
            Page<GameServer> page = servers.listByGroup(group, order, limit, cursor);
            assertThat(page.items()).hasSizeLessThanOrEqualTo(limit);
            listed.addAll(ids(page.items()));
            cursor = page.cursor();
            assertThat(++pages).as("paging ends").isLessThan(50);
        } while (cursor.isPresent());
        return listed;
    }

    private static void assertConflict(Runnable call) {
        GamefleetException e = catchThrowableOfType(GamefleetException.class, call::run);
        assertThat(e).as("a GamefleetException").isNotNull();
        assertThat(e.errorType()).isEqualTo("ConflictException");
    }

    // ---- register, find ------------------------------------------------------------------

    @Test
    void registerThenFind() {
        GameServer s = registered(server("a", "i-1", 0).toBuilder().gameServerData("hello").build());
        assertThat(servers.find(s.gameServerId())).contains(s);
        assertThat(servers.find(id("missing"))).isEmpty();
    }

    @Test
    void instantsAreKeptToTheMillisecond() {
        Instant precise = T0.plusNanos(1_234_567);
        GameServer s = registered(server("a", "i-1", 0).toBuilder().registrationTime(precise)
                .lastHealthCheckTime(precise).instanceLaunchTime(precise).build());
        Instant millis = T0.plusMillis(1);
        assertThat(stored(s)).isEqualTo(s.toBuilder().registrationTime(millis).lastHealthCheckTime(millis)
                .instanceLaunchTime(millis).build());

        GameServer claimed = servers.tryClaim(stored(s), condition(precise), precise.plus(TTL), Optional.empty()).orElseThrow();
        assertThat(claimed.lastClaimTime()).isEqualTo(millis);
        assertThat(claimed.claimExpiresAt()).isEqualTo(millis.plus(TTL));
        assertThat(stored(s)).isEqualTo(claimed);
    }

    /** A claim lands only on a server of an instance launched after the condition's retiring cutoff, by its write. */
    @Test
    void aClaimIsRefusedOnAnInstanceThatIsRetiring() {
        GameServer old = registered(server("old", "i-1", 0));
        GameServer young = registered(server("young", "i-2", 1));
        Instant cutoff = old.instanceLaunchTime();
        ClaimCondition retiring = new ClaimCondition(T0, T0.minusSeconds(60), ACTIVE_OR_DRAINING, Optional.of(cutoff));

        assertThat(servers.tryClaim(stored(old), retiring, T0.plus(TTL), Optional.empty())).isEmpty();
        assertThat(stored(old).claimExpiresAt()).isNull();
        assertThat(servers.tryClaim(stored(young), retiring, T0.plus(TTL), Optional.empty())).as("launched a second after")
                .isPresent();
        assertThat(servers.tryClaim(stored(old), condition(T0), T0.plus(TTL), Optional.empty())).as("with no cutoff")
                .isPresent();
    }

    @Test
    void registrationNeedsTheGroupToBeActive() {
        assertConflict(() -> servers.register(server("a", "i-1", 0), GROUP_MAX_SIZE, ON_ONE_INSTANCE));
        groupIn(group, GameServerGroupStatus.NEW);
        assertConflict(() -> servers.register(server("a", "i-1", 0), GROUP_MAX_SIZE, ON_ONE_INSTANCE));
        assertThat(catchThrowableOfType(GamefleetException.class, () -> servers.register(server("a", "i-1", 0), GROUP_MAX_SIZE, ON_ONE_INSTANCE)))
                .hasMessage("game server group " + group + " stopped being ACTIVE during the registration");
        groupIn(group, GameServerGroupStatus.ACTIVE);
        servers.register(server("a", "i-1", 0), GROUP_MAX_SIZE, ON_ONE_INSTANCE);
        groupIn(group, GameServerGroupStatus.DELETE_SCHEDULED);
        assertConflict(() -> servers.register(server("b", "i-1", 0), GROUP_MAX_SIZE, ON_ONE_INSTANCE));
        groupIn(group, GameServerGroupStatus.DELETED);
        assertConflict(() -> servers.register(server("c", "i-1", 0), GROUP_MAX_SIZE, ON_ONE_INSTANCE));

        assertThat(servers.find(id("a"))).isPresent();
        assertThat(servers.find(id("b"))).isEmpty();
        assertThat(servers.find(id("c"))).isEmpty();
    }

    @Test
    void anIdIsRegisteredOnceAcrossAllGroups() {
        GameServer first = registered(server("a", "i-1", 0));
        assertConflict(() -> servers.register(first.toBuilder().connectionInfo("other").build(), GROUP_MAX_SIZE, ON_ONE_INSTANCE));
        groupIn(other(), GameServerGroupStatus.ACTIVE);
        assertConflict(() -> servers.register(first.toBuilder().gameServerGroupName(other()).build(), GROUP_MAX_SIZE, ON_ONE_INSTANCE));
        // The id is taken: that is the reason given, also where the other group is not ACTIVE either.
        GamefleetException inGroupWithoutGate = catchThrowableOfType(GamefleetException.class,
                () -> servers.register(first.toBuilder().gameServerGroupName(group + "-none").build(), GROUP_MAX_SIZE, ON_ONE_INSTANCE));
        assertThat(inGroupWithoutGate.kind()).isEqualTo(ErrorKind.CONFLICT);
        assertThat(inGroupWithoutGate).hasMessage("a game server with id " + first.gameServerId()
                + " is already registered (ids are unique across all game server groups)");
        assertThat(servers.find(first.gameServerId())).contains(first);
        assertThat(servers.listAll(other())).isEmpty();
    }

    // ---- listByGroup, listAll, onInstance ------------------------------------------------

    @Test
    void listByGroupPagesInRegistrationOrderBothWays() {
        for (int n : new int[] {4, 0, 6, 2, 1, 5, 3}) {
            registered(server("s" + n, "i-1", 0).toBuilder().registrationTime(T0.plusSeconds(n)).build());
        }
        registered(server("x", "i-9", 0).toBuilder().gameServerGroupName(other()).build());
        List<String> ascending = List.of(id("s0"), id("s1"), id("s2"), id("s3"), id("s4"), id("s5"), id("s6"));
        List<String> descending = new ArrayList<>(ascending);
        java.util.Collections.reverse(descending);

        for (int limit : new int[] {1, 2, 3, 100}) {
            assertThat(listAll(SortOrder.ASCENDING, limit)).as("limit %d", limit).containsExactlyElementsOf(ascending);
            assertThat(listAll(SortOrder.DESCENDING, limit)).as("limit %d", limit).containsExactlyElementsOf(descending);
        }
        Page<GameServer> first = servers.listByGroup(group, SortOrder.DESCENDING, 3, Optional.empty());
        assertThat(ids(first.items())).containsExactly(id("s6"), id("s5"), id("s4"));
        Page<GameServer> second = servers.listByGroup(group, SortOrder.DESCENDING, 3, first.cursor());
        assertThat(ids(second.items())).containsExactly(id("s3"), id("s2"), id("s1"));
        Page<GameServer> third = servers.listByGroup(group, SortOrder.DESCENDING, 3, second.cursor());
        assertThat(ids(third.items())).containsExactly(id("s0"));
        assertThat(third.cursor()).isEmpty();
    }

    @Test
    void aFullPageCarriesACursorEvenWhenNothingFollows() {
        for (int n = 0; n < 3; n++) {
            registered(server("s" + n, "i-1", 0).toBuilder().registrationTime(T0.plusSeconds(n)).build());
        }
        Page<GameServer> full = servers.listByGroup(group, SortOrder.ASCENDING, 3, Optional.empty());
        assertThat(full.items()).hasSize(3);
        assertThat(full.cursor()).isPresent();
        Page<GameServer> after = servers.listByGroup(group, SortOrder.ASCENDING, 3, full.cursor());
        assertThat(after.items()).isEmpty();
        assertThat(after.cursor()).isEmpty();
    }

    @Test
    void anEmptyGroupListsNothing() {
        groupIn(group, GameServerGroupStatus.ACTIVE); // its gate is no server
        Page<GameServer> page = servers.listByGroup(group, SortOrder.ASCENDING, 10, Optional.empty());
        assertThat(page.items()).isEmpty();
        assertThat(page.cursor()).isEmpty();
        assertThat(servers.listAll(group)).isEmpty();
    }

    @Test
    void listAllReadsTheWholeGroupInRegistrationOrder() {
        List<GameServer> expected = new ArrayList<>();
        for (int n = 0; n < 30; n++) {
            expected.add(registered(server(String.format("s%02d", n), "i-" + n % 3, 0).toBuilder()
                    .registrationTime(T0.plusSeconds(30 - n)).build()));
        }
        registered(server("x", "i-0", 0).toBuilder().gameServerGroupName(other()).build());
        java.util.Collections.reverse(expected);
        assertThat(servers.listAll(group)).containsExactlyElementsOf(expected);
    }

    @Test
    void onInstanceFindsTheInstancesServersInIdOrder() {
        GameServer b = registered(server("b", "i-1", 0));
        GameServer a = registered(server("a", "i-1", 0));
        registered(server("c", "i-2", 0));
        assertThat(servers.onInstance(instance("i-1"))).containsExactly(a, b);
        assertThat(servers.onInstance(instance("i-404"))).isEmpty();
    }

    // ---- claimCandidates -----------------------------------------------------------------

    @Test
    void theGateCarriesTheGroupStatusOnTheActiveBucketOnly() {
        assertThat(servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, Instant.EPOCH, 10).groupStatus()).isEmpty();
        groupIn(group, GameServerGroupStatus.NEW);
        assertThat(servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, Instant.EPOCH, 10).groupStatus())
                .contains(GameServerGroupStatus.NEW);
        groupIn(group, GameServerGroupStatus.ACTIVE);
        ClaimCandidates active = servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, Instant.EPOCH, 10);
        assertThat(active.groupStatus()).contains(GameServerGroupStatus.ACTIVE);
        assertThat(active.servers()).isEmpty();
        assertThat(servers.claimCandidates(group, InstanceStatus.DRAINING, T0, Instant.EPOCH, 10).groupStatus()).isEmpty();
        groupIn(group, GameServerGroupStatus.DELETED);
        assertThat(servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, Instant.EPOCH, 10).groupStatus()).isEmpty();
    }

    /** The index key is {@code <bucket>#<claim expiry>#<instance launch>#<id>}, an unclaimed server's expiry 0. */
    @Test
    void candidatesComeNeverClaimedFirstOldestInstanceFirstThenLapsedClaims() {
        GameServer young = registered(server("young", "i-young", 300));
        GameServer b = registered(server("b", "i-old", 0));
        GameServer a = registered(server("a", "i-old", 0));
        GameServer middle = registered(server("middle", "i-middle", 100));
        GameServer lapsedFirst = registered(server("lapsed1", "i-oldest", -100));
        GameServer lapsedLater = registered(server("lapsed2", "i-older-still", -200));
        claim(lapsedFirst, T0).orElseThrow();
        claim(lapsedLater, T0.plusSeconds(10)).orElseThrow();

        ClaimCandidates candidates = servers.claimCandidates(group, InstanceStatus.ACTIVE, T0.plusSeconds(10).plus(TTL),
                Instant.EPOCH, 25);

        assertThat(candidates.groupStatus()).contains(GameServerGroupStatus.ACTIVE);
        assertThat(candidates.servers()).containsExactly(indexed(a), indexed(b), indexed(middle), indexed(young),
                indexed(stored(lapsedFirst)), indexed(stored(lapsedLater)));
    }

    /** A candidate as the claim index shows it: what orders it, and no more (no instance id, health or data). */
    private static GameServer indexed(GameServer s) {
        return GameServer.builder().gameServerGroupName(s.gameServerGroupName()).gameServerId(s.gameServerId())
                .utilizationStatus(UtilizationStatus.AVAILABLE).instanceStatus(s.instanceStatus())
                .claimExpiresAt(s.claimExpiresAt()).instanceLaunchTime(s.instanceLaunchTime()).build();
    }

    @Test
    void liveClaimsAreNoCandidatesAndAClaimExpiringNowIsLapsed() {
        GameServer a = registered(server("a", "i-1", 0));
        GameServer b = registered(server("b", "i-2", 10));
        claim(a, T0).orElseThrow();
        Instant expiry = T0.plus(TTL);

        assertThat(candidateIds(InstanceStatus.ACTIVE, T0)).containsExactly(b.gameServerId());
        assertThat(candidateIds(InstanceStatus.ACTIVE, expiry.minusMillis(1))).containsExactly(b.gameServerId());
        assertThat(candidateIds(InstanceStatus.ACTIVE, expiry)).containsExactly(b.gameServerId(), a.gameServerId());
        assertThat(stored(a).isClaimedAt(expiry)).as("the store agrees with the candidates").isFalse();
    }

    @Test
    void theLimitCountsServersNotTheGate() {
        for (int n = 0; n < 5; n++) {
            registered(server("s" + n, "i-" + n, n));
        }
        ClaimCandidates two = servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, Instant.EPOCH, 2);
        assertThat(two.groupStatus()).contains(GameServerGroupStatus.ACTIVE);
        assertThat(ids(two.servers())).containsExactly(id("s0"), id("s1"));

        groupIn(group, GameServerGroupStatus.DELETED); // no gate: the room made for it holds a server
        ClaimCandidates noGate = servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, Instant.EPOCH, 2);
        assertThat(noGate.groupStatus()).isEmpty();
        assertThat(ids(noGate.servers())).containsExactly(id("s0"), id("s1"));
    }

    @Test
    void utilizedSpotTerminatingAndOtherGroupsServersAreNoCandidates() {
        GameServer available = registered(server("a", "i-1", 0));
        setUtilization(registered(server("u", "i-1", 0)), UtilizationStatus.UTILIZED).orElseThrow();
        registered(server("spot", "i-2", 0).toBuilder().instanceStatus(InstanceStatus.SPOT_TERMINATING).build());
        registered(server("theirs", "i-3", 0).toBuilder().gameServerGroupName(other()).build());

        assertThat(candidateIds(InstanceStatus.ACTIVE, T0)).containsExactly(available.gameServerId());
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0.plus(Duration.ofDays(1)))).containsExactly(available.gameServerId());
        assertThat(candidateIds(InstanceStatus.DRAINING, T0)).isEmpty();
        assertThat(servers.claimCandidates(group, InstanceStatus.SPOT_TERMINATING, T0, Instant.EPOCH, 10))
                .isEqualTo(new ClaimCandidates(Optional.empty(), List.of()));
    }

    @Test
    void drainingServersHaveABucketOfTheirOwn() {
        GameServer active = registered(server("active", "i-1", 50));
        GameServer draining = registered(server("d1", "i-2", 0).toBuilder().instanceStatus(InstanceStatus.DRAINING).build());
        GameServer younger = registered(server("d2", "i-3", 20).toBuilder().instanceStatus(InstanceStatus.DRAINING).build());

        assertThat(candidateIds(InstanceStatus.ACTIVE, T0)).containsExactly(active.gameServerId());
        assertThat(candidateIds(InstanceStatus.DRAINING, T0)).containsExactly(draining.gameServerId(), younger.gameServerId());
        claim(draining, T0).orElseThrow();
        assertThat(candidateIds(InstanceStatus.DRAINING, T0)).containsExactly(younger.gameServerId());
        assertThat(candidateIds(InstanceStatus.DRAINING, T0.plus(TTL)))
                .containsExactly(younger.gameServerId(), draining.gameServerId());
    }

    /**
     * The index does not hold health (a heartbeat would write it): silent servers are candidates
     * until a claim meets one; the claim's write refuses it and takes it out of the candidates
     * until its next heartbeat.
     */
    @Test
    void aClaimOnASilentServerTakesItOutOfTheCandidatesUntilItsNextHeartbeat() {
        Instant now = T0.plusSeconds(600);
        Instant cutoff = T0.plusSeconds(300);
        GameServer silent = registered(server("silent", "i-0", 0)); // healthy at T0 only
        GameServer healthy = registered(server("healthy", "i-1", 10).toBuilder().lastHealthCheckTime(now).build());
        ClaimCondition condition = new ClaimCondition(now, cutoff, ACTIVE_OR_DRAINING);
        assertThat(candidateIds(InstanceStatus.ACTIVE, now)).containsExactly(silent.gameServerId(), healthy.gameServerId());

        assertThat(servers.tryClaim(indexed(silent), condition, now.plus(TTL), Optional.empty())).isEmpty();
        assertThat(candidateIds(InstanceStatus.ACTIVE, now)).containsExactly(healthy.gameServerId());
        assertThat(stored(silent)).as("the item itself is unchanged").isEqualTo(silent);

        servers.update(group, silent.gameServerId(), Optional.empty(),
                new ServerUpdate(Optional.empty(), Optional.empty(), Optional.of(now))).orElseThrow();
        assertThat(candidateIds(InstanceStatus.ACTIVE, now)).containsExactly(silent.gameServerId(), healthy.gameServerId());
        assertThat(servers.tryClaim(indexed(silent), condition, now.plus(TTL), Optional.empty())).isPresent();
    }

    @Test
    void aSilentServerThatIsClaimedOrUtilizedIsLeftInPlaceAndAStatusMovePutsItBack() {
        Instant now = T0.plusSeconds(600);
        Instant cutoff = T0.plusSeconds(300);
        GameServer utilized = setUtilization(registered(server("u", "i-0", 0)), UtilizationStatus.UTILIZED).orElseThrow();
        GameServer silent = registered(server("silent", "i-1", 0).toBuilder().instanceStatus(InstanceStatus.DRAINING).build());
        ClaimCondition condition = new ClaimCondition(now, cutoff, ACTIVE_OR_DRAINING);
        assertThat(servers.tryClaim(indexed(utilized).toBuilder().build(), condition, now.plus(TTL), Optional.empty())).isEmpty();
        assertThat(stored(utilized)).isEqualTo(utilized);

        assertThat(servers.tryClaim(indexed(silent), condition, now.plus(TTL), Optional.empty())).isEmpty();
        assertThat(candidateIds(InstanceStatus.DRAINING, now)).isEmpty();
        servers.setInstanceStatus(List.of(stored(silent)), InstanceStatus.ACTIVE);
        assertThat(candidateIds(InstanceStatus.ACTIVE, now)).containsExactly(silent.gameServerId());
    }

    @Test
    void theLimitIsExact() {
        for (int n = 0; n < 40; n++) {
            registered(server(String.format("s%02d", n), "i-" + n, n));
        }
        assertThat(ids(servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, T0, 1).servers())).containsExactly(id("s00"));
        assertThat(ids(servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, T0, 3).servers()))
                .containsExactly(id("s00"), id("s01"), id("s02"));
        assertThat(servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, T0, 100).servers()).hasSize(40);
    }

    // ---- tryClaim ------------------------------------------------------------------------

    @Test
    void aServerIsClaimedOnceUntilItsClaimLapses() {
        GameServer s = registered(server("a", "i-1", 0).toBuilder().gameServerData("initial").build());
        Instant expiry = T0.plus(TTL);

        GameServer first = claim(s, T0).orElseThrow();
        assertThat(first).isEqualTo(s.toBuilder().claimExpiresAt(expiry).lastClaimTime(T0).build());
        assertThat(stored(s)).isEqualTo(first);

        assertThat(claim(s, T0)).as("again at once").isEmpty();
        assertThat(claim(first, expiry.minusMillis(1))).as("a millisecond before it lapses").isEmpty();
        assertThat(stored(s)).isEqualTo(first);

        GameServer again = claim(first, expiry).orElseThrow();
        assertThat(again.claimExpiresAt()).isEqualTo(expiry.plus(TTL));
        assertThat(again.lastClaimTime()).isEqualTo(expiry);
    }

    @Test
    void aClaimSetsTheGameServerDataWhenItGivesAny() {
        GameServer s = registered(server("a", "i-1", 0).toBuilder().gameServerData("initial").build());
        assertThat(servers.tryClaim(s, condition(T0), T0.plus(TTL), Optional.of("match-42")))
                .map(GameServer::gameServerData).contains("match-42");
        assertThat(stored(s).gameServerData()).isEqualTo("match-42");
    }

    @Test
    void anUnhealthyServerIsNotClaimed() {
        GameServer s = registered(server("a", "i-1", 0)); // last health check at T0
        Instant later = T0.plusSeconds(120);
        ClaimCondition cutoffAfterCheck = new ClaimCondition(later, T0.plusMillis(1), ACTIVE_OR_DRAINING);
        assertThat(servers.tryClaim(s, cutoffAfterCheck, later.plus(TTL), Optional.empty())).isEmpty();
        assertThat(stored(s)).isEqualTo(s);

        ClaimCondition cutoffAtCheck = new ClaimCondition(later, T0, ACTIVE_OR_DRAINING);
        assertThat(servers.tryClaim(s, cutoffAtCheck, later.plus(TTL), Optional.empty())).isPresent();
    }

    @Test
    void aUtilizedServerIsNotClaimedWhetherTheCandidateKnowsItOrNot() {
        GameServer s = registered(server("a", "i-1", 0));
        GameServer utilized = setUtilization(s, UtilizationStatus.UTILIZED).orElseThrow();
        assertThat(claim(s, T0)).as("read as AVAILABLE").isEmpty();
        assertThat(claim(utilized, T0)).as("read as UTILIZED").isEmpty();
        assertThat(stored(s)).isEqualTo(utilized);
    }

    /** The write decides, not the candidate: this one was read before its id was registered again. */
    @Test
    void aCandidateReadAsUtilizedIsClaimedIfTheServerIsAvailableNow() {
        GameServer utilized = setUtilization(registered(server("a", "i-1", 0)), UtilizationStatus.UTILIZED).orElseThrow();
        assertThat(servers.deregister(group, utilized.gameServerId(), Optional.empty())).isPresent();
        GameServer again = registered(server("a", "i-1", 0));
        assertThat(claim(utilized, T0)).contains(again.toBuilder().claimExpiresAt(T0.plus(TTL)).lastClaimTime(T0).build());
    }

    @Test
    void aCandidateWhoseInstanceStatusChangedOrIsExcludedIsNotClaimed() {
        GameServer s = registered(server("a", "i-1", 0));
        assertThat(claim(s.toBuilder().instanceStatus(InstanceStatus.DRAINING).build(), T0)).as("stale").isEmpty();

        GameServer draining = registered(server("d", "i-2", 0).toBuilder().instanceStatus(InstanceStatus.DRAINING).build());
        ClaimCondition activeOnly = new ClaimCondition(T0, T0, EnumSet.of(InstanceStatus.ACTIVE));
        assertThat(servers.tryClaim(draining, activeOnly, T0.plus(TTL), Optional.empty())).isEmpty();

        assertThat(stored(s)).isEqualTo(s);
        assertThat(stored(draining)).isEqualTo(draining);
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0)).as("still a candidate").containsExactly(s.gameServerId());
    }

    @Test
    void aServerOnAnInterruptedInstanceIsNotClaimedEvenIfTheConditionAllowsIt() {
        GameServer s = registered(server("a", "i-1", 0).toBuilder().instanceStatus(InstanceStatus.SPOT_TERMINATING).build());
        ClaimCondition any = new ClaimCondition(T0, T0, EnumSet.allOf(InstanceStatus.class));
        assertThat(servers.tryClaim(s, any, T0.plus(TTL), Optional.empty())).isEmpty();
        assertThat(stored(s)).isEqualTo(s);
    }

    @Test
    void aCandidateOfAnotherGroupOrOneDeregisteredIsNotClaimed() {
        GameServer s = registered(server("a", "i-1", 0));
        assertThat(claim(s.toBuilder().gameServerGroupName(other()).build(), T0)).isEmpty();
        assertThat(stored(s)).isEqualTo(s);

        assertThat(servers.deregister(group, s.gameServerId(), Optional.empty())).isPresent();
        assertThat(claim(s, T0)).isEmpty();
        assertThat(servers.find(s.gameServerId())).as("not recreated").isEmpty();
    }

    // ---- update --------------------------------------------------------------------------

    @Test
    void utilizedSpendsTheClaimAndLeavesTheIndex() {
        GameServer s = registered(server("a", "i-1", 0));
        claim(s, T0).orElseThrow();

        GameServer utilized = setUtilization(s, UtilizationStatus.UTILIZED).orElseThrow();

        assertThat(utilized).isEqualTo(s.toBuilder().utilizationStatus(UtilizationStatus.UTILIZED).lastClaimTime(T0).build());
        assertThat(stored(s)).isEqualTo(utilized);
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0.plus(Duration.ofDays(1)))).isEmpty();
    }

    @Test
    void aUtilizedServerDoesNotReturnToAvailable() {
        GameServer s = registered(server("a", "i-1", 0).toBuilder().gameServerData("before").build());
        GameServer utilized = setUtilization(s, UtilizationStatus.UTILIZED).orElseThrow();
        ServerUpdate back = new ServerUpdate(Optional.of("after"), Optional.of(UtilizationStatus.AVAILABLE),
                Optional.of(T0.plusSeconds(5)));
        assertThat(servers.update(group, s.gameServerId(), Optional.empty(), back)).isEmpty();
        assertThat(stored(s)).as("data and health untouched too").isEqualTo(utilized);
    }

    @Test
    void availableOnAnAvailableServerIsAllowed() {
        GameServer s = registered(server("a", "i-1", 0));
        assertThat(setUtilization(s, UtilizationStatus.AVAILABLE)).contains(s);
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0)).containsExactly(s.gameServerId());
    }

    @Test
    void updateRequiresTheGroupAndTheInstanceWhenGiven() {
        GameServer s = registered(server("a", "i-1", 0));
        ServerUpdate data = new ServerUpdate(Optional.of("new"), Optional.empty(), Optional.empty());

        assertThat(servers.update(group, s.gameServerId(), Optional.of(instance("i-2")), data)).isEmpty();
        assertThat(servers.update(other(), s.gameServerId(), Optional.empty(), data)).isEmpty();
        assertThat(stored(s)).isEqualTo(s);

        assertThat(servers.update(group, s.gameServerId(), Optional.of(instance("i-1")), data))
                .contains(s.toBuilder().gameServerData("new").build());
        assertThat(servers.update(group, s.gameServerId(), Optional.empty(), data)).isPresent();
    }

    @Test
    void aHeartbeatKeepsTheClaimAndTheIndexEntry() {
        GameServer claimed = claim(registered(server("a", "i-1", 0)), T0).orElseThrow();
        Instant checked = T0.plusSeconds(30);
        Optional<GameServer> updated = servers.update(group, claimed.gameServerId(), Optional.empty(),
                new ServerUpdate(Optional.empty(), Optional.empty(), Optional.of(checked)));
        assertThat(updated).contains(claimed.toBuilder().lastHealthCheckTime(checked).build());
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0)).isEmpty();
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0.plus(TTL))).containsExactly(claimed.gameServerId());
    }

    @Test
    void anEmptyUpdateChangesNothingAndAnUnknownServerIsNotCreated() {
        GameServer s = registered(server("a", "i-1", 0));
        ServerUpdate nothing = new ServerUpdate(Optional.empty(), Optional.empty(), Optional.empty());
        assertThat(servers.update(group, s.gameServerId(), Optional.empty(), nothing)).contains(s);
        assertThat(stored(s)).isEqualTo(s);

        ServerUpdate health = new ServerUpdate(Optional.empty(), Optional.empty(), Optional.of(T0));
        assertThat(servers.update(group, id("ghost"), Optional.empty(), health)).isEmpty();
        assertThat(servers.find(id("ghost"))).isEmpty();
    }

    // ---- deregister, delete, deleteIfUnhealthy -------------------------------------------

    @Test
    void deregisterRequiresTheGroupAndTheInstanceWhenGiven() {
        GameServer s = registered(server("a", "i-1", 0));
        assertThat(servers.deregister(other(), s.gameServerId(), Optional.empty())).isEmpty();
        assertThat(servers.deregister(group, s.gameServerId(), Optional.of(instance("i-2")))).isEmpty();
        assertThat(servers.find(s.gameServerId())).contains(s);

        assertThat(servers.deregister(group, s.gameServerId(), Optional.of(instance("i-1")))).as("the server as it was")
                .contains(s);
        assertThat(servers.find(s.gameServerId())).isEmpty();
        assertThat(servers.deregister(group, s.gameServerId(), Optional.empty())).as("already gone").isEmpty();

        GameServer t = registered(server("b", "i-1", 0).toBuilder().pushConnectionId("conn-b").build());
        assertThat(servers.deregister(group, t.gameServerId(), Optional.empty())).contains(t);
        assertThat(servers.find(t.gameServerId())).isEmpty();
    }

    // ---- the push connection copied onto the servers ---------------------------------------

    @Test
    void setPushConnectionCopiesItOntoTheInstancesServersOnlyAndAClaimReturnsIt() {
        List<GameServer> on1 = registeredOn("i-1", 3);
        GameServer elsewhere = registered(server("other", "i-2", 0));
        servers.setPushConnection(instance("i-1"), "conn-1");
        servers.setPushConnection(instance("i-9"), "conn-9"); // no server: nothing created

        on1.forEach(s -> assertThat(stored(s)).isEqualTo(s.toBuilder().pushConnectionId("conn-1").build()));
        assertThat(stored(elsewhere).pushConnectionId()).isNull();
        servers.setPushConnection(instance("i-1"), "conn-2");
        assertThat(stored(on1.get(0)).pushConnectionId()).as("a newer connect replaces it").isEqualTo("conn-2");

        GameServer claimed = servers.tryClaim(stored(on1.get(1)), condition(T0), T0.plus(TTL), Optional.empty())
                .orElseThrow();
        assertThat(claimed.pushConnectionId()).as("the claim's own write returns it").isEqualTo("conn-2");
        assertThat(servers.find(id("s900"))).isEmpty();
    }

    @Test
    void clearPushConnectionRemovesTheCopyOnlyWhileItIsStillThatConnection() {
        List<GameServer> on1 = registeredOn("i-1", 2);
        servers.setPushConnection(instance("i-1"), "conn-old");
        servers.setPushConnection(instance("i-1"), "conn-new");
        assertThat(servers.clearPushConnection(on1.get(0).gameServerId(), "conn-old")).as("a newer copy is kept").isFalse();
        assertThat(stored(on1.get(0)).pushConnectionId()).isEqualTo("conn-new");

        assertThat(servers.clearPushConnection(on1.get(0).gameServerId(), "conn-new")).isTrue();
        assertThat(stored(on1.get(0))).isEqualTo(on1.get(0));
        assertThat(stored(on1.get(1)).pushConnectionId()).as("only that server's").isEqualTo("conn-new");
        assertThat(servers.clearPushConnection(on1.get(0).gameServerId(), "conn-new")).isFalse();
        assertThat(servers.clearPushConnection(id("s900"), "conn-new")).as("no server").isFalse();
        assertThat(servers.find(id("s900"))).isEmpty();
    }

    @Test
    void aRegisteredServerKeepsTheConnectionItWasRegisteredWith() {
        GameServer s = registered(server("a", "i-1", 0).toBuilder().pushConnectionId("conn-a").build());
        assertThat(stored(s).pushConnectionId()).isEqualTo("conn-a");
    }

    @Test
    void deleteIfUnhealthyDeletesOnlyAServerSilentSinceBeforeTheCutoff() {
        GameServer quiet = registered(server("quiet", "i-1", 0)); // heartbeat at T0
        GameServer atCutoff = registered(server("at", "i-1", 0).toBuilder().lastHealthCheckTime(T0.plusSeconds(100)).build());
        GameServer revived = registered(server("revived", "i-1", 0));
        servers.update(group, revived.gameServerId(), Optional.empty(),
                new ServerUpdate(Optional.empty(), Optional.empty(), Optional.of(T0.plusSeconds(200)))).orElseThrow();
        Instant cutoff = T0.plusSeconds(100);

        assertThat(servers.deleteIfUnhealthy(quiet.gameServerId(), cutoff)).isTrue();
        assertThat(servers.deleteIfUnhealthy(atCutoff.gameServerId(), cutoff)).isFalse();
        assertThat(servers.deleteIfUnhealthy(revived.gameServerId(), cutoff)).isFalse();
        assertThat(servers.deleteIfUnhealthy(id("ghost"), cutoff)).isFalse();
        assertThat(ids(servers.listAll(group))).containsExactlyInAnyOrder(atCutoff.gameServerId(), revived.gameServerId());
    }

    @Test
    void deleteRemovesAServerInAnyStateAndIgnoresAMissingOne() {
        GameServer s = registered(server("a", "i-1", 0));
        GameServer utilized = setUtilization(registered(server("u", "i-1", 0)), UtilizationStatus.UTILIZED).orElseThrow();
        servers.delete(s.gameServerId());
        servers.delete(utilized.gameServerId());
        servers.delete(id("ghost"));
        assertThat(servers.find(s.gameServerId())).isEmpty();
        assertThat(servers.find(utilized.gameServerId())).isEmpty();
        assertThat(servers.onInstance(instance("i-1"))).isEmpty();
    }

    // ---- setInstanceStatus ---------------------------------------------------------------

    @Test
    void drainingMovesTheServersToTheLastResortBucket() {
        GameServer a = registered(server("a", "i-1", 0));
        GameServer utilized = setUtilization(registered(server("u", "i-1", 0)), UtilizationStatus.UTILIZED).orElseThrow();
        GameServer gone = registered(server("gone", "i-1", 0));
        GameServer elsewhere = registered(server("b", "i-2", 0));
        List<GameServer> read = servers.onInstance(instance("i-1"));
        servers.delete(gone.gameServerId());

        servers.setInstanceStatus(read, InstanceStatus.DRAINING);

        assertThat(stored(a)).isEqualTo(a.toBuilder().instanceStatus(InstanceStatus.DRAINING).build());
        assertThat(stored(utilized)).isEqualTo(utilized.toBuilder().instanceStatus(InstanceStatus.DRAINING).build());
        assertThat(servers.find(gone.gameServerId())).as("not recreated").isEmpty();
        assertThat(stored(elsewhere)).isEqualTo(elsewhere);
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0)).containsExactly(elsewhere.gameServerId());
        assertThat(candidateIds(InstanceStatus.DRAINING, T0)).containsExactly(a.gameServerId());
    }

    @Test
    void aServerClaimedSinceItWasReadMovesWithItsClaim() {
        GameServer read = registered(server("a", "i-1", 0));
        GameServer claimed = claim(read, T0).orElseThrow();

        servers.setInstanceStatus(List.of(read), InstanceStatus.DRAINING);

        assertThat(stored(read)).isEqualTo(claimed.toBuilder().instanceStatus(InstanceStatus.DRAINING).build());
        assertThat(candidateIds(InstanceStatus.DRAINING, T0)).as("still claimed").isEmpty();
        assertThat(candidateIds(InstanceStatus.DRAINING, T0.plus(TTL))).containsExactly(read.gameServerId());
    }

    @Test
    void spotTerminatingTakesServersOutOfClaimsForGood() {
        GameServer s = registered(server("a", "i-1", 0));
        servers.setInstanceStatus(List.of(s), InstanceStatus.SPOT_TERMINATING);
        assertThat(stored(s).instanceStatus()).isEqualTo(InstanceStatus.SPOT_TERMINATING);
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0)).isEmpty();
        assertThat(candidateIds(InstanceStatus.DRAINING, T0)).isEmpty();

        servers.setInstanceStatus(List.of(stored(s)), InstanceStatus.ACTIVE);
        servers.setInstanceStatus(List.of(s), InstanceStatus.DRAINING);
        assertThat(stored(s).instanceStatus()).isEqualTo(InstanceStatus.SPOT_TERMINATING);
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0)).isEmpty();
    }

    @Test
    void setInstanceStatusMovesMoreThanOneTransactionsWorth() {
        List<GameServer> read = registeredOn("i-1", 101);
        claim(read.get(5), T0).orElseThrow(); // changed since read, in the first hundred
        setUtilization(read.get(100), UtilizationStatus.UTILIZED).orElseThrow(); // and in the rest

        servers.setInstanceStatus(read, InstanceStatus.DRAINING);

        assertThat(servers.listAll(group)).hasSize(101)
                .allSatisfy(s -> assertThat(s.instanceStatus()).isEqualTo(InstanceStatus.DRAINING));
        assertThat(stored(read.get(5)).claimExpiresAt()).isEqualTo(T0.plus(TTL));
        assertThat(stored(read.get(100)).utilizationStatus()).isEqualTo(UtilizationStatus.UTILIZED);
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0)).isEmpty();
    }

    // ---- retire --------------------------------------------------------------------------

    @Test
    void retiringNoServersSucceeds() {
        assertThat(servers.retire(List.of())).isTrue();
    }

    @Test
    void retireTakesAHundredServersAsReadOutOfClaims() {
        List<GameServer> read = registeredOn("i-1", 100);
        GameServer claimedBefore = claim(read.get(0), T0).orElseThrow();
        read = servers.onInstance(instance("i-1")); // read while claimed: retiring it is still "as read"

        assertThat(servers.retire(read)).isTrue();

        assertThat(servers.listAll(group)).hasSize(100)
                .allSatisfy(s -> assertThat(s.instanceStatus()).isEqualTo(InstanceStatus.SPOT_TERMINATING));
        assertThat(stored(claimedBefore).claimExpiresAt()).isEqualTo(claimedBefore.claimExpiresAt());
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0.plus(Duration.ofDays(1)))).isEmpty();
        assertThat(candidateIds(InstanceStatus.DRAINING, T0.plus(Duration.ofDays(1)))).isEmpty();
    }

    @Test
    void retireOfAHundredAndOneStrandsNothingWhenTheLastChanged() {
        List<GameServer> read = registeredOn("i-1", 101);
        GameServer claimed = claim(read.get(100), T0).orElseThrow();

        assertThat(servers.retire(read)).isFalse();

        for (GameServer s : read.subList(0, 100)) {
            assertThat(stored(s)).as("back as it was read").isEqualTo(s);
        }
        assertThat(stored(claimed)).isEqualTo(claimed);
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0)).hasSize(25).doesNotContain(claimed.gameServerId());
    }

    @Test
    void retireOfAHundredAndOnePutsDrainingServersBackAsTheyWereRead() {
        GameServer claimedBefore = claim(registeredOn("i-1", 101).get(3), T0).orElseThrow();
        servers.setInstanceStatus(servers.onInstance(instance("i-1")), InstanceStatus.DRAINING);
        List<GameServer> read = servers.onInstance(instance("i-1")).stream()
                .sorted(java.util.Comparator.comparing(GameServer::gameServerId)).toList();
        setUtilization(read.get(100), UtilizationStatus.UTILIZED).orElseThrow();

        assertThat(servers.retire(read)).isFalse();

        assertThat(servers.listAll(group)).hasSize(101)
                .allSatisfy(s -> assertThat(s.instanceStatus()).isEqualTo(InstanceStatus.DRAINING));
        assertThat(stored(claimedBefore).claimExpiresAt()).isEqualTo(claimedBefore.claimExpiresAt());
        assertThat(candidateIds(InstanceStatus.DRAINING, T0.plus(Duration.ofDays(1)))).hasSize(25);
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0)).isEmpty();
    }

    @Test
    void retireOfAHundredAndOneWritesNothingWhenOneOfTheFirstHundredChanged() {
        List<GameServer> read = registeredOn("i-1", 101);
        GameServer utilized = setUtilization(read.get(99), UtilizationStatus.UTILIZED).orElseThrow();

        assertThat(servers.retire(read)).isFalse();

        assertThat(servers.listAll(group)).hasSize(101)
                .allSatisfy(s -> assertThat(s.instanceStatus()).isEqualTo(InstanceStatus.ACTIVE));
        assertThat(stored(utilized)).isEqualTo(utilized);
        assertThat(candidateIds(InstanceStatus.ACTIVE, T0)).hasSize(25);
    }

    @Test
    void retireRefusesServersGoneOrAlreadyRetired() {
        GameServer kept = registered(server("kept", "i-1", 0));
        GameServer gone = registered(server("gone", "i-1", 0));
        servers.delete(gone.gameServerId());
        assertThat(servers.retire(List.of(kept, gone))).isFalse();
        assertThat(stored(kept)).as("nothing of the refused transaction is written").isEqualTo(kept);

        assertThat(servers.retire(List.of(kept))).isTrue();
        assertThat(servers.retire(List.of(kept))).as("already SPOT_TERMINATING").isFalse();
        assertThat(servers.find(gone.gameServerId())).isEmpty();
    }

    /** Refused as DynamoDB refuses them; the servers of the refused transaction are left as they were. */
    @Test
    void aServerNamedTwiceInOneTransactionIsRefused() {
        GameServer s = registered(server("a", "i-1", 0));
        assertThatThrownBy(() -> servers.setInstanceStatus(List.of(s, s), InstanceStatus.DRAINING))
                .isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> servers.retire(List.of(s, s))).isInstanceOf(RuntimeException.class);
        assertThat(stored(s)).isEqualTo(s);
    }

    @Test
    void aLimitBelowOneIsRefused() {
        registered(server("a", "i-1", 0));
        assertThatThrownBy(() -> servers.listByGroup(group, SortOrder.ASCENDING, 0, Optional.empty()))
                .isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> servers.claimCandidates(group, InstanceStatus.DRAINING, T0, T0, 0))
                .isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, T0, 0))
                .isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> servers.deleteSome(group, 0)).isInstanceOf(RuntimeException.class);
        assertThat(servers.listAll(group)).hasSize(1);
    }

    // ---- countUtilized, deleteSome -------------------------------------------------------

    @Test
    void countUtilizedCountsThisGroupsUtilizedServers() {
        assertThat(servers.countUtilized(group)).isZero();
        for (int n = 0; n < 5; n++) {
            GameServer s = registered(server("s" + n, "i-1", 0).toBuilder().registrationTime(T0.plusSeconds(n)).build());
            if (n % 2 == 0) {
                setUtilization(s, UtilizationStatus.UTILIZED).orElseThrow();
            }
        }
        GameServer elsewhere = registered(server("x", "i-9", 0).toBuilder().gameServerGroupName(other()).build());
        setUtilization(elsewhere, UtilizationStatus.UTILIZED).orElseThrow();

        assertThat(servers.countUtilized(group)).isEqualTo(3);
        assertThat(servers.countUtilized(other())).isEqualTo(1);
    }

    @Test
    void deleteSomeDeletesInRegistrationOrderAndOnlyThisGroup() {
        for (int n = 0; n < 7; n++) {
            registered(server("s" + n, "i-1", 0).toBuilder().registrationTime(T0.plusSeconds(6 - n)).build());
        }
        GameServer theirs = registered(server("x", "i-9", 0).toBuilder().gameServerGroupName(other()).build());

        assertThat(servers.deleteSome(group, 3)).isEqualTo(3);
        assertThat(listAll(SortOrder.ASCENDING, 10)).containsExactly(id("s3"), id("s2"), id("s1"), id("s0"));
        assertThat(servers.deleteSome(group, 3)).isEqualTo(3);
        assertThat(servers.deleteSome(group, 3)).isEqualTo(1);
        assertThat(servers.deleteSome(group, 3)).isZero();

        assertThat(listAll(SortOrder.ASCENDING, 10)).isEmpty();
        assertThat(servers.find(theirs.gameServerId())).contains(theirs);
        assertThat(servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, Instant.EPOCH, 10).groupStatus())
                .as("the gate is the group's, not a server").contains(GameServerGroupStatus.ACTIVE);
    }
}

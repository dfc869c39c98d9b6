package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.GameServerService.Claim;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The order each claim strategy gives the candidates a claimer read ({@link ClaimPolicy}), and a
 * group's strategy through its claims: set by an administrator, learned by a container from its
 * claim-index reads with no read more.
 */
class ClaimStrategyTest {
    private static final Instant LAUNCHED = Instant.parse("2100-01-01T00:00:00Z");

    /** A candidate as the claim index shows it: its id and its instance's launch time, no instance id. */
    private static GameServer candidate(String id, int instanceAgeRank) {
        return GameServer.builder().gameServerGroupName(GROUP).gameServerId(id)
                .utilizationStatus(UtilizationStatus.AVAILABLE).instanceStatus(InstanceStatus.ACTIVE)
                .instanceLaunchTime(LAUNCHED.plusSeconds(instanceAgeRank)).build();
    }

    /** FleetIQ's order: instance a (the oldest) has 3 claimable servers, b 1, c 1, d 2. */
    private static final List<GameServer> INDEX_ORDER = List.of(candidate("a1", 0), candidate("a2", 0),
            candidate("a3", 0), candidate("b1", 1), candidate("c1", 2), candidate("d1", 3), candidate("d2", 3));

    private static List<String> ids(List<GameServer> servers) {
        return servers.stream().map(GameServer::gameServerId).toList();
    }

    private static List<String> instances(List<GameServer> servers) {
        return servers.stream().map(s -> s.gameServerId().substring(0, 1)).toList();
    }

    @Test
    void packedTriesTheInstanceWithTheFewestCandidatesFirstTiesOldestFirst() {
        assertThat(ids(new ClaimPolicy(1, new SplittableRandom(1)).tryOrder(INDEX_ORDER, ClaimStrategy.PACKED)))
                .containsExactly("b1", "c1", "d1", "d2", "a1", "a2", "a3");
    }

    @Test
    void distributedTriesTheInstanceWithTheMostFirstThenOneServerOfEachInTurn() {
        assertThat(ids(new ClaimPolicy(1, new SplittableRandom(1)).tryOrder(INDEX_ORDER, ClaimStrategy.DISTRIBUTED)))
                .containsExactly("a1", "d1", "b1", "c1", "a2", "d2", "a3");
    }

    @Test
    void fleetIqKeepsTheIndexOrderWithItsShuffledHead() {
        assertThat(new ClaimPolicy(4, new SplittableRandom(9)).tryOrder(INDEX_ORDER, ClaimStrategy.FLEETIQ))
                .isEqualTo(new ClaimPolicy(4, new SplittableRandom(9)).tryOrder(INDEX_ORDER));
    }

    @Test
    void theShuffleSpreadsClaimersWithinEachInstanceAndNeverAcrossInstances() {
        List<List<String>> packedOrders = new ArrayList<>();
        for (long seed = 0; seed < 50; seed++) {
            ClaimPolicy policy = new ClaimPolicy(8, new SplittableRandom(seed));
            List<GameServer> packed = policy.tryOrder(INDEX_ORDER, ClaimStrategy.PACKED);
            assertThat(instances(packed)).containsExactly("b", "c", "d", "d", "a", "a", "a");
            assertThat(ids(packed)).containsExactlyInAnyOrderElementsOf(ids(INDEX_ORDER));
            assertThat(instances(policy.tryOrder(INDEX_ORDER, ClaimStrategy.DISTRIBUTED)))
                    .containsExactly("a", "d", "b", "c", "a", "d", "a");
            packedOrders.add(ids(packed));
        }
        assertThat(packedOrders.stream().map(o -> o.get(2)).distinct()).as("d's two servers change places")
                .containsExactlyInAnyOrder("d1", "d2");
    }

    @Test
    void aGroupSetToPackedClaimsFromItsFullestInstanceWithNoReadMore() {
        Fleet fleet = new Fleet();
        fleet.activeGroup();
        fleet.launch(GROUP, "i-old", C5, fleet.clock.instant().minus(Duration.ofHours(2)));
        fleet.launch(GROUP, "i-new", C5, fleet.clock.instant().minus(Duration.ofHours(1)));
        for (int n = 0; n < 4; n++) {
            fleet.register("old-" + n, "i-old");
        }
        fleet.register("new-0", "i-new"); // the fullest: one claimable server of four
        List<String> calls = new ArrayList<>();
        GameServerService container = fleet.gameServers(Fleet.around(GameServerRepository.class, fleet.servers,
                (method, args, proceed) -> {
                    calls.add(method);
                    return proceed.call();
                }));
        Claim claim = new Claim(GROUP, Optional.empty(), Optional.empty(), Optional.empty());
        assertThat(container.claim(claim).gameServerId()).as("FleetIQ's order: the oldest instance").isEqualTo("old-0");

        fleet.groupService().setClaimStrategy(GROUP, ClaimStrategy.PACKED);
        fleet.clock.advance(ClaimCandidateCache.CANDIDATES_MAX_AGE); // the next claim reads the index anew
        calls.clear();
        assertThat(container.claim(claim).gameServerId()).isEqualTo("new-0");
        assertThat(calls).as("the strategy came with the candidates").containsExactly("someClaimCandidates", "tryClaim");
        assertThat(fleet.groupService().describe(GROUP).claimStrategy()).isEqualTo(ClaimStrategy.PACKED);
    }

    @Test
    void settingTheStrategyItHasWritesNothing() {
        Fleet fleet = new Fleet();
        fleet.activeGroup();
        GameServerGroup before = fleet.groups.find(GROUP).orElseThrow();
        fleet.groupService().setClaimStrategy(GROUP, ClaimStrategy.FLEETIQ);
        assertThat(fleet.groups.find(GROUP).orElseThrow().version()).isEqualTo(before.version());
        fleet.groupService().setClaimStrategy(GROUP, ClaimStrategy.DISTRIBUTED);
        assertThat(fleet.groups.find(GROUP).orElseThrow().version()).isEqualTo(before.version() + 1);
    }
}

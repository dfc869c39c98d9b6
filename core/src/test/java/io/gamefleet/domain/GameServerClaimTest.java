package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.CLAIM_TTL;
import static io.gamefleet.domain.Fleet.GROUP;
import static io.gamefleet.domain.Fleet.T0;
import static io.gamefleet.domain.GameServerServiceTest.fails;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.GameServerService.Claim;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** ClaimGameServer: which server a claim gets, when none can be had, and what contention costs. */
class GameServerClaimTest {
    /** Up to 30 servers on one instance (a contended group): a stage that raised maxGameServersPerInstance. */
    private final Fleet fleet = new Fleet().allowGameServersPerInstance(30);

    @BeforeEach
    void anActiveGroup() {
        fleet.activeGroup();
    }

    private GameServer claim() {
        return fleet.claim(GROUP);
    }

    private GameServer claim(Claim c) {
        return fleet.gameServers().claim(c);
    }

    private static Claim named(String gameServerId) {
        return new Claim(GROUP, Optional.of(gameServerId), Optional.empty(), Optional.empty());
    }

    private static Claim filtered(Set<InstanceStatus> statuses) {
        return new Claim(GROUP, Optional.empty(), Optional.empty(), Optional.of(statuses));
    }

    private void outOfCapacity() {
        fails(this::claim, ErrorKind.OUT_OF_CAPACITY, "no game server of game server group arena can be claimed now");
    }

    /** An instance launched {@code hoursAgo} with one server of the same name's suffix on it. */
    private void serverOnInstance(String gameServerId, String instanceId, int hoursAgo) {
        fleet.launch(GROUP, instanceId, C5, T0.minus(Duration.ofHours(hoursAgo)));
        fleet.register(gameServerId, instanceId);
    }

    @Test
    void aClaimHoldsTheServerForTheClaimTtlAndSetsItsData() {
        serverOnInstance("gs-1", "i-1", 1);
        fleet.clock.advance(Duration.ofSeconds(3));

        GameServer claimed = claim(new Claim(GROUP, Optional.empty(), Optional.of("match=42"), Optional.empty()));

        assertThat(claimed.gameServerId()).isEqualTo("gs-1");
        assertThat(claimed.claimExpiresAt()).isEqualTo(T0.plusSeconds(3).plus(CLAIM_TTL));
        assertThat(claimed.lastClaimTime()).isEqualTo(T0.plusSeconds(3));
        assertThat(claimed.gameServerData()).isEqualTo("match=42");
        assertThat(claimed.utilizationStatus()).isEqualTo(UtilizationStatus.AVAILABLE);
        assertThat(fleet.server("gs-1")).isEqualTo(claimed);
    }

    @Test
    void activeInstancesBeforeDrainingOnesNeverClaimedBeforeLapsedOldestInstanceFirst() {
        serverOnInstance("gs-newer", "i-newer", 1);
        serverOnInstance("gs-older", "i-older", 3);
        fleet.launch(GROUP, "i-draining", C5, T0.minus(Duration.ofHours(5)));
        fleet.setInstanceStatus(GROUP, "i-draining", InstanceStatus.DRAINING);
        fleet.register("gs-draining", "i-draining");

        assertThat(List.of(claim(), claim(), claim())).extracting(GameServer::gameServerId)
                .containsExactly("gs-older", "gs-newer", "gs-draining");
        outOfCapacity();

        // Claimed again by name once lapsed, the newer one first: its claim lapses first.
        fleet.clock.advance(CLAIM_TTL.plusSeconds(1));
        heartbeats();
        claim(named("gs-newer"));
        fleet.clock.advance(Duration.ofSeconds(1));
        claim(named("gs-older"));
        fleet.clock.advance(CLAIM_TTL);
        heartbeats();

        // A server never claimed comes first; then lapsed claims, earliest lapse first; DRAINING last
        // though its claim lapsed earliest of all.
        fleet.register("gs-fresh", "i-newer");
        assertThat(List.of(claim(), claim(), claim(), claim())).extracting(GameServer::gameServerId)
                .containsExactly("gs-fresh", "gs-newer", "gs-older", "gs-draining");
    }

    private void heartbeats() {
        for (String id : List.of("gs-older", "gs-newer", "gs-draining")) {
            fleet.heartbeat(id);
        }
    }

    @Test
    void aFilterOfActiveOnlyLeavesDrainingInstancesAndAFilterWithoutActiveIsInvalid() {
        fleet.launch("i-draining", C5);
        fleet.setInstanceStatus(GROUP, "i-draining", InstanceStatus.DRAINING);
        fleet.register("gs-draining", "i-draining");

        fails(() -> claim(filtered(EnumSet.of(InstanceStatus.ACTIVE))), ErrorKind.OUT_OF_CAPACITY,
                "no game server of game server group arena can be claimed now");
        for (Set<InstanceStatus> withoutActive : List.of(Set.<InstanceStatus>of(), EnumSet.of(InstanceStatus.DRAINING))) {
            fails(() -> claim(filtered(withoutActive)), ErrorKind.INVALID_REQUEST,
                    "FilterOption.InstanceStatuses must contain ACTIVE");
        }
        assertThat(claim(filtered(EnumSet.of(InstanceStatus.ACTIVE, InstanceStatus.DRAINING))).gameServerId())
                .isEqualTo("gs-draining");
    }

    @Test
    void aNamedClaimTakesThatServerEvenWhenABetterOneIsFree() {
        serverOnInstance("gs-best", "i-old", 5);
        serverOnInstance("gs-named", "i-new", 1);
        assertThat(claim(named("gs-named")).gameServerId()).isEqualTo("gs-named");
        assertThat(fleet.server("gs-best").claimExpiresAt()).isNull();
    }

    @Test
    void aNamedClaimSaysWhyItIsRefused() {
        fleet.launch("i-1", C5);
        fleet.launch("i-draining", C5);
        fleet.setInstanceStatus(GROUP, "i-draining", InstanceStatus.DRAINING);
        for (String id : List.of("gs-claimed", "gs-utilized", "gs-interrupted", "gs-unhealthy")) {
            fleet.register(id, "i-1");
        }
        fleet.register("gs-draining", "i-draining");
        fleet.clock.advance(Fleet.HEALTH_TIMEOUT.plusMillis(1));
        for (String id : List.of("gs-claimed", "gs-utilized", "gs-interrupted", "gs-draining")) {
            fleet.heartbeat(id);
        }
        claim(named("gs-claimed"));
        fleet.utilize("gs-utilized");
        fleet.servers.setInstanceStatus(List.of(fleet.server("gs-interrupted")), InstanceStatus.SPOT_TERMINATING);

        fails(() -> claim(named("gs-claimed")), ErrorKind.CONFLICT, "game server gs-claimed cannot be claimed: it is already claimed");
        fails(() -> claim(named("gs-utilized")), ErrorKind.CONFLICT, "game server gs-utilized cannot be claimed: it is UTILIZED");
        fails(() -> claim(named("gs-interrupted")), ErrorKind.CONFLICT,
                "game server gs-interrupted cannot be claimed: it is on an instance that is being interrupted");
        fails(() -> claim(named("gs-unhealthy")), ErrorKind.CONFLICT,
                "game server gs-unhealthy cannot be claimed: it has not reported health within 60 seconds");
        fails(() -> claim(new Claim(GROUP, Optional.of("gs-draining"), Optional.empty(),
                Optional.of(EnumSet.of(InstanceStatus.ACTIVE)))), ErrorKind.CONFLICT,
                "game server gs-draining cannot be claimed: it is on a DRAINING instance, which FilterOption excludes");
        fails(() -> claim(named("gs-none")), ErrorKind.NOT_FOUND, "game server gs-none is not registered in game server group arena");
        assertThat(claim(named("gs-draining")).gameServerId()).isEqualTo("gs-draining");
    }

    @Test
    void aClaimLapsesAfterItsTtl() {
        serverOnInstance("gs-1", "i-1", 1);
        claim();
        outOfCapacity();

        fleet.clock.advance(CLAIM_TTL.minusMillis(1));
        outOfCapacity();
        fails(() -> claim(named("gs-1")), ErrorKind.CONFLICT, "game server gs-1 cannot be claimed: it is already claimed");

        fleet.clock.advance(Duration.ofMillis(1));
        assertThat(claim().claimExpiresAt()).isEqualTo(T0.plus(CLAIM_TTL).plus(CLAIM_TTL));
    }

    @Test
    void serversWithoutARecentHeartbeatAreNotClaimed() {
        serverOnInstance("gs-silent", "i-old", 5);
        serverOnInstance("gs-beating", "i-new", 1);
        fleet.clock.advance(Fleet.HEALTH_TIMEOUT.plusMillis(1));
        fleet.heartbeat("gs-beating");

        assertThat(claim().gameServerId()).isEqualTo("gs-beating");
        outOfCapacity();
    }

    @Test
    void serversOnAnInterruptedInstanceAreNotClaimed() {
        serverOnInstance("gs-1", "i-1", 1);
        fleet.events().spotInterruptionWarning("i-1", Optional.of(T0));
        outOfCapacity();
    }

    @Test
    void aGroupThatIsNotActiveRefusesClaimsEvenWithServersFree() {
        serverOnInstance("gs-1", "i-1", 1);
        fleet.groupService().delete(GROUP, DeleteOption.SAFE_DELETE);

        fails(this::claim, ErrorKind.CONFLICT, "ClaimGameServer needs an ACTIVE game server group; arena is DELETE_SCHEDULED");
        fails(() -> claim(named("gs-1")), ErrorKind.CONFLICT,
                "ClaimGameServer needs an ACTIVE game server group; arena is DELETE_SCHEDULED");
        fails(() -> fleet.claim("nowhere"), ErrorKind.NOT_FOUND, "game server group nowhere does not exist");
        assertThat(fleet.server("gs-1").claimExpiresAt()).isNull();
    }

    @Test
    void anEmptyGroupIsOutOfCapacity() {
        outOfCapacity();
    }

    // ---- contention ------------------------------------------------------------------------

    /** Counts of the claim-index queries (per instance status) and claim writes a claimer made. */
    private record Tally(List<InstanceStatus> queries, AtomicInteger writes) {}

    /** The fake, except that every claim write loses, as if another claimer always came first. */
    private GameServerService losingEveryRace(Tally tally) {
        return fleet.gameServers(Fleet.around(GameServerRepository.class, fleet.servers, (method, args, proceed) -> {
            if (method.equals("tryClaim")) {
                tally.writes().incrementAndGet();
                return Optional.empty();
            }
            if (method.equals("someClaimCandidates")) {
                tally.queries().add((InstanceStatus) args[1]);
            }
            return proceed.call();
        }));
    }

    @Test
    void aContendedClaimGivesUpAfterMaxClaimWrites() {
        fleet.launch("i-1", C5);
        fleet.launch("i-draining", C5);
        for (int n = 0; n < 30; n++) {
            fleet.register("gs-" + n, "i-1");
        }
        fleet.setInstanceStatus(GROUP, "i-draining", InstanceStatus.DRAINING);
        fleet.register("gs-draining", "i-draining");
        Tally tally = new Tally(new ArrayList<>(), new AtomicInteger());

        fails(() -> losingEveryRace(tally).claim(new Claim(GROUP, Optional.empty(), Optional.empty(), Optional.empty())),
                ErrorKind.OUT_OF_CAPACITY, "no game server of game server group arena can be claimed now");

        assertThat(tally.writes()).hasValue(GameServerService.MAX_CLAIM_WRITES).hasValue(8);
        assertThat(tally.queries()).as("one query had candidates enough; the DRAINING ones were never read")
                .containsExactly(InstanceStatus.ACTIVE);
    }

    @Test
    void aContendedClaimReadsTheIndexAgainAtMostMaxQueriesPerStatusTimes() {
        fleet.launch("i-1", C5);
        fleet.register("gs-a", "i-1");
        fleet.register("gs-b", "i-1");
        Tally tally = new Tally(new ArrayList<>(), new AtomicInteger());

        fails(() -> losingEveryRace(tally).claim(new Claim(GROUP, Optional.empty(), Optional.empty(), Optional.empty())),
                ErrorKind.OUT_OF_CAPACITY, "no game server of game server group arena can be claimed now");

        assertThat(ClaimCandidateCache.MAX_QUERIES_PER_STATUS).isEqualTo(3);
        assertThat(tally.queries()).containsExactly(InstanceStatus.ACTIVE, InstanceStatus.ACTIVE, InstanceStatus.ACTIVE,
                InstanceStatus.DRAINING);
        assertThat(tally.writes()).as("both candidates, once per query").hasValue(2 * 3);
    }

    @Test
    void aClaimerThatLosesTheRaceForTheBestServerTakesTheNext() {
        serverOnInstance("gs-best", "i-old", 5);
        serverOnInstance("gs-next", "i-new", 1);
        AtomicInteger writes = new AtomicInteger();
        GameServerService racing = fleet.gameServers(Fleet.around(GameServerRepository.class, fleet.servers,
                (method, args, proceed) -> {
                    if (method.equals("tryClaim") && writes.incrementAndGet() == 1) {
                        fleet.claim(GROUP); // another claimer's write lands first, on the same server
                    }
                    return proceed.call();
                }));

        assertThat(racing.claim(new Claim(GROUP, Optional.empty(), Optional.empty(), Optional.empty())).gameServerId())
                .isEqualTo("gs-next");
        assertThat(fleet.server("gs-best").claimExpiresAt()).as("the other claimer's").isNotNull();
        assertThat(writes).hasValue(2);
    }

    @Test
    void aNamedClaimThatLosesItsRaceIsAConflict() {
        serverOnInstance("gs-1", "i-1", 1);
        GameServerService racing = fleet.gameServers(Fleet.around(GameServerRepository.class, fleet.servers,
                (method, args, proceed) -> {
                    if (method.equals("tryClaim")) {
                        fleet.utilize("gs-1"); // its game started between the read and the write
                    }
                    return proceed.call();
                }));
        fails(() -> racing.claim(named("gs-1")), ErrorKind.CONFLICT,
                "game server gs-1 was changed by another request while being claimed; try again");
    }
}

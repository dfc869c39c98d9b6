package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static io.gamefleet.domain.Fleet.T0;
import static io.gamefleet.domain.GameServerServiceTest.fails;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.GameServerService.Claim;
import io.gamefleet.domain.SpotBalancer.GroupReport;
import io.gamefleet.domain.fakes.FakeCompute;
import io.gamefleet.domain.fakes.RecordingInstanceNotifier.Notice;
import io.gamefleet.domain.fakes.RecordingMetrics.UndeliveredNotice;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * PlayFab's maximum lifetime, on the fakes with a moved clock (Fleet's lifetimes, the catalog's
 * defaults: 240 hours, 23 of them guaranteed): from its end minus 23 hours an instance is retiring,
 * DRAINING, and takes no claim, by id or not; the balancer tells its agent at each run; at its end
 * it is replaced, protected or not, whatever its games.
 */
class InstanceLifetimeTest {
    private static final String SCALING_GROUP = Fleet.SETTINGS.autoScalingGroupName(GROUP);
    private static final String OLD = "i-0old000000000000";
    private static final String YOUNG = "i-0young0000000000";
    /** OLD launched at T0: it retires at T0 + 217 h and ends at T0 + 240 h. */
    private static final Instant RETIRING = T0.plus(Duration.ofHours(217));
    private static final Instant END = T0.plus(Duration.ofHours(240));

    private final Fleet fleet = new Fleet();
    private final FakeCompute compute = fleet.compute;

    private GameServerGroup group(GameServerProtectionPolicy protection, BalancingStrategy strategy) {
        return fleet.activeGroup(GROUP, b -> b.protectionPolicy(protection).balancingStrategy(strategy).maxSize(4));
    }

    private GameServerGroup group() {
        return group(GameServerProtectionPolicy.NO_PROTECTION, BalancingStrategy.SPOT_PREFERRED);
    }

    /** Moves the clock and has every server report health, as its process would all along. */
    private void at(Instant when) {
        fleet.clock.set(when);
        for (GameServer s : fleet.servers.listAll(GROUP)) {
            fleet.heartbeat(s.gameServerId());
        }
    }

    private InstanceStatus described(String instanceId) {
        return fleet.groupService().describeInstances(GROUP, Optional.of(List.of(instanceId)), 10, Optional.empty())
                .items().get(0).instanceStatus();
    }

    private GameServer claimById(String gameServerId) {
        return fleet.gameServers().claim(new Claim(GROUP, Optional.of(gameServerId), Optional.empty(), Optional.empty()));
    }

    private List<Notice> retiringNotices() {
        return fleet.notifier.delivered().stream().filter(n -> n.action().equals("retiring")).toList();
    }

    @Test
    void fromItsEndMinusTheGuaranteedLifetimeAnInstanceIsDrainingAndTakesNoClaimByIdOrNot() {
        group();
        fleet.launch(GROUP, OLD, C5, T0);
        fleet.register("gs-early", OLD);
        fleet.register("gs-late", OLD);

        at(RETIRING.minusMillis(1));
        assertThat(described(OLD)).isEqualTo(InstanceStatus.ACTIVE);
        assertThat(claimById("gs-early").gameServerId()).as("23 hours and a millisecond left").isEqualTo("gs-early");

        at(RETIRING);
        assertThat(described(OLD)).as("exact: before any balancer run records it").isEqualTo(InstanceStatus.DRAINING);
        fails(() -> claimById("gs-late"), ErrorKind.CONFLICT, "game server gs-late cannot be claimed: it is on an instance"
                + " that is retiring: its maximum lifetime ends at " + END + ", less than the guaranteed PT23H from now");
        fails(() -> fleet.claim(GROUP), ErrorKind.OUT_OF_CAPACITY,
                "no game server of game server group arena can be claimed now");
        assertThat(fleet.server("gs-late").claimExpiresAt()).isNull();

        // Recorded DRAINING by the balancer, its server is a DRAINING one: still no claim lands on it.
        fleet.balancer().run(fleet.group(GROUP));
        assertThat(fleet.instances.find(GROUP, OLD).orElseThrow().instanceStatus()).isEqualTo(InstanceStatus.DRAINING);
        assertThat(fleet.server("gs-late").instanceStatus()).isEqualTo(InstanceStatus.DRAINING);
        fails(() -> fleet.claim(GROUP), ErrorKind.OUT_OF_CAPACITY,
                "no game server of game server group arena can be claimed now");
    }

    /** Packing puts the oldest instance's servers first: a claim passes over them to a younger instance. */
    @Test
    void aClaimWithoutAnIdLandsOnAYoungerInstance() {
        group();
        fleet.launch(GROUP, OLD, C5, T0);
        fleet.launch(GROUP, YOUNG, C5, T0.plus(Duration.ofHours(100)));
        fleet.register("gs-old-1", OLD);
        fleet.register("gs-old-2", OLD);
        fleet.register("gs-young", YOUNG);

        at(RETIRING.minusSeconds(1));
        assertThat(fleet.claim(GROUP).gameServerId()).as("packed onto the oldest").isEqualTo("gs-old-1");
        at(RETIRING);
        assertThat(fleet.claim(GROUP).gameServerId()).isEqualTo("gs-young");
        assertThat(fleet.server("gs-old-2").claimExpiresAt()).isNull();
    }

    /** A candidate read from the claim index before the instance retired is refused by the write itself. */
    @Test
    void theClaimsOwnWriteRefusesAServerThatRetiredSinceItWasRead() {
        group();
        fleet.launch(GROUP, OLD, C5, T0);
        fleet.register("gs-1", OLD);
        at(RETIRING.minusMillis(1));
        GameServer candidate = fleet.servers.claimCandidates(GROUP, InstanceStatus.ACTIVE, fleet.clock.instant(),
                fleet.clock.instant().minusSeconds(60), 10).servers().get(0);
        Instant now = RETIRING;
        GameServerRepository.ClaimCondition condition = new GameServerRepository.ClaimCondition(now, now.minusSeconds(60),
                Set.of(InstanceStatus.ACTIVE, InstanceStatus.DRAINING), Fleet.LIFETIME.retiringLaunchedBy(now));
        assertThat(fleet.servers.tryClaim(candidate, condition, now.plusSeconds(60), Optional.empty())).isEmpty();
    }

    /**
     * Told from the last run before its retirement begins (a balancer period early, never late: its
     * servers hear of the end at least the guaranteed lifetime before it), DRAINING from its start.
     */
    @Test
    void theBalancerDrainsItAndTellsItsAgentAtEachRunUntilItsEnd() {
        GameServerGroup g = group();
        fleet.launch(GROUP, OLD, C5, T0);
        fleet.register("gs-1", OLD);
        at(RETIRING.minus(Fleet.BALANCER_PERIOD).minusSeconds(1));
        fleet.pushConnections().connect(Caller.onInstance(OLD), GROUP, OLD, "conn-1", OptionalInt.empty());
        assertThat(fleet.balancer().run(g).retired()).isEmpty();
        assertThat(retiringNotices()).as("more than a period before its retirement").isEmpty();

        at(RETIRING.minusSeconds(30));
        assertThat(fleet.balancer().run(g).retired()).as("not retiring yet").isEmpty();
        assertThat(retiringNotices()).as("the last run before it").singleElement().satisfies(n -> {
            assertThat(n.connectionId()).isEqualTo("conn-1");
            assertThat(n.instance().instanceId()).isEqualTo(OLD);
            assertThat(n.retiresAt()).isEqualTo(END);
        });

        at(RETIRING);
        GroupReport first = fleet.balancer().run(g);
        assertThat(first.retired()).containsExactly(OLD);
        assertThat(fleet.log).anyMatch(l -> l.contains("instance " + OLD + " of group arena is retiring: its maximum"
                + " lifetime ends at " + END));
        assertThat(retiringNotices()).hasSize(2);
        at(RETIRING.plusSeconds(60));
        assertThat(fleet.balancer().run(g).retired()).as("once DRAINING, not again").isEmpty();
        assertThat(retiringNotices()).as("a notice at each run, a lost one made good by the next").hasSize(3);
        at(END.minusMillis(1));
        fleet.pushConnections().connect(Caller.onInstance(OLD), GROUP, OLD, "conn-2", OptionalInt.empty()); // the agent reconnects every 2 h
        fleet.balancer().run(g);
        assertThat(retiringNotices()).hasSize(4).last().extracting(Notice::connectionId).isEqualTo("conn-2");

        at(END);
        GroupReport last = fleet.balancer().run(g);
        assertThat(last.terminated()).containsExactly(OLD);
        assertThat(retiringNotices()).as("ended: no more notices").hasSize(4);
    }

    /**
     * An idle retiring instance waits for its end (the Spot rule ends only those it drained), and
     * is replaced there: desired capacity kept, so its scaling group launches another.
     */
    @Test
    void itLivesToItsEndIdleAndIsReplacedThereWithDesiredCapacityKept() {
        GameServerGroup g = group();
        fleet.launch(GROUP, OLD, C5, T0);
        fleet.launch(GROUP, YOUNG, C5, T0.plus(Duration.ofHours(200)));
        fleet.register("gs-old", OLD);
        for (Instant t = RETIRING; t.isBefore(END); t = t.plus(Duration.ofHours(1))) {
            at(t);
            assertThat(fleet.balancer().run(g).terminated()).as("at %s", t).isEmpty();
        }
        int desired = fleet.scalingGroup(GROUP).desiredCapacity();

        at(END);
        assertThat(fleet.balancer().run(g).terminated()).containsExactly(OLD);
        assertThat(compute.calls(FakeCompute.TERMINATE_INSTANCE)).containsExactly(List.of(SCALING_GROUP, OLD, false));
        assertThat(fleet.scalingGroup(GROUP).desiredCapacity()).isEqualTo(desired);
        assertThat(fleet.instances.find(GROUP, OLD)).isEmpty();
        assertThat(fleet.servers.onInstance(OLD)).isEmpty();
        assertThat(fleet.log).anyMatch(l -> l.contains("ended instance " + OLD + " of group arena at the end of its"
                + " maximum lifetime (launched " + T0 + "); its scaling group launches its replacement"));
    }

    /** Auto Scaling's own MaxInstanceLifetime passes over a protected instance: the balancer does not. */
    @Test
    void aProtectedInstanceWithAGameIsEndedAtItsEndAllTheSame() {
        GameServerGroup g = group(GameServerProtectionPolicy.FULL_PROTECTION, BalancingStrategy.SPOT_PREFERRED);
        fleet.launch(GROUP, OLD, C5, T0);
        fleet.register("gs-1", OLD);
        at(RETIRING.minusSeconds(1));
        claimById("gs-1");
        fleet.utilize("gs-1");
        fleet.balancer().run(g);
        assertThat(fleet.scalingGroup(GROUP).instances()).singleElement().extracting(ComputeInstance::protectedFromScaleIn)
                .isEqualTo(true);

        at(END.minusMillis(1));
        assertThat(fleet.balancer().run(g).terminated()).as("its match plays on").isEmpty();
        at(END);
        assertThat(fleet.balancer().run(g).terminated()).containsExactly(OLD);
        assertThat(compute.calls(FakeCompute.TERMINATE_INSTANCE)).containsExactly(List.of(SCALING_GROUP, OLD, false));
    }

    /** Drained for Spot, its replacement already launched: it goes with the decrement. */
    @Test
    void anInstanceDrainedWithItsReplacementEndsWithTheDecrement() {
        GameServerGroup g = group();
        fleet.launch(GROUP, OLD, C5, T0);
        fleet.register("gs-1", OLD);
        at(RETIRING.minusSeconds(1));
        claimById("gs-1");
        fleet.utilize("gs-1"); // a game keeps the drained instance until its end
        fleet.drain(GROUP, OLD);
        int desired = fleet.scalingGroup(GROUP).desiredCapacity();

        at(END);
        fleet.balancer().run(g);
        assertThat(compute.calls(FakeCompute.TERMINATE_INSTANCE)).containsExactly(List.of(SCALING_GROUP, OLD, true));
        assertThat(fleet.scalingGroup(GROUP).desiredCapacity()).isEqualTo(desired - 1);
    }

    @Test
    void lifetimesHoldForGroupsThatAreNotBalanced() {
        GameServerGroup g = group(GameServerProtectionPolicy.NO_PROTECTION, BalancingStrategy.ON_DEMAND_ONLY);
        fleet.launch(GROUP, OLD, C5, T0);
        at(RETIRING);
        assertThat(fleet.balancer().run(g).retired()).containsExactly(OLD);
        at(END);
        assertThat(fleet.balancer().run(g).terminated()).containsExactly(OLD);
    }

    @Test
    void anInterruptedInstancePastItsEndIsLeftToItsInterruption() {
        GameServerGroup g = group();
        fleet.launch(GROUP, OLD, C5, T0);
        at(END.minusSeconds(30));
        fleet.events().spotInterruptionWarning(OLD, Optional.of(END.minusSeconds(30)));
        at(END);
        assertThat(fleet.balancer().run(g).terminated()).isEmpty();
        assertThat(compute.calls(FakeCompute.TERMINATE_INSTANCE)).isEmpty();
    }

    /** No claim lands on them: target tracking must not take them for capacity. */
    @Test
    void aRetiringInstancesAvailableServersAreNotCountedAvailableItsGamesAreDrainingUtilized() {
        GameServerGroup g = group();
        fleet.launch(GROUP, OLD, C5, T0);
        fleet.launch(GROUP, YOUNG, C5, T0.plus(Duration.ofHours(100)));
        fleet.register("gs-idle", OLD);
        fleet.register("gs-game", OLD);
        fleet.register("gs-young", YOUNG);
        at(RETIRING.minusSeconds(1));
        claimById("gs-game");
        fleet.utilize("gs-game");
        at(RETIRING);
        fleet.balancer().run(g);
        assertThat(fleet.metrics.lastCounts(GROUP)).contains(new Metrics.GameServerCounts(1, 1, 0, 1));
    }

    @Test
    void aGoneConnectionIsClearedAndAnUnreachableChannelLeavesTheRunsOtherNoticesToTheNextRun() {
        GameServerGroup g = group();
        fleet.launch(GROUP, OLD, C5, T0);
        fleet.launch(GROUP, YOUNG, C5, T0);
        at(RETIRING);
        fleet.pushConnections().connect(Caller.onInstance(OLD), GROUP, OLD, "conn-old", OptionalInt.empty());
        fleet.pushConnections().connect(Caller.onInstance(YOUNG), GROUP, YOUNG, "conn-young", OptionalInt.empty());
        fleet.notifier.close("conn-old");
        fleet.balancer().run(g);
        assertThat(fleet.instances.find(GROUP, OLD).orElseThrow().pushConnectionId()).as("cleared at its 410").isNull();
        assertThat(retiringNotices()).extracting(Notice::connectionId).containsExactly("conn-young");
        assertThat(fleet.metrics.undeliveredNotices()).containsExactly(new UndeliveredNotice(GROUP, "retiring"));

        fleet.pushConnections().connect(Caller.onInstance(OLD), GROUP, OLD, "conn-old-2", OptionalInt.empty());
        fleet.notifier.failing(true);
        int before = fleet.notifier.posts();
        fleet.balancer().run(g);
        assertThat(fleet.notifier.posts() - before).as("one post tried, then the channel is left for this run").isEqualTo(1);
        fleet.notifier.failing(false);
        fleet.balancer().run(g);
        assertThat(retiringNotices()).extracting(Notice::connectionId).containsExactlyInAnyOrder("conn-young",
                "conn-old-2", "conn-young");
    }

    @Test
    void withoutAMaximumLifetimeNothingRetires() {
        fleet.withLifetime(InstanceLifetime.UNLIMITED);
        GameServerGroup g = group();
        fleet.launch(GROUP, OLD, C5, T0);
        fleet.register("gs-1", OLD);
        at(T0.plus(Duration.ofDays(1000)));
        assertThat(described(OLD)).isEqualTo(InstanceStatus.ACTIVE);
        assertThat(fleet.balancer().run(g).terminated()).isEmpty();
        assertThat(fleet.claim(GROUP).gameServerId()).isEqualTo("gs-1");
    }

    /** The lifetime counts from EC2's launch time, which the balancer records with a new instance. */
    @Test
    void aNewInstanceIsRecordedWithEc2sLaunchTime() {
        GameServerGroup g = group();
        at(T0);
        Instant launched = T0.minus(Duration.ofMinutes(7));
        compute.addInstance(SCALING_GROUP, new ComputeInstance(YOUNG, C5, "us-east-1a", true, false), launched);
        fleet.balancer().run(g);
        assertThat(fleet.instances.find(GROUP, YOUNG).orElseThrow().launchTime()).isEqualTo(launched);
    }
}

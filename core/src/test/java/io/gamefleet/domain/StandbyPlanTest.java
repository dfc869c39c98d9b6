package io.gamefleet.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.StandbyPolicy.Buffer;
import io.gamefleet.domain.StandbyPolicy.DynamicTier;
import io.gamefleet.domain.StandbyPolicy.Window;
import io.gamefleet.domain.StandbyState.HeldTier;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StandbyPlanTest {
    private static final Instant T0 = Instant.parse("2026-12-24T18:00:00Z");
    private static final Duration COOLDOWN = Duration.ofMinutes(5);
    private static final Duration RAMP_DOWN = Duration.ofMinutes(30);

    private static StandbyPolicy buffer(int servers, DynamicTier... tiers) {
        return new StandbyPolicy(Buffer.count(servers), List.of(tiers), RAMP_DOWN, List.of(), COOLDOWN);
    }

    /** A group of 8 servers per instance, sizes 0 to 20, no instance that takes no claim. */
    private static StandbyPlan.View view(Instant now, long inUse, long standingBy, int desired, String... idle) {
        return new StandbyPlan.View(now, inUse, inUse, standingBy, 8, 0, desired, 0, 20, List.of(idle));
    }

    @Test
    void desiredCapacityIsTheServersInUseAndTheBufferOverTheServersPerInstance() {
        // (20 in use + 10) / 8 = 3.75: four instances.
        StandbyPlan plan = StandbyPlan.decide(buffer(10), StandbyState.initial(), view(T0, 20, 4, 3));

        assertThat(plan.raiseTo()).contains(4);
        assertThat(plan.scaleIn()).isEmpty();
        assertThat(plan.next().lastEvaluation().orElseThrow().target()).isEqualTo(10);
        assertThat(plan.next().lastEvaluation().orElseThrow().desiredCapacity()).isEqualTo(4);
    }

    @Test
    void instancesThatTakeNoClaimAreAddedAndTheSizesBound() {
        // 2 draining instances hold 10 of the 30 servers in use; 20 + 10 on claimable ones: 4, plus the 2.
        StandbyPlan plan = StandbyPlan.decide(buffer(10), StandbyState.initial(),
                new StandbyPlan.View(T0, 30, 20, 4, 8, 2, 3, 0, 20, List.of()));
        assertThat(plan.raiseTo()).contains(6);

        StandbyPlan capped = StandbyPlan.decide(buffer(1_000), StandbyState.initial(), view(T0, 0, 0, 3));
        assertThat(capped.raiseTo()).contains(20);
        StandbyPlan floored = StandbyPlan.decide(buffer(0), StandbyState.initial(),
                new StandbyPlan.View(T0, 0, 0, 0, 8, 0, 1, 1, 20, List.of("i-1")));
        assertThat(floored.raiseTo()).isEmpty();
        assertThat(floored.scaleIn()).isEmpty();
    }

    @Test
    void beforeAnyServerRegisteredOneInstanceIsAskedForAndNoneEnded() {
        StandbyPlan first = StandbyPlan.decide(buffer(10), StandbyState.initial(),
                new StandbyPlan.View(T0, 0, 0, 0, 0, 0, 0, 0, 20, List.of()));
        assertThat(first.raiseTo()).contains(1);

        StandbyPlan launching = StandbyPlan.decide(buffer(0), StandbyState.initial(),
                new StandbyPlan.View(T0.plus(Duration.ofHours(1)), 0, 0, 0, 0, 0, 3, 0, 20, List.of("i-1", "i-2")));
        assertThat(launching.raiseTo()).isEmpty();
        assertThat(launching.scaleIn()).isEmpty();
    }

    @Test
    void capacityShrinksOnlyAfterTheCooldownAndOnlyByIdleInstances() {
        // 5 instances where 2 are needed (4 in use + 10 standby over 8): a surplus of 3, two of them idle.
        StandbyPlan first = StandbyPlan.decide(buffer(10), StandbyState.initial(), view(T0, 4, 36, 5, "i-5", "i-4"));
        assertThat(first.scaleIn()).isEmpty();
        assertThat(first.next().surplusSince()).contains(T0);

        StandbyPlan early = StandbyPlan.decide(buffer(10), first.next(),
                view(T0.plus(COOLDOWN).minusSeconds(1), 4, 36, 5, "i-5", "i-4"));
        assertThat(early.scaleIn()).isEmpty();
        assertThat(early.next().surplusSince()).contains(T0);

        StandbyPlan due = StandbyPlan.decide(buffer(10), early.next(), view(T0.plus(COOLDOWN), 4, 36, 5, "i-5", "i-4"));
        assertThat(due.scaleIn()).containsExactly("i-5", "i-4");
        assertThat(due.next().lastEvaluation().orElseThrow().desiredCapacity()).isEqualTo(3);
        // One surplus instance holds a game: the cooldown is served, so it ends as soon as it is idle.
        assertThat(due.next().surplusSince()).contains(T0);

        StandbyPlan later = StandbyPlan.decide(buffer(10), due.next(), view(T0.plus(COOLDOWN).plusSeconds(60), 4, 20, 3,
                "i-3"));
        assertThat(later.scaleIn()).containsExactly("i-3");
        assertThat(later.next().surplusSince()).isEmpty();
    }

    @Test
    void aSurplusThatEndsBeforeTheCooldownStartsItAgain() {
        StandbyPlan surplus = StandbyPlan.decide(buffer(10), StandbyState.initial(), view(T0, 4, 36, 5, "i-5"));
        StandbyPlan busy = StandbyPlan.decide(buffer(10), surplus.next(), view(T0.plusSeconds(60), 30, 10, 5));
        assertThat(busy.next().surplusSince()).isEmpty();

        StandbyPlan again = StandbyPlan.decide(buffer(10), busy.next(), view(T0.plus(COOLDOWN), 4, 36, 5, "i-5"));
        assertThat(again.scaleIn()).isEmpty();
        assertThat(again.next().surplusSince()).contains(T0.plus(COOLDOWN));
    }

    @Test
    void aDynamicTierMultipliesTheBufferAndHoldsForItsRampDown() {
        StandbyPolicy p = buffer(10, new DynamicTier(50, 2), new DynamicTier(20, 3));

        // 4 StandingBy of 10: below 50%, twice the buffer.
        StandbyPlan low = StandbyPlan.decide(p, StandbyState.initial(), view(T0, 40, 4, 6));
        assertThat(low.next().lastEvaluation().orElseThrow().target()).isEqualTo(20);
        assertThat(low.raiseTo()).contains(8); // (40 + 20) / 8 = 7.5
        assertThat(low.next().heldTier()).contains(new HeldTier(2, T0.plus(RAMP_DOWN)));

        // Refilled: the tier holds until its ramp-down ends, so nothing shrinks back at once.
        StandbyPlan refilled = StandbyPlan.decide(p, low.next(), view(T0.plus(RAMP_DOWN).minusSeconds(1), 40, 24, 8));
        assertThat(refilled.next().lastEvaluation().orElseThrow().target()).isEqualTo(20);
        assertThat(refilled.raiseTo()).isEmpty();
        assertThat(refilled.next().surplusSince()).isEmpty();

        StandbyPlan rampedDown = StandbyPlan.decide(p, refilled.next(), view(T0.plus(RAMP_DOWN), 40, 24, 8, "i-8"));
        assertThat(rampedDown.next().lastEvaluation().orElseThrow().target()).isEqualTo(10);
        assertThat(rampedDown.next().heldTier()).isEmpty();
        assertThat(rampedDown.scaleIn()).isEmpty(); // the cooldown starts now
        assertThat(rampedDown.next().surplusSince()).contains(T0.plus(RAMP_DOWN));

        // The deeper tier wins over a held shallower one.
        StandbyPlan deeper = StandbyPlan.decide(p, low.next(), view(T0.plusSeconds(60), 40, 1, 8));
        assertThat(deeper.next().lastEvaluation().orElseThrow().multiplier()).isEqualTo(3);
        assertThat(deeper.next().lastEvaluation().orElseThrow().target()).isEqualTo(30);
    }

    @Test
    void aScheduleWindowSetsTheBufferWhileItLasts() {
        StandbyPolicy p = new StandbyPolicy(Buffer.count(10), List.of(), RAMP_DOWN,
                List.of(new Window(T0, T0.plus(Duration.ofHours(2)), Buffer.count(40))), COOLDOWN);

        assertThat(StandbyPlan.decide(p, StandbyState.initial(), view(T0.minusSeconds(1), 0, 10, 2)).raiseTo()).isEmpty();
        assertThat(StandbyPlan.decide(p, StandbyState.initial(), view(T0, 0, 10, 2)).raiseTo()).contains(5);
    }

    @Test
    void aPercentageBufferGrowsWithTheServersInUse() {
        StandbyPolicy p = new StandbyPolicy(Buffer.percentOfServers(20), List.of(), RAMP_DOWN, List.of(), COOLDOWN);
        // 20% of all: 40 in use, 10 StandingBy: (40 + 10) / 8 = 6.25, seven instances.
        StandbyPlan plan = StandbyPlan.decide(p, StandbyState.initial(), view(T0, 40, 2, 6));
        assertThat(plan.next().lastEvaluation().orElseThrow().target()).isEqualTo(10);
        assertThat(plan.raiseTo()).contains(7);
        assertThat(plan.next().heldTier()).isEqualTo(Optional.empty());
    }
}

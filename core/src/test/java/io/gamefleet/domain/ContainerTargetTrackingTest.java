package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.Compute.ScalingGroupState;
import io.gamefleet.domain.ContainerTargetTracking.View;
import io.gamefleet.domain.Metrics.GameServerCounts;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Target tracking's rule for a container group, as the balancer applies it ({@link ContainerTargetTracking}). */
class ContainerTargetTrackingTest {
    private static final AutoScalingPolicy HALF = new AutoScalingPolicy(null, 50);

    /** Desired {@code desired} of sizes 1 to 10, {@code counted} tasks counted, no game, not held off. */
    private static View view(int desired, int counted, GameServerCounts counts, List<String> idle) {
        return new View(desired, 1, 10, counted, 0, counts, false, idle);
    }

    private static List<String> tasks(int n) {
        return IntStream.rangeClosed(1, n).mapToObj(i -> "t-" + i).toList();
    }

    @Test
    void scaleOutIsTheCountedTasksTimesUtilizationOverTheTarget() {
        // 4 tasks, 3 of their 4 servers utilized (75%), target 50%: ceil(4 × 75 ÷ 50) = 6.
        ContainerTargetTracking t = ContainerTargetTracking.decide(HALF, view(4, 4, new GameServerCounts(1, 3, 0, 0), tasks(1)));
        assertThat(t.wanted()).isEqualTo(6);
        assertThat(t.raiseTo()).contains(6);
        assertThat(t.scaleIn()).isEmpty();
    }

    @Test
    void aWholeNumberInFloatingPointIsNotRoundedUpPastIt() {
        // 11 tasks, 1 of 11 servers utilized: 11 × 9.0909…% ÷ 50% is 2.0000000000000004 in doubles: two tasks, not three.
        ContainerTargetTracking t = ContainerTargetTracking.decide(HALF,
                new View(11, 1, 20, 11, 0, new GameServerCounts(10, 1, 0, 0), false, tasks(11)));
        assertThat(t.wanted()).isEqualTo(2);
        assertThat(t.scaleIn()).hasSize(9);
    }

    @Test
    void scaleInEndsIdleTasksInTheirOrderDownToTheWantedCount() {
        // 4 tasks, 1 of 4 servers utilized (25%), target 50%: 2 tasks; the first two idle ones go.
        ContainerTargetTracking t = ContainerTargetTracking.decide(HALF,
                view(4, 4, new GameServerCounts(3, 1, 0, 0), List.of("t-4", "t-3", "t-2")));
        assertThat(t.wanted()).isEqualTo(2);
        assertThat(t.raiseTo()).isEmpty();
        assertThat(t.scaleIn()).containsExactly("t-4", "t-3");
    }

    @Test
    void theSizesAndTheTasksWithGamesBoundIt() {
        GameServerCounts full = new GameServerCounts(0, 8, 0, 0);
        assertThat(ContainerTargetTracking.decide(HALF, view(8, 8, full, List.of())).raiseTo()).as("MaxSize").contains(10);
        GameServerCounts none = new GameServerCounts(8, 0, 0, 0);
        assertThat(ContainerTargetTracking.decide(HALF, view(3, 3, none, tasks(3))).scaleIn()).as("MinSize").hasSize(2);
        View threeWithGames = new View(5, 1, 10, 5, 3, new GameServerCounts(20, 0, 0, 0), false, tasks(2));
        ContainerTargetTracking t = ContainerTargetTracking.decide(HALF, threeWithGames);
        assertThat(t.wanted()).isEqualTo(3);
        assertThat(t.scaleIn()).containsExactly("t-1", "t-2");
    }

    @Test
    void noScaleInWhileTheStandbyBufferHoldsItOffButScaleOutStill() {
        View heldOff = new View(4, 1, 10, 4, 0, new GameServerCounts(3, 1, 0, 0), true, tasks(4));
        assertThat(ContainerTargetTracking.decide(HALF, heldOff).scaleIn()).isEmpty();

        View high = new View(4, 1, 10, 4, 0, new GameServerCounts(0, 4, 0, 0), true, List.of());
        assertThat(ContainerTargetTracking.decide(HALF, high).raiseTo()).contains(8);
    }

    @Test
    void aTargetOfZeroWantsMaxSizeWhileAnyServerIsUtilizedAndChangesNothingWhileNone() {
        AutoScalingPolicy zero = new AutoScalingPolicy(null, 0);
        assertThat(ContainerTargetTracking.decide(zero, view(2, 2, new GameServerCounts(5, 1, 0, 0), List.of())).raiseTo())
                .contains(10);
        ContainerTargetTracking none = ContainerTargetTracking.decide(zero, view(2, 2, new GameServerCounts(6, 0, 0, 0), tasks(2)));
        assertThat(none.raiseTo()).isEmpty();
        assertThat(none.scaleIn()).isEmpty();
    }

    @Test
    void theViewCountsTasksWithARegisteredServerOrPastTheirWarmUpAndLeavesInterruptedOnesOut() {
        Instant now = T0.plus(Duration.ofHours(1));
        AutoScalingPolicy warmup = new AutoScalingPolicy(120, 50);
        ScalingGroupState service = new ScalingGroupState(8, 1, 10, List.of(), false, List.of(
                task("t-old", true), task("t-older", true), task("t-warming", true), task("t-started", true),
                task("t-pending", false), task("t-interrupted", true), task("t-unrecorded", true), task("t-claimed", true)));
        Map<String, GameServerInstance> recorded = Map.of(
                "t-old", recorded("t-old", InstanceStatus.ACTIVE, now.minusSeconds(120)),
                "t-older", recorded("t-older", InstanceStatus.ACTIVE, now.minusSeconds(600)),
                "t-warming", recorded("t-warming", InstanceStatus.ACTIVE, now.minusSeconds(119)),
                "t-started", recorded("t-started", InstanceStatus.ACTIVE, now.minusSeconds(600)),
                "t-pending", recorded("t-pending", InstanceStatus.ACTIVE, now.minusSeconds(600)),
                "t-interrupted", recorded("t-interrupted", InstanceStatus.SPOT_TERMINATING, now.minusSeconds(600)),
                "t-claimed", recorded("t-claimed", InstanceStatus.ACTIVE, now.minusSeconds(10)));
        List<GameServer> servers = List.of(server("gs-1", "t-older", UtilizationStatus.UTILIZED, null),
                server("gs-2", "t-interrupted", UtilizationStatus.UTILIZED, null),
                server("gs-3", "t-claimed", UtilizationStatus.AVAILABLE, now.plusSeconds(30)),
                server("gs-4", "t-old", UtilizationStatus.AVAILABLE, now.minusSeconds(1)));
        GameServerCounts counts = new GameServerCounts(2, 1, 0, 0);

        View v = ContainerTargetTracking.view(warmup, service, recorded, servers, counts, true, now);

        assertThat(v.countedTasks()).as("t-old, t-older, t-claimed (servers), t-started (warmed up)").isEqualTo(4);
        assertThat(v.tasksWithGames()).as("t-older (utilized) and t-claimed (claimed)").isEqualTo(2);
        assertThat(v.idleTasks()).as("in service, recorded ACTIVE, no game, newest first")
                .containsExactly("t-warming", "t-old", "t-started");
        assertThat(v.scaleInHeldOff()).isTrue();
        assertThat(v.desiredCount()).isEqualTo(8);
        assertThat(v.counts()).isSameAs(counts);

        View noWarmup = ContainerTargetTracking.view(HALF, service, recorded, servers, counts, false, now);
        assertThat(noWarmup.countedTasks()).as("without a warm-up, only tasks with a server").isEqualTo(3);
    }

    /**
     * Whatever the counts and the policy: the count it leads to is within the sizes and never below
     * the tasks with games (when the sizes allow them), it raises only above the desired count and
     * ends only idle tasks, and none while the buffer holds scale-in off.
     */
    @Property
    void itStaysWithinItsBoundsAndScalesInOnlyWhenAllowed(@ForAll @IntRange(max = 20) int minSize,
            @ForAll @IntRange(max = 40) int extra, @ForAll @IntRange(max = 60) int desiredOffset,
            @ForAll @IntRange(max = 60) int counted,
            @ForAll @IntRange(max = 60) int withGames, @ForAll @IntRange(max = 500) int available,
            @ForAll @IntRange(max = 500) int utilized, @ForAll @DoubleRange(max = 150) double target,
            @ForAll boolean heldOff, @ForAll @IntRange(max = 60) int idleCount) {
        int maxSize = Math.max(1, minSize + extra);
        int desired = Math.min(maxSize, minSize + desiredOffset);
        int games = Math.min(withGames, desired);
        List<String> idle = tasks(Math.min(idleCount, desired - games));
        View v = new View(desired, minSize, maxSize, counted, games, new GameServerCounts(available, utilized, 0, 0),
                heldOff, idle);

        ContainerTargetTracking t = ContainerTargetTracking.decide(new AutoScalingPolicy(null, target), v);

        int after = t.raiseTo().orElse(desired - t.scaleIn().size());
        assertThat(after).isBetween(Math.min(minSize, maxSize), maxSize);
        assertThat(after).isGreaterThanOrEqualTo(Math.min(games, maxSize));
        t.raiseTo().ifPresent(r -> assertThat(r).isGreaterThan(desired));
        assertThat(t.raiseTo().isPresent() && !t.scaleIn().isEmpty()).isFalse();
        assertThat(idle).containsAll(t.scaleIn());
        if (heldOff) {
            assertThat(t.scaleIn()).isEmpty();
        }
    }

    private static ComputeInstance task(String id, boolean inService) {
        return new ComputeInstance(id, "FARGATE_SPOT", "us-east-1a", inService, false);
    }

    private static GameServerInstance recorded(String id, InstanceStatus status, Instant launched) {
        return new GameServerInstance("arena-tasks", id, status, "FARGATE_SPOT", "us-east-1a", launched, false);
    }

    private static GameServer server(String id, String task, UtilizationStatus status, Instant claimExpiresAt) {
        return GameServer.builder().gameServerGroupName("arena-tasks").gameServerId(id).instanceId(task)
                .utilizationStatus(status).claimExpiresAt(claimExpiresAt).build();
    }
}

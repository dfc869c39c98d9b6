package io.gamefleet.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.BalancePlan.InstanceTypeChange;
import io.gamefleet.domain.BalancePlan.InstanceView;
import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.Compute.ScalingGroupState;
import io.gamefleet.domain.ContainerCompute.ContainerCapacity;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The Spot balancing rules, step by step through FleetIQ's worked example (m4, c4, c5). */
class BalancePlanTest {
    private static final List<InstanceDefinition> TYPES = List.of(new InstanceDefinition("m4.large", null),
            new InstanceDefinition("c4.large", null), new InstanceDefinition("c5.large", null));
    private static final double THRESHOLD = 0.2;

    private static GameServerGroup group(BalancingStrategy strategy, GameServerProtectionPolicy protection) {
        return GameServerGroup.builder().name("arena").instanceDefinitions(TYPES).balancingStrategy(strategy)
                .protectionPolicy(protection).status(GameServerGroupStatus.ACTIVE).minSize(1).maxSize(12).build();
    }

    private static InstanceView view(String id, String type, InstanceStatus status, boolean games, boolean inService,
            boolean protectedFromScaleIn) {
        return new InstanceView(new ComputeInstance(id, type, "us-east-1a", inService, protectedFromScaleIn),
                status, games, false);
    }

    /** Step 1: two of each type, four with UTILIZED game servers (protected), two idle. */
    private static List<InstanceView> stepOne() {
        return List.of(
                view("m4-a", "m4.large", InstanceStatus.ACTIVE, true, true, true),
                view("m4-b", "m4.large", InstanceStatus.ACTIVE, false, true, false),
                view("c4-a", "c4.large", InstanceStatus.ACTIVE, true, true, true),
                view("c4-b", "c4.large", InstanceStatus.ACTIVE, false, true, false),
                view("c5-a", "c5.large", InstanceStatus.ACTIVE, true, true, true),
                view("c5-b", "c5.large", InstanceStatus.ACTIVE, true, true, true));
    }

    private static ScalingGroupState scaling(int desired, List<InstanceDefinition> types, List<InstanceView> views) {
        return new ScalingGroupState(desired, 1, 12, types, false, views.stream().map(InstanceView::instance).toList());
    }

    private static final List<InstanceDefinition> ALL_TYPES = TYPES;

    @Test
    void aQuietGroupIsLeftAlone() {
        GameServerGroup g = group(BalancingStrategy.SPOT_PREFERRED, GameServerProtectionPolicy.FULL_PROTECTION);
        BalancePlan plan = BalancePlan.decide(g, scaling(6, ALL_TYPES, stepOne()), stepOne(), Map.of(), THRESHOLD);
        assertThat(plan.nonViableTypes()).isEmpty();
        assertThat(plan.instanceTypes()).isEmpty();
        assertThat(plan.drain()).isEmpty();
        assertThat(plan.desiredCapacity()).isEmpty();
        assertThat(ids(plan.terminate())).isEmpty();
        assertThat(plan.protection()).isEmpty();
    }

    @Test
    void theWorkedExampleStepByStep() {
        GameServerGroup g = group(BalancingStrategy.SPOT_PREFERRED, GameServerProtectionPolicy.FULL_PROTECTION);
        Map<String, Long> c4Interrupted = Map.of("c4.large", 1L);

        // Step 2 and 3: c4.large is not viable (1 interruption among 3 instances > 0.2): it leaves the
        // instance types, both c4 instances drain, and desired grows by two so replacements launch.
        BalancePlan step3 = BalancePlan.decide(g, scaling(6, ALL_TYPES, stepOne()), stepOne(), c4Interrupted, THRESHOLD);
        assertThat(step3.nonViableTypes()).containsExactly("c4.large");
        assertThat(step3.instanceTypes()).map(InstanceTypeChange::definitions).get().asList()
                .extracting("instanceType").containsExactly("m4.large", "c5.large");
        assertThat(step3.drain()).containsExactly("c4-a", "c4-b");
        assertThat(step3.desiredCapacity()).contains(8);
        assertThat(ids(step3.terminate())).as("no replacement is in service yet").isEmpty();

        // Replacements launched but not yet in service: nothing is terminated.
        List<InstanceView> launching = new ArrayList<>(drained(stepOne()));
        launching.add(view("c5-c", "c5.large", InstanceStatus.ACTIVE, false, false, false));
        launching.add(view("m4-c", "m4.large", InstanceStatus.ACTIVE, false, false, false));
        List<InstanceDefinition> withoutC4 = List.of(TYPES.get(0), TYPES.get(2));
        BalancePlan waiting = BalancePlan.decide(g, scaling(8, withoutC4, launching), launching, c4Interrupted, THRESHOLD);
        assertThat(waiting.instanceTypes()).isEmpty();
        assertThat(waiting.drain()).isEmpty();
        assertThat(waiting.desiredCapacity()).isEmpty();
        assertThat(ids(waiting.terminate())).isEmpty();

        // Step 4: the replacements are in service; the idle, unprotected c4 goes first.
        List<InstanceView> inService = new ArrayList<>(drained(stepOne()));
        inService.add(view("c5-c", "c5.large", InstanceStatus.ACTIVE, false, true, false));
        inService.add(view("m4-c", "m4.large", InstanceStatus.ACTIVE, false, true, false));
        BalancePlan step4 = BalancePlan.decide(g, scaling(8, withoutC4, inService), inService, c4Interrupted, THRESHOLD);
        assertThat(step4.terminate()).containsExactly(new BalancePlan.Termination("c4-b", true));

        // Step 5: the protected c4 keeps running while its game goes on, then ends too.
        List<InstanceView> afterStep4 = new ArrayList<>(inService);
        afterStep4.removeIf(v -> v.instance().instanceId().equals("c4-b"));
        BalancePlan playing = BalancePlan.decide(g, scaling(7, withoutC4, afterStep4), afterStep4, c4Interrupted, THRESHOLD);
        assertThat(ids(playing.terminate())).isEmpty();

        List<InstanceView> gameOver = afterStep4.stream().map(v -> v.instance().instanceId().equals("c4-a")
                ? new InstanceView(v.instance(), InstanceStatus.DRAINING, false, true) : v).toList();
        BalancePlan step5 = BalancePlan.decide(g, scaling(7, withoutC4, gameOver), gameOver, c4Interrupted, THRESHOLD);
        assertThat(step5.terminate()).containsExactly(new BalancePlan.Termination("c4-a", true));
        assertThat(step5.protection()).as("unprotected once its games ended").containsEntry("c4-a", false);

        // c4.large is viable again once its interruptions leave the window: it returns.
        List<InstanceView> settled = gameOver.stream().filter(v -> !v.instance().instanceType().equals("c4.large")).toList();
        BalancePlan viableAgain = BalancePlan.decide(g, scaling(6, withoutC4, settled), settled, Map.of(), THRESHOLD);
        assertThat(viableAgain.instanceTypes()).map(InstanceTypeChange::definitions).get().asList()
                .extracting("instanceType").containsExactly("m4.large", "c4.large", "c5.large");
    }

    @Test
    void anInterruptionRateAtTheThresholdIsStillViable() {
        GameServerGroup g = group(BalancingStrategy.SPOT_PREFERRED, GameServerProtectionPolicy.NO_PROTECTION);
        // 1 interruption among 4 c4 instances plus the interrupted one: 1/5 = 0.2, not above it.
        List<InstanceView> views = List.of(view("a", "c4.large", InstanceStatus.ACTIVE, false, true, false),
                view("b", "c4.large", InstanceStatus.ACTIVE, false, true, false),
                view("c", "c4.large", InstanceStatus.ACTIVE, false, true, false),
                view("d", "c4.large", InstanceStatus.ACTIVE, false, true, false));
        assertThat(BalancePlan.decide(g, scaling(4, ALL_TYPES, views), views, Map.of("c4.large", 1L), THRESHOLD)
                .nonViableTypes()).isEmpty();
        assertThat(BalancePlan.decide(g, scaling(4, ALL_TYPES, views), views, Map.of("c4.large", 2L), THRESHOLD)
                .nonViableTypes()).containsExactly("c4.large");
    }

    @Test
    void onDemandOnlyAndSuspendedGroupsAreNotBalancedButStillProtected() {
        Map<String, Long> c4Interrupted = Map.of("c4.large", 5L);
        for (GameServerGroup g : List.of(
                group(BalancingStrategy.ON_DEMAND_ONLY, GameServerProtectionPolicy.FULL_PROTECTION),
                group(BalancingStrategy.SPOT_PREFERRED, GameServerProtectionPolicy.FULL_PROTECTION).toBuilder()
                        .suspendedActions(Set.of(GameServerGroupAction.REPLACE_INSTANCE_TYPES)).build())) {
            List<InstanceView> views = List.of(view("c4-a", "c4.large", InstanceStatus.ACTIVE, true, true, false));
            ScalingGroupState state = new ScalingGroupState(1, 1, 12, ALL_TYPES,
                    g.balancingStrategy() == BalancingStrategy.ON_DEMAND_ONLY,
                    views.stream().map(InstanceView::instance).toList());
            BalancePlan plan = BalancePlan.decide(g, state, views, c4Interrupted, THRESHOLD);
            assertThat(plan.drain()).isEmpty();
            assertThat(plan.instanceTypes()).isEmpty();
            assertThat(plan.desiredCapacity()).isEmpty();
            assertThat(plan.protection()).containsEntry("c4-a", true);
        }
    }

    @Test
    void noProtectionUnprotectsInstancesWithGames() {
        GameServerGroup g = group(BalancingStrategy.SPOT_PREFERRED, GameServerProtectionPolicy.NO_PROTECTION);
        List<InstanceView> views = List.of(view("a", "m4.large", InstanceStatus.ACTIVE, true, true, true));
        assertThat(BalancePlan.decide(g, scaling(1, ALL_TYPES, views), views, Map.of(), THRESHOLD).protection())
                .containsExactly(Map.entry("a", false));
    }

    @Test
    void spotPreferredFallsBackToOnDemandWhenNoTypeIsViable() {
        GameServerGroup g = group(BalancingStrategy.SPOT_PREFERRED, GameServerProtectionPolicy.NO_PROTECTION);
        List<InstanceView> views = stepOne();
        Map<String, Long> everything = Map.of("m4.large", 3L, "c4.large", 3L, "c5.large", 3L);
        BalancePlan plan = BalancePlan.decide(g, scaling(6, ALL_TYPES, views), views, everything, THRESHOLD);
        assertThat(plan.instanceTypes()).contains(new InstanceTypeChange(TYPES, BalancingStrategy.ON_DEMAND_ONLY));
        assertThat(plan.drain()).hasSize(6);
        assertThat(plan.desiredCapacity()).contains(12);
    }

    @Test
    void spotOnlyWithNoViableTypeLaunchesNothingAndEndsIdleInstancesAtOnce() {
        GameServerGroup g = group(BalancingStrategy.SPOT_ONLY, GameServerProtectionPolicy.FULL_PROTECTION);
        List<InstanceView> views = stepOne();
        Map<String, Long> everything = Map.of("m4.large", 3L, "c4.large", 3L, "c5.large", 3L);
        BalancePlan plan = BalancePlan.decide(g, scaling(6, ALL_TYPES, views), views, everything, THRESHOLD);
        assertThat(plan.instanceTypes()).isEmpty();
        assertThat(plan.desiredCapacity()).isEmpty();
        assertThat(plan.drain()).hasSize(6);
        assertThat(ids(plan.terminate())).containsExactlyInAnyOrder("m4-b", "c4-b");
    }

    @Test
    void replacementsStayWithinMaxSize() {
        GameServerGroup g = group(BalancingStrategy.SPOT_PREFERRED, GameServerProtectionPolicy.NO_PROTECTION);
        List<InstanceView> views = stepOne();
        ScalingGroupState full = new ScalingGroupState(6, 1, 7, ALL_TYPES, false,
                views.stream().map(InstanceView::instance).toList());
        BalancePlan capped = BalancePlan.decide(g, full, views, Map.of("c4.large", 1L), THRESHOLD);
        assertThat(capped.desiredCapacity()).contains(7);
        assertThat(capped.replaced()).as("only one replacement fits under MaxSize").containsExactly("c4-a");
    }

    @Test
    void atMaxSizeDrainingInstancesAreReplacedByTheScalingGroupOneARun() {
        GameServerGroup g = group(BalancingStrategy.SPOT_PREFERRED, GameServerProtectionPolicy.NO_PROTECTION);
        // MaxSize 4, all in service; c5.large not viable: no room for replacements.
        List<InstanceView> views = List.of(view("m4-a", "m4.large", InstanceStatus.ACTIVE, false, true, false),
                view("m4-b", "m4.large", InstanceStatus.ACTIVE, false, true, false),
                view("c5-a", "c5.large", InstanceStatus.ACTIVE, false, true, false),
                view("c5-b", "c5.large", InstanceStatus.ACTIVE, false, true, false));
        ScalingGroupState atMax = new ScalingGroupState(4, 1, 4, ALL_TYPES, false,
                views.stream().map(InstanceView::instance).toList());
        BalancePlan drain = BalancePlan.decide(g, atMax, views, Map.of("c5.large", 1L), THRESHOLD);
        assertThat(drain.drain()).containsExactly("c5-a", "c5-b");
        assertThat(drain.replaced()).isEmpty();
        assertThat(drain.desiredCapacity()).isEmpty();
        assertThat(drain.terminate()).isEmpty();

        List<InstanceView> draining = views.stream().map(v -> v.instance().instanceType().equals("c5.large")
                ? new InstanceView(v.instance(), InstanceStatus.DRAINING, false, false) : v).toList();
        BalancePlan next = BalancePlan.decide(g, atMax, draining, Map.of("c5.large", 1L), THRESHOLD);
        assertThat(next.terminate()).as("no decrement: the scaling group launches a viable replacement")
                .containsExactly(new BalancePlan.Termination("c5-a", false));
        assertThat(next.desiredCapacity()).isEmpty();
    }

    @Test
    void whileSpotPreferredRunsOnDemandItsReplacementsAreNotDrained() {
        GameServerGroup g = group(BalancingStrategy.SPOT_PREFERRED, GameServerProtectionPolicy.NO_PROTECTION);
        Map<String, Long> everything = Map.of("m4.large", 3L, "c4.large", 3L, "c5.large", 3L);
        List<InstanceView> views = List.of(view("spot", "m4.large", InstanceStatus.DRAINING, false, true, false),
                view("od-1", "c5.large", InstanceStatus.ACTIVE, false, true, false),
                view("od-2", "m4.large", InstanceStatus.ACTIVE, false, true, false));
        ScalingGroupState onDemand = new ScalingGroupState(3, 1, 12, ALL_TYPES, true,
                views.stream().map(InstanceView::instance).toList());
        BalancePlan plan = BalancePlan.decide(g, onDemand, views, everything, THRESHOLD);
        assertThat(plan.drain()).isEmpty();
        assertThat(plan.instanceTypes()).isEmpty();
        assertThat(ids(plan.terminate())).containsExactly("spot");
    }

    @Test
    void aWeightChangeReachesTheScalingGroup() {
        List<InstanceDefinition> reweighted = List.of(new InstanceDefinition("m4.large", "2"),
                new InstanceDefinition("c4.large", null), new InstanceDefinition("c5.large", "1"));
        List<InstanceView> views = stepOne();
        for (BalancingStrategy strategy : BalancingStrategy.values()) {
            GameServerGroup g = group(strategy, GameServerProtectionPolicy.NO_PROTECTION).toBuilder()
                    .instanceDefinitions(reweighted).build();
            ScalingGroupState state = new ScalingGroupState(6, 1, 12, ALL_TYPES,
                    strategy == BalancingStrategy.ON_DEMAND_ONLY, views.stream().map(InstanceView::instance).toList());
            assertThat(BalancePlan.decide(g, state, views, Map.of(), THRESHOLD).instanceTypes())
                    .as("%s", strategy).map(InstanceTypeChange::definitions).contains(reweighted);
        }
        // "1" and no weight are the same weight: nothing to change.
        GameServerGroup same = group(BalancingStrategy.SPOT_PREFERRED, GameServerProtectionPolicy.NO_PROTECTION)
                .toBuilder().instanceDefinitions(List.of(new InstanceDefinition("m4.large", "1"),
                        new InstanceDefinition("c4.large", "1"), new InstanceDefinition("c5.large", null))).build();
        assertThat(BalancePlan.decide(same, scaling(6, ALL_TYPES, views), views, Map.of(), THRESHOLD).instanceTypes())
                .isEmpty();
    }

    @Test
    void whileSuspendedTheTypesStayAsBalancingLeftThemButFollowWeightsAndRemovals() {
        List<InstanceView> views = stepOne();
        // Balancing took c4.large out before the suspension; an update then reweights m4.large,
        // drops c5.large and adds r5.large.
        List<InstanceDefinition> withoutC4 = List.of(TYPES.get(0), TYPES.get(2));
        List<InstanceDefinition> updated = List.of(new InstanceDefinition("m4.large", "2"),
                new InstanceDefinition("c4.large", null), new InstanceDefinition("r5.large", null));
        GameServerGroup g = group(BalancingStrategy.SPOT_PREFERRED, GameServerProtectionPolicy.NO_PROTECTION).toBuilder()
                .instanceDefinitions(updated).suspendedActions(Set.of(GameServerGroupAction.REPLACE_INSTANCE_TYPES))
                .build();
        BalancePlan plan = BalancePlan.decide(g, scaling(6, withoutC4, views), views, Map.of(), THRESHOLD);
        assertThat(plan.instanceTypes()).contains(new InstanceTypeChange(
                List.of(new InstanceDefinition("m4.large", "2")), BalancingStrategy.SPOT_PREFERRED));
        assertThat(plan.drain()).isEmpty();
        // Every type it had was dropped by the update: the definitions apply as given.
        GameServerGroup replaced = g.toBuilder().instanceDefinitions(List.of(new InstanceDefinition("r5.large", null),
                new InstanceDefinition("r6g.large", null))).build();
        assertThat(BalancePlan.decide(replaced, scaling(6, withoutC4, views), views, Map.of(), THRESHOLD).instanceTypes())
                .map(InstanceTypeChange::definitions).contains(replaced.instanceDefinitions());
    }

    @Test
    void anOnDemandOnlyGroupGetsItsPurchaseOptionApplied() {
        GameServerGroup g = group(BalancingStrategy.ON_DEMAND_ONLY, GameServerProtectionPolicy.NO_PROTECTION);
        List<InstanceView> views = stepOne();
        BalancePlan plan = BalancePlan.decide(g, scaling(6, ALL_TYPES, views), views, Map.of(), THRESHOLD);
        assertThat(plan.instanceTypes()).contains(new InstanceTypeChange(TYPES, BalancingStrategy.ON_DEMAND_ONLY));
        assertThat(plan.drain()).isEmpty();
    }

    @Test
    void spotTerminatingInstancesAreNeitherDrainedNorProtected() {
        GameServerGroup g = group(BalancingStrategy.SPOT_PREFERRED, GameServerProtectionPolicy.FULL_PROTECTION);
        List<InstanceView> views = List.of(view("x", "c4.large", InstanceStatus.SPOT_TERMINATING, true, true, false),
                view("y", "m4.large", InstanceStatus.ACTIVE, false, true, false));
        BalancePlan plan = BalancePlan.decide(g, scaling(2, ALL_TYPES, views), views, Map.of("c4.large", 1L), THRESHOLD);
        assertThat(plan.nonViableTypes()).containsExactly("c4.large");
        assertThat(plan.drain()).isEmpty();
        assertThat(plan.protection()).isEmpty();
        assertThat(ids(plan.terminate())).isEmpty();
        assertThat(plan.desiredCapacity()).isEqualTo(Optional.empty());
    }

    private static List<String> ids(List<BalancePlan.Termination> terminations) {
        return terminations.stream().map(BalancePlan.Termination::instanceId).toList();
    }

    private static List<InstanceView> drained(List<InstanceView> views) {
        return views.stream().map(v -> v.instance().instanceType().equals("c4.large")
                ? new InstanceView(v.instance(), InstanceStatus.DRAINING, v.hasGames(), true) : v).toList();
    }

    // ---- lifetimes ----------------------------------------------------------------------------

    private static InstanceView aged(String id, InstanceStatus status, boolean games, boolean replacementRequested,
            boolean retiring, boolean ended) {
        return new InstanceView(new ComputeInstance(id, "m4.large", "us-east-1a", true, games), status, games,
                replacementRequested, retiring, ended);
    }

    @Test
    void aRetiringInstanceIsDrainedWithNoReplacementAndLivesToItsEndIdleOrNot() {
        GameServerGroup g = group(BalancingStrategy.SPOT_PREFERRED, GameServerProtectionPolicy.FULL_PROTECTION);
        List<InstanceView> views = List.of(aged("old", InstanceStatus.ACTIVE, false, false, true, false),
                aged("young-a", InstanceStatus.ACTIVE, true, false, false, false),
                aged("young-b", InstanceStatus.ACTIVE, false, false, false, false));
        BalancePlan plan = BalancePlan.decide(g, scaling(3, ALL_TYPES, views), views, Map.of(), THRESHOLD);
        assertThat(plan.retire()).containsExactly("old");
        assertThat(plan.drain()).isEmpty();
        assertThat(plan.desiredCapacity()).isEmpty();
        assertThat(ids(plan.terminate())).isEmpty();

        // Recorded DRAINING, idle, two ACTIVE in service for the desired three: the Spot rule would end it.
        List<InstanceView> drained = List.of(aged("old", InstanceStatus.DRAINING, false, false, true, false),
                views.get(1), views.get(2));
        BalancePlan later = BalancePlan.decide(g, scaling(3, ALL_TYPES, drained), drained, Map.of(), THRESHOLD);
        assertThat(later.retire()).isEmpty();
        assertThat(ids(later.terminate())).as("it waits for its end").isEmpty();
        // Drained for Spot with its replacement requested, it goes as any drained instance.
        List<InstanceView> replaced = List.of(aged("old", InstanceStatus.DRAINING, false, true, true, false),
                views.get(1), views.get(2));
        assertThat(BalancePlan.decide(g, scaling(3, ALL_TYPES, replaced), replaced, Map.of(), THRESHOLD).terminate())
                .containsExactly(new BalancePlan.Termination("old", true, false));
    }

    @Test
    void anInstanceAtItsEndIsEndedProtectedOrNotWithItsGamesUnlessInterruptedOrNotInService() {
        GameServerGroup g = group(BalancingStrategy.ON_DEMAND_ONLY, GameServerProtectionPolicy.FULL_PROTECTION);
        InstanceView ended = aged("ended", InstanceStatus.DRAINING, true, false, true, true);
        InstanceView endedReplaced = aged("replaced", InstanceStatus.DRAINING, false, true, true, true);
        InstanceView interrupted = aged("interrupted", InstanceStatus.SPOT_TERMINATING, false, false, true, true);
        InstanceView launching = new InstanceView(new ComputeInstance("launching", "m4.large", "us-east-1a", false, false),
                InstanceStatus.ACTIVE, false, false, true, true);
        List<InstanceView> views = List.of(ended, endedReplaced, interrupted, launching);
        BalancePlan plan = BalancePlan.decide(g, scaling(4, ALL_TYPES, views), views, Map.of(), THRESHOLD);
        assertThat(plan.terminate()).containsExactly(new BalancePlan.Termination("ended", false, true),
                new BalancePlan.Termination("replaced", true, true));
        assertThat(plan.retire()).as("one not in service is retired, not ended").containsExactly("launching");
    }

    // --- Container groups: Fargate Spot's viability ------------------------------------------

    private static final Map<String, Long> FARGATE_SPOT_INTERRUPTED = Map.of(ContainerCompute.FARGATE_SPOT, 1L);

    private static GameServerGroup containerGroup(BalancingStrategy strategy, ContainerCapacity capacity) {
        return GameServerGroup.builder().name("arena").balancingStrategy(strategy)
                .protectionPolicy(GameServerProtectionPolicy.NO_PROTECTION).status(GameServerGroupStatus.ACTIVE)
                .minSize(1).maxSize(12).containers(new ContainerCompute("arena:3", "server", capacity, 1)).build();
    }

    /** Two tasks on Fargate Spot, one with a game (unprotected yet), and the base's task on Fargate. */
    private static List<InstanceView> tasks() {
        return List.of(view("spot-a", ContainerCompute.FARGATE_SPOT, InstanceStatus.ACTIVE, true, true, false),
                view("spot-b", ContainerCompute.FARGATE_SPOT, InstanceStatus.ACTIVE, false, true, false),
                view("base", ContainerCompute.FARGATE, InstanceStatus.ACTIVE, false, true, false));
    }

    /** The service as the ECS adapter describes it, its strategy that of {@code running}. */
    private static ScalingGroupState service(GameServerGroup g, BalancingStrategy running, List<InstanceView> tasks) {
        return new ScalingGroupState(tasks.size(), 1, 12, g.containers().capacityProviders(running),
                running == BalancingStrategy.ON_DEMAND_ONLY, tasks.stream().map(InstanceView::instance).toList());
    }

    @Test
    void fargateSpotNotViableUnderSpotPreferredLeavesEveryTaskToFargateUntilItIsViableAgain() {
        GameServerGroup g = containerGroup(BalancingStrategy.SPOT_PREFERRED, ContainerCapacity.FARGATE_SPOT);

        // 1 interruption among its 2 running tasks plus the interrupted one: 1/3 > 0.2.
        BalancePlan notViable = BalancePlan.decide(g, service(g, BalancingStrategy.SPOT_PREFERRED, tasks()), tasks(),
                FARGATE_SPOT_INTERRUPTED, THRESHOLD);
        assertThat(notViable.nonViableTypes()).containsExactly(ContainerCompute.FARGATE_SPOT);
        assertThat(notViable.instanceTypes()).contains(new InstanceTypeChange(
                List.of(new InstanceDefinition(ContainerCompute.FARGATE, "1")), BalancingStrategy.ON_DEMAND_ONLY));
        assertThat(notViable.drain()).as("ECS's deployment replaces them").isEmpty();
        assertThat(notViable.replaced()).isEmpty();
        assertThat(notViable.desiredCapacity()).as("the deployment's own room, not a raise").isEmpty();
        assertThat(notViable.terminate()).isEmpty();
        assertThat(notViable.protection()).as("the task with a game, whatever the policy").containsExactly(
                Map.entry("spot-a", true));

        BalancePlan onFargate = BalancePlan.decide(g, service(g, BalancingStrategy.ON_DEMAND_ONLY, tasks()), tasks(),
                FARGATE_SPOT_INTERRUPTED, THRESHOLD);
        assertThat(onFargate.nonViableTypes()).containsExactly(ContainerCompute.FARGATE_SPOT);
        assertThat(onFargate.instanceTypes()).as("changed already").isEmpty();

        BalancePlan viableAgain = BalancePlan.decide(g, service(g, BalancingStrategy.ON_DEMAND_ONLY, tasks()), tasks(),
                Map.of(), THRESHOLD);
        assertThat(viableAgain.nonViableTypes()).isEmpty();
        assertThat(viableAgain.instanceTypes()).contains(new InstanceTypeChange(
                g.containers().capacityProviders(BalancingStrategy.SPOT_PREFERRED), BalancingStrategy.SPOT_PREFERRED));
        assertThat(viableAgain.instanceTypes().get().definitions()).containsExactly(
                new InstanceDefinition(ContainerCompute.FARGATE, "0"), new InstanceDefinition(ContainerCompute.FARGATE_SPOT, "1"));
        assertThat(viableAgain.desiredCapacity()).isEmpty();

        BalancePlan quiet = BalancePlan.decide(g, service(g, BalancingStrategy.SPOT_PREFERRED, tasks()), tasks(),
                Map.of(ContainerCompute.FARGATE, 3L), THRESHOLD);
        assertThat(quiet.nonViableTypes()).as("Fargate's stopped tasks are no Spot interruptions to judge").isEmpty();
        assertThat(quiet.instanceTypes()).isEmpty();
    }

    @Test
    void fargateSpotAtTheThresholdIsStillViable() {
        GameServerGroup g = containerGroup(BalancingStrategy.SPOT_PREFERRED, ContainerCapacity.FARGATE_SPOT);
        List<InstanceView> four = List.of(view("s1", ContainerCompute.FARGATE_SPOT, InstanceStatus.ACTIVE, false, true, false),
                view("s2", ContainerCompute.FARGATE_SPOT, InstanceStatus.ACTIVE, false, true, false),
                view("s3", ContainerCompute.FARGATE_SPOT, InstanceStatus.ACTIVE, false, true, false),
                view("s4", ContainerCompute.FARGATE_SPOT, InstanceStatus.ACTIVE, false, true, false),
                view("gone", ContainerCompute.FARGATE_SPOT, InstanceStatus.SPOT_TERMINATING, false, true, false));
        // 1 interruption among 4 running tasks plus it (the interrupted one, not counted as running): 1/5.
        BalancePlan plan = BalancePlan.decide(g, service(g, BalancingStrategy.SPOT_PREFERRED, four), four,
                FARGATE_SPOT_INTERRUPTED, THRESHOLD);
        assertThat(plan.nonViableTypes()).isEmpty();
        assertThat(plan.instanceTypes()).isEmpty();
    }

    @Test
    void spotOnlyWithFargateSpotNotViableHasNothingToReplaceItButStillProtects() {
        GameServerGroup g = containerGroup(BalancingStrategy.SPOT_ONLY, ContainerCapacity.FARGATE_SPOT);
        List<InstanceView> spot = tasks().subList(0, 2);
        BalancePlan plan = BalancePlan.decide(g, service(g, BalancingStrategy.SPOT_ONLY, spot), spot,
                FARGATE_SPOT_INTERRUPTED, THRESHOLD);
        assertThat(plan.nonViableTypes()).containsExactly(ContainerCompute.FARGATE_SPOT);
        assertThat(plan.instanceTypes()).isEmpty();
        assertThat(plan.drain()).isEmpty();
        assertThat(plan.desiredCapacity()).isEmpty();
        assertThat(plan.terminate()).isEmpty();
        assertThat(plan.protection()).containsExactly(Map.entry("spot-a", true));
    }

    @Test
    void onDemandOnlySuspendedAndEc2CapacityContainerGroupsAreNotBalancedButStillProtected() {
        List<InstanceView> onEc2 = List.of(view("t-a", "gamefleet-spot", InstanceStatus.ACTIVE, true, true, false),
                view("t-b", "gamefleet-spot", InstanceStatus.ACTIVE, false, true, false));
        Map<String, Long> everyoneInterrupted = Map.of(ContainerCompute.FARGATE_SPOT, 5L, "gamefleet-spot", 5L);
        for (GameServerGroup g : List.of(
                containerGroup(BalancingStrategy.ON_DEMAND_ONLY, ContainerCapacity.FARGATE_SPOT),
                containerGroup(BalancingStrategy.SPOT_PREFERRED, ContainerCapacity.FARGATE_SPOT).toBuilder()
                        .suspendedActions(Set.of(GameServerGroupAction.REPLACE_INSTANCE_TYPES)).build(),
                containerGroup(BalancingStrategy.SPOT_PREFERRED, ContainerCapacity.EC2),
                containerGroup(BalancingStrategy.SPOT_ONLY, ContainerCapacity.EC2))) {
            List<InstanceView> views = g.containers().capacity() == ContainerCapacity.EC2 ? onEc2 : tasks();
            BalancePlan plan = BalancePlan.decide(g, service(g, g.balancingStrategy(), views), views, everyoneInterrupted,
                    THRESHOLD);
            assertThat(plan.nonViableTypes()).as("%s", g).isEmpty();
            assertThat(plan.instanceTypes()).as("%s", g).isEmpty();
            assertThat(plan.drain()).isEmpty();
            assertThat(plan.desiredCapacity()).isEmpty();
            assertThat(plan.protection()).hasSize(1).containsValue(true);
        }
    }
}

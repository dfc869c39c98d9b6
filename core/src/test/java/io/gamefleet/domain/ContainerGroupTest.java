package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.ContainerCompute.ContainerCapacity;
import io.gamefleet.domain.GameServerService.Claim;
import io.gamefleet.domain.GroupService.GroupUpdate;
import io.gamefleet.domain.fakes.FakeCompute;
import io.gamefleet.domain.fakes.FakeTaskDefinitions;
import io.gamefleet.domain.fakes.RecordingWorkflowStarter.Started;
import io.gamefleet.domain.fakes.RecordingWorkflowStarter.Workflow;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A container group through its life on the fakes: created, activated, balanced, interrupted and
 * deleted, its ECS service reached through {@link ComputeByKind} ({@link #tasks}) and never the
 * EC2 adapter ({@code fleet.compute}).
 */
class ContainerGroupTest {
    private static final String NAME = "arena-tasks";
    private static final String SERVICE = Fleet.SETTINGS.containerServiceName(NAME);
    private static final String TASK = "i-0123456789abcdef0";

    private final Fleet fleet = new Fleet();
    private final FakeCompute tasks = new FakeCompute();
    private final Compute compute = new ComputeByKind(() -> fleet.compute, () -> tasks, Fleet.SETTINGS);
    private final FakeTaskDefinitions definitions = new FakeTaskDefinitions()
            .put("game", FakeTaskDefinitions.runnable("game"));
    private final GroupService groups = fleet.groupService();
    private final GroupLifecycle steps = new GroupLifecycle(groups, fleet.groups, fleet.servers, fleet.instances, compute,
            Fleet.SETTINGS, fleet.clock);

    private static GameServerGroup.Builder draft() {
        return GameServerGroup.builder().name(NAME).minSize(1).maxSize(4)
                .containers(new ContainerCompute("game", null, ContainerCapacity.FARGATE_SPOT, 1));
    }

    private GameServerGroup create(GameServerGroup.Builder draft) {
        return groups.createContainerGroup(draft.build(), definitions.describe(draft.build().containers().taskDefinition()));
    }

    /** Created, activated with one running task (recorded), ACTIVE. */
    private GameServerGroup active() {
        return active(draft());
    }

    private GameServerGroup active(GameServerGroup.Builder draft) {
        create(draft);
        steps.startActivation(NAME);
        String arn = steps.createScalingGroup(NAME);
        tasks.addInstance(SERVICE, new ComputeInstance(TASK, "FARGATE_SPOT", "us-east-1a", true, false));
        assertThat(steps.checkActivation(NAME)).isTrue();
        steps.completeActivation(NAME, arn);
        return fleet.group(NAME);
    }

    /** {@link #active}, with game server gs-1 registered on its task, AVAILABLE. */
    private void activeWithAServer() {
        active();
        gameServers().register(new GameServerService.Registration(NAME, "gs-1", TASK, Optional.of("10.0.0.1:7777"),
                Optional.empty()), Caller.UNBOUND);
    }

    private SpotBalancer balancer() {
        return balancer(compute);
    }

    private SpotBalancer balancer(Compute compute) {
        return new SpotBalancer(fleet.groups, fleet.servers, fleet.instances, fleet.interruptions, compute, fleet.metrics,
                Fleet.SETTINGS, Fleet.VIABILITY_WINDOW, Fleet.VIABILITY_THRESHOLD, Fleet.BALANCER_PERIOD, fleet.clock,
                fleet.log::add, fleet.notices(fleet.instances), fleet.standby, fleet.summaries);
    }

    private GameServerService gameServers() {
        return new GameServerService(fleet.groups, fleet.servers, fleet.instances, () -> compute,
                new ClaimPolicy(1, new java.util.SplittableRandom(1)), fleet.tokens, Fleet.SETTINGS, fleet.clock,
                fleet.notices(fleet.instances));
    }

    private void heartbeat(Optional<UtilizationStatus> status) {
        heartbeat("gs-1", status);
    }

    private void heartbeat(String gameServerId, Optional<UtilizationStatus> status) {
        gameServers().update(new GameServerService.Update(NAME, gameServerId, Optional.empty(), status, true),
                Caller.UNBOUND);
    }

    /** A task the service started, running since now and recorded (as a balancer run records it), with one AVAILABLE server if {@code server}. */
    private void taskStarted(String task, Optional<String> server) {
        ComputeInstance started = new ComputeInstance(task, "FARGATE_SPOT", "us-east-1a", true, false);
        tasks.addInstance(SERVICE, started, fleet.clock.instant());
        fleet.instances.addIfAbsent(GameServerInstance.active(NAME, started,
                new Compute.LaunchedInstance(fleet.clock.instant(), FakeCompute.ADDRESSES)));
        server.ifPresent(id -> register(id, task));
    }

    /**
     * ACTIVE with target tracking at 50%: {@link #TASK} and {@code count - 1} more tasks (i-…b, i-…c),
     * started 10 s apart, each with one AVAILABLE server (gs-1, gs-2, …), the desired count theirs.
     */
    private void trackedWithIdleTasks(int count) {
        active(draft().autoScalingPolicy(new AutoScalingPolicy(null, 50)));
        register("gs-1", TASK);
        tasks.setDesiredCapacity(SERVICE, count);
        for (int i = 2; i <= count; i++) {
            fleet.clock.advance(Duration.ofSeconds(10));
            taskStarted("i-0000000000000000" + (char) ('a' + i - 1), Optional.of("gs-" + i));
        }
    }

    private void register(String gameServerId, String task) {
        gameServers().register(new GameServerService.Registration(NAME, gameServerId, task, Optional.of("10.0.0.1:7777"),
                Optional.empty()), Caller.UNBOUND);
    }

    private int desiredCount() {
        return tasks.scalingGroup(SERVICE).orElseThrow().desiredCapacity();
    }

    @Test
    void aContainerGroupIsStoredNewWithItsPinnedDefinitionAndServiceAndItsActivationStarted() {
        GameServerGroup created = create(draft().protectionPolicy(GameServerProtectionPolicy.NO_PROTECTION));

        assertThat(created.status()).isEqualTo(GameServerGroupStatus.NEW);
        assertThat(created.containers()).isEqualTo(new ContainerCompute(FakeTaskDefinitions.arn("game"), "server",
                ContainerCapacity.FARGATE_SPOT, 1));
        assertThat(created.autoScalingGroupName()).isEqualTo("gamefleet-tasks_arena-tasks");
        assertThat(created.instanceDefinitions()).isEmpty();
        assertThat(created.launchTemplate()).isNull();
        assertThat(created.arn()).isEqualTo(Fleet.SETTINGS.groupArn(NAME));
        assertThat(created.creationTime()).isEqualTo(T0);
        assertThat(fleet.group(NAME)).isEqualTo(created);
        assertThat(fleet.workflows.started()).containsExactly(new Started(Workflow.ACTIVATION, created));
    }

    @Test
    void aRefusedContainerGroupStoresNothingAndStartsNothing() {
        for (GameServerGroup.Builder refused : List.of(
                draft().containers(new ContainerCompute("missing", null, ContainerCapacity.FARGATE_SPOT, 0)),
                draft().minSize(5),
                draft().tags(List.of(new Tag("gamefleet:stage", "prod"))))) {
            GamefleetException e = catchThrowableOfType(() -> create(refused), GamefleetException.class);
            assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_REQUEST);
        }
        assertThat(fleet.groups.find(NAME)).isEmpty();
        assertThat(fleet.workflows.started()).isEmpty();
    }

    @Test
    void itsActivationCreatesTheServiceRecordsItsTasksAndNeverAsksTheEc2Adapter() {
        GameServerGroup group = active();

        assertThat(tasks.calls(FakeCompute.CREATE_SCALING_GROUP)).hasSize(1);
        assertThat(tasks.scalingGroup(SERVICE)).isPresent();
        assertThat(group.status()).isEqualTo(GameServerGroupStatus.ACTIVE);
        assertThat(group.autoScalingGroupArn()).endsWith(SERVICE);
        assertThat(fleet.instances.find(NAME, TASK)).map(GameServerInstance::instanceType).contains("FARGATE_SPOT");
        assertThat(fleet.compute.calls()).isEmpty();
    }

    @Test
    void aTaskIsProtectedWhileItHoldsAClaimedOrUtilizedServerWhateverThePolicyAndItsTypesAreNeverChanged() {
        activeWithAServer();

        balancer().runAll();
        assertThat(tasks.calls(FakeCompute.SET_INSTANCE_PROTECTION)).as("idle: already unprotected").isEmpty();

        gameServers().claim(new Claim(NAME, Optional.empty(), Optional.empty(), Optional.empty()));
        balancer().runAll();
        assertThat(tasks.calls(FakeCompute.SET_INSTANCE_PROTECTION)).containsExactly(List.of(SERVICE, TASK, true));

        fleet.clock.advance(Fleet.CLAIM_TTL.plusSeconds(1));
        heartbeat(Optional.empty());
        balancer().runAll();
        assertThat(tasks.calls(FakeCompute.SET_INSTANCE_PROTECTION)).as("its claim lapsed")
                .containsExactly(List.of(SERVICE, TASK, true), List.of(SERVICE, TASK, false));

        heartbeat(Optional.of(UtilizationStatus.UTILIZED));
        balancer().runAll();
        assertThat(tasks.calls(FakeCompute.SET_INSTANCE_PROTECTION)).as("a game on it")
                .containsExactly(List.of(SERVICE, TASK, true), List.of(SERVICE, TASK, false), List.of(SERVICE, TASK, true));
        assertThat(tasks.calls(FakeCompute.SET_INSTANCE_TYPES)).isEmpty();
        assertThat(fleet.compute.calls()).isEmpty();
    }

    @Test
    void targetTrackingRaisesTheDesiredCountAtOnceCountsATaskOnceItsServerRegisteredAndEndsIdleTasksNewestFirst() {
        active(draft().autoScalingPolicy(new AutoScalingPolicy(null, 50)));
        register("gs-1", TASK);
        heartbeat(Optional.of(UtilizationStatus.UTILIZED));

        balancer().runAll();
        // One task, its one server utilized (100%), target 50%: two tasks.
        assertThat(tasks.calls(FakeCompute.SET_DESIRED_CAPACITY)).containsExactly(List.of(SERVICE, 2));

        fleet.clock.advance(Duration.ofSeconds(30));
        heartbeat(Optional.of(UtilizationStatus.UTILIZED));
        taskStarted("i-0000000000000000b", Optional.empty());
        balancer().runAll();
        assertThat(tasks.calls(FakeCompute.SET_DESIRED_CAPACITY)).as("the new task has no server yet: not counted")
                .containsExactly(List.of(SERVICE, 2));

        register("gs-2", "i-0000000000000000b");
        balancer().runAll();
        assertThat(desiredCount()).as("50%: on target").isEqualTo(2);

        gameServers().deregister(NAME, "gs-1", Caller.UNBOUND);
        balancer().runAll();
        assertThat(tasks.calls(FakeCompute.TERMINATE_INSTANCE)).as("0%: MinSize, the newer task ended with its decrement")
                .containsExactly(List.of(SERVICE, "i-0000000000000000b", true));
        assertThat(desiredCount()).isEqualTo(1);
        assertThat(fleet.instances.find(NAME, "i-0000000000000000b")).as("forgotten: its stop is no interruption").isEmpty();
        assertThat(fleet.servers.find("gs-2")).isEmpty();
        assertThat(fleet.log).anyMatch(l -> l.contains("ended idle tasks [i-0000000000000000b] by target tracking"));
        assertThat(fleet.compute.calls()).isEmpty();
    }

    @Test
    void aTaskWithAGameIsProtectedBeforeTargetTrackingEndsAnother() {
        trackedWithIdleTasks(3);
        int before = tasks.calls().size();

        heartbeat(Optional.of(UtilizationStatus.UTILIZED));
        balancer().runAll();

        // One of three servers utilized (33%), target 50%: two tasks; the newest idle one ends.
        List<String> changes = tasks.calls().subList(before, tasks.calls().size()).stream().map(FakeCompute.Call::operation)
                .filter(o -> o.equals(FakeCompute.SET_INSTANCE_PROTECTION) || o.equals(FakeCompute.TERMINATE_INSTANCE))
                .toList();
        assertThat(changes).containsExactly(FakeCompute.SET_INSTANCE_PROTECTION, FakeCompute.TERMINATE_INSTANCE);
        assertThat(tasks.calls(FakeCompute.SET_INSTANCE_PROTECTION)).containsExactly(List.of(SERVICE, TASK, true));
        assertThat(tasks.calls(FakeCompute.TERMINATE_INSTANCE)).containsExactly(List.of(SERVICE, "i-0000000000000000c", true));
        assertThat(desiredCount()).isEqualTo(2);
    }

    @Test
    void aTaskWithoutAServerCountsOnceItsWarmUpHasPassed() {
        active(draft().autoScalingPolicy(new AutoScalingPolicy(300, 50)));
        register("gs-1", TASK);
        heartbeat(Optional.of(UtilizationStatus.UTILIZED));
        balancer().runAll();
        taskStarted("i-0000000000000000b", Optional.empty());

        fleet.clock.advance(Duration.ofSeconds(299));
        heartbeat(Optional.empty());
        balancer().runAll();
        assertThat(tasks.calls(FakeCompute.SET_DESIRED_CAPACITY)).as("warming up: not counted").containsExactly(List.of(SERVICE, 2));

        fleet.clock.advance(Duration.ofSeconds(1));
        heartbeat(Optional.empty());
        balancer().runAll();
        // Two tasks counted, 100% of the one server utilized: four.
        assertThat(tasks.calls(FakeCompute.SET_DESIRED_CAPACITY)).containsExactly(List.of(SERVICE, 2), List.of(SERVICE, 4));
    }

    @Test
    void whileItsStandbyBufferIsOnTargetTrackingEndsNoTaskAndOnceItIsOffItDoes() {
        trackedWithIdleTasks(3);
        StandbyService standby = new StandbyService(fleet.groups, fleet.standby, Fleet.SETTINGS, fleet.clock);
        standby.put(NAME, new StandbyPolicy(StandbyPolicy.Buffer.count(3), List.of(), StandbyPolicy.DEFAULT_RAMP_DOWN,
                List.of(), StandbyPolicy.DEFAULT_SCALE_IN_COOLDOWN));

        balancer().runAll();
        // The buffer of 3 StandingBy servers needs the three tasks; tracking alone (0%) would want one.
        assertThat(desiredCount()).isEqualTo(3);
        assertThat(tasks.calls(FakeCompute.TERMINATE_INSTANCE)).isEmpty();

        standby.put(NAME, StandbyPolicy.none());
        List.of("gs-1", "gs-2", "gs-3").forEach(id -> heartbeat(id, Optional.empty()));
        balancer().runAll();
        assertThat(tasks.calls(FakeCompute.TERMINATE_INSTANCE)).containsExactly(
                List.of(SERVICE, "i-0000000000000000c", true), List.of(SERVICE, "i-0000000000000000b", true));
        assertThat(desiredCount()).isEqualTo(1);
    }

    /**
     * ECS sends a task's "ECS Task State Change" as soon as it is asked to stop (the local profile's
     * simulation delivers it within the StopTask): a task tracking ends must be forgotten by then,
     * or its end would be taken for a Spot interruption, recorded and replaced.
     */
    @Test
    void aTaskTrackingEndsIsForgottenBeforeItIsStoppedSoItsStopEventIsNoInterruption() {
        trackedWithIdleTasks(2);
        InstanceEvents events = new InstanceEvents(fleet.groups, fleet.instances, fleet.servers, fleet.interruptions,
                compute, fleet.metrics, Fleet.VIABILITY_WINDOW, fleet.clock, fleet.log::add);
        Compute sendingStopEvents = Fleet.around(Compute.class, compute, (method, args, proceed) -> {
            if (method.equals(FakeCompute.TERMINATE_INSTANCE)) {
                events.spotInterruptionWarning((String) args[1], Optional.empty());
            }
            return proceed.call();
        });

        balancer(sendingStopEvents).runAll();

        assertThat(tasks.calls(FakeCompute.TERMINATE_INSTANCE)).containsExactly(List.of(SERVICE, "i-0000000000000000b", true));
        assertThat(fleet.interruptions.since(NAME, T0)).isEmpty();
        assertThat(fleet.metrics.interruptions()).isEmpty();
        assertThat(desiredCount()).as("no replacement").isEqualTo(1);
    }

    @Test
    void aContainerGroupWithoutAPolicyIsNotTracked() {
        activeWithAServer();
        heartbeat(Optional.of(UtilizationStatus.UTILIZED));
        balancer().runAll();
        assertThat(tasks.calls(FakeCompute.SET_DESIRED_CAPACITY)).isEmpty();
    }

    @Test
    void anInterruptedTaskTakesTheSpotInterruptionPathWithoutARaiseAndItsEndForgetsIt() {
        activeWithAServer();
        InstanceEvents events = new InstanceEvents(fleet.groups, fleet.instances, fleet.servers, fleet.interruptions,
                compute, fleet.metrics, Fleet.VIABILITY_WINDOW, fleet.clock, fleet.log::add);

        assertThat(events.spotInterruptionWarning(TASK, Optional.empty())).isTrue();
        assertThat(fleet.server("gs-1").instanceStatus()).isEqualTo(InstanceStatus.SPOT_TERMINATING);
        assertThat(tasks.calls(FakeCompute.SET_DESIRED_CAPACITY)).as("ECS starts its replacement itself").isEmpty();

        tasks.removeInstance(SERVICE, TASK);
        assertThat(events.terminated(TASK)).isTrue();
        assertThat(fleet.instances.find(NAME, TASK)).isEmpty();
        assertThat(fleet.servers.find("gs-1")).isEmpty();
        assertThat(fleet.compute.calls()).isEmpty();
    }

    private InstanceEvents events() {
        return new InstanceEvents(fleet.groups, fleet.instances, fleet.servers, fleet.interruptions, compute,
                fleet.metrics, Fleet.VIABILITY_WINDOW, fleet.clock, fleet.log::add);
    }

    /** Its one task interrupted and gone, and ECS's replacement on Fargate Spot recorded by a run. */
    private void interruptedAndReplaced() {
        assertThat(events().spotInterruptionWarning(TASK, Optional.empty())).isTrue();
        tasks.removeInstance(SERVICE, TASK);
        assertThat(events().terminated(TASK)).isTrue();
        tasks.addInstance(SERVICE, new ComputeInstance("i-0fedcba9876543210", ContainerCompute.FARGATE_SPOT, "us-east-1b",
                true, false));
    }

    @Test
    void fargateSpotInterruptionsAboveTheThresholdMoveTheServiceToFargateUntilItIsViableAgain() {
        active();
        interruptedAndReplaced();
        assertThat(fleet.interruptions.since(NAME, T0)).as("counted against its capacity provider")
                .extracting(InterruptionRepository.Interruption::instanceType).containsExactly(ContainerCompute.FARGATE_SPOT);

        // 1 interruption among the running task plus it: 1/2 > 0.2.
        assertThat(balancer().runAll()).extracting(SpotBalancer.GroupReport::nonViableTypes)
                .containsExactly(java.util.Set.of(ContainerCompute.FARGATE_SPOT));
        balancer().runAll();
        List<InstanceDefinition> fargate = List.of(new InstanceDefinition(ContainerCompute.FARGATE, "1"));
        assertThat(tasks.calls(FakeCompute.SET_INSTANCE_TYPES)).as("once: the service keeps it")
                .containsExactly(List.of(SERVICE, fargate, BalancingStrategy.ON_DEMAND_ONLY));
        assertThat(fleet.log).anyMatch(l -> l.equals("balancer: group " + NAME + " now launches [FARGATE] (ON_DEMAND_ONLY);"
                + " not viable: [FARGATE_SPOT]"));
        assertThat(tasks.calls(FakeCompute.SET_DESIRED_CAPACITY)).as("none: ECS replaces the interrupted task").isEmpty();

        fleet.clock.advance(Fleet.VIABILITY_WINDOW.plusSeconds(1));
        balancer().runAll();
        assertThat(tasks.calls(FakeCompute.SET_INSTANCE_TYPES)).as("viable again: the group's own strategy").containsExactly(
                List.of(SERVICE, fargate, BalancingStrategy.ON_DEMAND_ONLY),
                List.of(SERVICE, List.of(new InstanceDefinition(ContainerCompute.FARGATE, "0"),
                        new InstanceDefinition(ContainerCompute.FARGATE_SPOT, "1")), BalancingStrategy.SPOT_PREFERRED));
        assertThat(fleet.compute.calls()).isEmpty();
    }

    @Test
    void spotOnlyFargateSpotNotViableIsLoggedAndItsStrategyKept() {
        create(draft().balancingStrategy(BalancingStrategy.SPOT_ONLY));
        steps.startActivation(NAME);
        String arn = steps.createScalingGroup(NAME);
        tasks.addInstance(SERVICE, new ComputeInstance(TASK, ContainerCompute.FARGATE_SPOT, "us-east-1a", true, false));
        assertThat(steps.checkActivation(NAME)).isTrue();
        steps.completeActivation(NAME, arn);
        interruptedAndReplaced();

        balancer().runAll();
        assertThat(tasks.calls(FakeCompute.SET_INSTANCE_TYPES)).isEmpty();
        assertThat(fleet.log).contains("balancer: group " + NAME + ": [FARGATE_SPOT] is not viable and, SPOT_ONLY, nothing"
                + " replaces it: ECS goes on replacing its interrupted tasks on it");
    }

    @Test
    void itsDeletionUnprotectsItsTasksAndDeletesItsService() {
        active();
        tasks.setInstanceProtection(SERVICE, TASK, true);
        groups.delete(NAME, DeleteOption.SAFE_DELETE);
        assertThat(steps.readyToDelete(NAME)).isTrue();
        steps.startDeleting(NAME);

        assertThat(steps.deleteScalingGroup(NAME)).isTrue();
        assertThat(tasks.calls(FakeCompute.DELETE_SCALING_GROUP)).containsExactly(List.of(SERVICE, false));
        assertThat(tasks.scalingGroup(SERVICE)).isEmpty();
        assertThat(fleet.compute.calls()).isEmpty();
    }

    @Test
    void itsInstanceDefinitionsCannotBeUpdated() {
        active();
        GamefleetException e = catchThrowableOfType(() -> groups.update(NAME, new GroupUpdate(Optional.empty(),
                Optional.of(Fleet.TYPES), Optional.empty(), Optional.empty())), GamefleetException.class);
        assertThat(e).hasMessageStartingWith("InstanceDefinitions: arena-tasks is a container group");
        assertThat(fleet.group(NAME).instanceDefinitions()).isEmpty();
    }

    @Test
    void itsBalancingStrategyCannotBeChangedButRestatingItIsNoChange() {
        GameServerGroup before = active();
        GamefleetException e = catchThrowableOfType(() -> groups.update(NAME, new GroupUpdate(Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.of(BalancingStrategy.ON_DEMAND_ONLY))), GamefleetException.class);
        assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_REQUEST);
        assertThat(e).hasMessage("BalancingStrategy: arena-tasks is a container group; its capacity provider strategy is"
                + " the one it was created with");
        assertThat(fleet.group(NAME)).isEqualTo(before);

        groups.update(NAME, new GroupUpdate(Optional.empty(), Optional.empty(),
                Optional.of(GameServerProtectionPolicy.FULL_PROTECTION), Optional.of(BalancingStrategy.SPOT_PREFERRED)));
        assertThat(fleet.group(NAME).protectionPolicy()).isEqualTo(GameServerProtectionPolicy.FULL_PROTECTION);
    }

    @Test
    void anActivationWithoutARunningTaskSaysWhatToCheck() {
        create(draft());
        steps.startActivation(NAME);
        steps.createScalingGroup(NAME);
        fleet.clock.advance(Fleet.ACTIVATION_TIMEOUT.plus(Duration.ofSeconds(1)));
        assertThat(catchThrowableOfType(() -> steps.checkActivation(NAME), GroupLifecycle.StepRefusedException.class))
                .hasMessageStartingWith("no task of ECS service gamefleet-tasks_arena-tasks came to run within 600 seconds");
    }
}

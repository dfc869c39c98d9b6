package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static io.gamefleet.domain.Fleet.M5;
import static io.gamefleet.domain.Fleet.TYPES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.gamefleet.domain.GameServerService.Claim;
import io.gamefleet.domain.InterruptionRepository.Interruption;
import io.gamefleet.domain.Metrics.GameServerCounts;
import io.gamefleet.domain.Metrics.ProcessCounts;
import io.gamefleet.domain.SpotBalancer.GroupReport;
import io.gamefleet.domain.fakes.FakeCompute;
import io.gamefleet.domain.fakes.RecordingMetrics.GameServersReport;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** One balancer run after another over ACTIVE groups on the fakes: viability, draining, protection, sweep, metrics. */
class SpotBalancerTest {
    private final Fleet fleet = new Fleet();
    private final String scalingGroup = Fleet.SETTINGS.autoScalingGroupName(GROUP);
    private int lost;

    private void group(UnaryOperator<GameServerGroup.Builder> options) {
        fleet.activeGroup(GROUP, options);
    }

    /** One run of the balancer; the report of {@link Fleet#GROUP}. */
    private GroupReport balance() {
        List<GroupReport> reports = fleet.balancer().runAll();
        assertThat(reports).as("balancer log: %s", fleet.log).extracting(GroupReport::group).containsExactly(GROUP);
        return reports.get(0);
    }

    /** A Spot interruption a minute ago of an instance of the type that is gone since. */
    private void lostToSpot(String type) {
        fleet.interruptions.record(new Interruption(GROUP, "i-lost-" + ++lost, type,
                fleet.clock.instant().minus(Duration.ofMinutes(1))), fleet.clock.instant().plus(Duration.ofDays(1)));
    }

    private InstanceStatus status(String instanceId) {
        return fleet.instances.find(GROUP, instanceId).orElseThrow().instanceStatus();
    }

    private int desired() {
        return fleet.scalingGroup(GROUP).desiredCapacity();
    }

    private List<String> scalingGroupTypes() {
        return fleet.scalingGroup(GROUP).instanceTypes().stream().map(InstanceDefinition::instanceType).toList();
    }

    /** The instance and decrement flag of each termination, in order. */
    private List<List<Object>> terminations() {
        return fleet.compute.calls(FakeCompute.TERMINATE_INSTANCE).stream().map(args -> args.subList(1, 3)).toList();
    }

    // ---- viability -------------------------------------------------------------------------

    @Test
    void anInstanceBeingInterruptedIsNotRunningInTheViabilityRate() {
        group(b -> b.maxSize(8));
        for (String id : List.of("c5-1", "c5-2", "c5-3", "c5-4")) {
            fleet.launch(id, C5);
        }
        fleet.launch("m5-1", M5);
        fleet.events().spotInterruptionWarning("c5-4", Optional.of(fleet.clock.instant()));

        // 1 interruption ÷ (3 running + 1 interrupted) = 0.25 > 0.2. Counting the interrupted one as
        // running too would make it 1 ÷ 5 = 0.2: still viable.
        GroupReport report = balance();

        assertThat(report.nonViableTypes()).containsExactly(C5);
        assertThat(scalingGroupTypes()).containsExactly(M5);
        assertThat(report.drained()).containsExactlyInAnyOrder("c5-1", "c5-2", "c5-3");
        assertThat(status("c5-4")).isEqualTo(InstanceStatus.SPOT_TERMINATING);
    }

    @Test
    void aRateAtTheThresholdIsViable() {
        group(b -> b.maxSize(8));
        for (String id : List.of("c5-1", "c5-2", "c5-3", "c5-4", "c5-5")) {
            fleet.launch(id, C5);
        }
        fleet.events().spotInterruptionWarning("c5-5", Optional.of(fleet.clock.instant()));

        GroupReport report = balance(); // 1 ÷ (4 + 1)

        assertThat(report.nonViableTypes()).isEmpty();
        assertThat(report.drained()).isEmpty();
        assertThat(fleet.compute.calls(FakeCompute.SET_INSTANCE_TYPES)).isEmpty();
    }

    @Test
    void aTypeThatIsNotViableLeavesTheScalingGroupAndReturnsOnceItsInterruptionsLeaveTheWindow() {
        group(b -> b.maxSize(8));
        fleet.launch("c5-1", C5);
        fleet.launch("m5-1", M5);
        lostToSpot(C5);

        balance();
        assertThat(scalingGroupTypes()).containsExactly(M5);
        balance();
        assertThat(fleet.compute.calls(FakeCompute.SET_INSTANCE_TYPES)).as("set once").hasSize(1);

        fleet.clock.advance(Fleet.VIABILITY_WINDOW);
        GroupReport viable = balance();
        assertThat(viable.nonViableTypes()).isEmpty();
        assertThat(scalingGroupTypes()).containsExactly(C5, M5);
        assertThat(fleet.scalingGroup(GROUP).onDemandOnly()).isFalse();
    }

    @Test
    void spotPreferredWithNoViableTypeFallsBackToOnDemandAndKeepsItsOnDemandInstances() {
        group(b -> b.balancingStrategy(BalancingStrategy.SPOT_PREFERRED));
        fleet.launch("c5-1", C5);
        fleet.launch("m5-1", M5);
        lostToSpot(C5);
        lostToSpot(M5);

        GroupReport fallback = balance();
        assertThat(fleet.compute.calls(FakeCompute.SET_INSTANCE_TYPES))
                .containsExactly(List.of(scalingGroup, TYPES, BalancingStrategy.ON_DEMAND_ONLY));
        assertThat(fleet.scalingGroup(GROUP).onDemandOnly()).isTrue();
        assertThat(fallback.drained()).containsExactlyInAnyOrder("c5-1", "m5-1");
        assertThat(desired()).isEqualTo(4);

        fleet.replacement(GROUP, "od-1", C5, true);
        fleet.replacement(GROUP, "od-2", M5, true);
        GroupReport replaced = balance();
        assertThat(replaced.drained()).as("On-Demand replacements are not drained").isEmpty();
        assertThat(replaced.terminated()).containsExactlyInAnyOrder("c5-1", "m5-1");
        assertThat(desired()).isEqualTo(2);
        assertThat(status("od-1")).isEqualTo(InstanceStatus.ACTIVE);
    }

    @Test
    void spotOnlyWithNoViableTypeEndsIdleInstancesButNeverTakesDesiredCapacityBelowMinSize() {
        group(b -> b.balancingStrategy(BalancingStrategy.SPOT_ONLY).minSize(2).maxSize(4));
        fleet.launch("c5-1", C5);
        fleet.launch("c5-2", C5);
        fleet.launch("m5-1", M5);
        fleet.launch("m5-2", M5);
        fleet.register("gs-playing", "m5-2");
        fleet.utilize("gs-playing");
        lostToSpot(C5);
        lostToSpot(M5);

        GroupReport first = balance();
        assertThat(first.drained()).containsExactlyInAnyOrder("c5-1", "c5-2", "m5-1", "m5-2");
        assertThat(terminations()).containsExactly(List.of("c5-1", true), List.of("c5-2", true), List.of("m5-1", false));
        assertThat(desired()).isEqualTo(2);
        assertThat(fleet.compute.calls(FakeCompute.SET_INSTANCE_TYPES)).as("nothing new may launch").isEmpty();
        assertThat(fleet.compute.calls(FakeCompute.SET_DESIRED_CAPACITY)).isEmpty();

        assertThat(balance().terminated()).as("its game goes on").isEmpty();
        fleet.gameServers().deregister(GROUP, "gs-playing", Caller.UNBOUND);
        assertThat(balance().terminated()).containsExactly("m5-2");
        assertThat(terminations()).last().isEqualTo(List.of("m5-2", false));
        assertThat(desired()).isEqualTo(2);
    }

    // ---- draining --------------------------------------------------------------------------

    @Test
    void drainingRaisesDesiredCapacityForReplacementsWithinMaxSize() {
        group(b -> b.maxSize(4));
        fleet.launch("c5-1", C5);
        fleet.launch("c5-2", C5);
        fleet.launch("m5-1", M5);
        fleet.register("gs-1", "c5-1");
        fleet.register("gs-2", "c5-2");
        lostToSpot(C5); // 1 ÷ (2 + 1)

        GroupReport report = balance();

        assertThat(report.drained()).containsExactly("c5-1", "c5-2");
        assertThat(report.desiredCapacity()).contains(4);
        assertThat(desired()).isEqualTo(4);
        assertThat(fleet.instances.find(GROUP, "c5-1").orElseThrow().replacementRequested()).isTrue();
        assertThat(fleet.instances.find(GROUP, "c5-2").orElseThrow().replacementRequested()).as("no room left").isFalse();
        assertThat(fleet.server("gs-1").instanceStatus()).isEqualTo(InstanceStatus.DRAINING);
        assertThat(fleet.server("gs-2").instanceStatus()).isEqualTo(InstanceStatus.DRAINING);
        assertThat(report.terminated()).isEmpty();
    }

    @Test
    void aRaiseOfDesiredCapacityDuringARunIsKept() {
        group(b -> b.maxSize(8));
        fleet.launch("c5-1", C5);
        fleet.launch("c5-2", C5);
        fleet.launch("m5-1", M5);
        fleet.register("gs-1", "c5-1");
        fleet.register("gs-2", "c5-2");
        lostToSpot(C5);
        int before = desired();
        // A Spot warning's handler raises desired capacity by one after the run read it (here:
        // once the run has drained, before it sets desired capacity).
        Compute raisedMeanwhile = new DelegatingCompute(fleet.compute) {
            private boolean raised;

            @Override
            public Optional<Compute.ScalingGroupState> describeScalingGroup(String name) {
                if (!raised && status("c5-1") == InstanceStatus.DRAINING) {
                    raised = true;
                    fleet.compute.setDesiredCapacity(name, fleet.compute.describeScalingGroup(name).orElseThrow()
                            .desiredCapacity() + 1);
                }
                return super.describeScalingGroup(name);
            }
        };

        List<GroupReport> reports = fleet.balancer(fleet.servers, raisedMeanwhile).runAll();

        assertThat(reports.get(0).drained()).containsExactly("c5-1", "c5-2");
        assertThat(desired()).as("the run's two replacements on top of the raise").isEqualTo(before + 1 + 2);
        assertThat(reports.get(0).desiredCapacity()).contains(before + 3);
    }

    /** A compute port that passes every call on. */
    private static class DelegatingCompute implements Compute {
        private final Compute delegate;

        DelegatingCompute(Compute delegate) {
            this.delegate = delegate;
        }

        @Override
        public String createScalingGroup(GameServerGroup group) {
            return delegate.createScalingGroup(group);
        }

        @Override
        public Optional<ScalingGroupState> describeScalingGroup(String scalingGroupName) {
            return delegate.describeScalingGroup(scalingGroupName);
        }

        @Override
        public java.util.Map<String, LaunchedInstance> launched(String scalingGroupName,
                java.util.Collection<String> instanceIds) {
            return delegate.launched(scalingGroupName, instanceIds);
        }

        @Override
        public boolean deleteScalingGroup(String scalingGroupName, boolean force) {
            return delegate.deleteScalingGroup(scalingGroupName, force);
        }

        @Override
        public void setInstanceTypes(String scalingGroupName, List<InstanceDefinition> definitions,
                BalancingStrategy strategy) {
            delegate.setInstanceTypes(scalingGroupName, definitions, strategy);
        }

        @Override
        public void setDesiredCapacity(String scalingGroupName, int desiredCapacity) {
            delegate.setDesiredCapacity(scalingGroupName, desiredCapacity);
        }

        @Override
        public void setInstanceProtection(String scalingGroupName, String instanceId, boolean protectedFromScaleIn) {
            delegate.setInstanceProtection(scalingGroupName, instanceId, protectedFromScaleIn);
        }

        @Override
        public void setTargetTrackingScaleIn(GameServerGroup group, boolean scaleIn) {
            delegate.setTargetTrackingScaleIn(group, scaleIn);
        }

        @Override
        public void terminateInstance(String scalingGroupName, String instanceId, boolean decrementDesiredCapacity) {
            delegate.terminateInstance(scalingGroupName, instanceId, decrementDesiredCapacity);
        }
    }

    /** m5-1 and c5-1 (with the idle gs-c5) in service, and c5.large not viable (1 ÷ (1 + 1)). */
    private void anM5AndAnIdleC5AfterAC5WasLost() {
        group(b -> b.maxSize(8));
        fleet.launch("m5-1", M5);
        fleet.launch("c5-1", C5);
        fleet.register("gs-c5", "c5-1");
        lostToSpot(C5);
    }

    @Test
    void anIdleDrainingInstanceEndsOnlyOnceItsReplacementServes() {
        anM5AndAnIdleC5AfterAC5WasLost();

        assertThat(balance().drained()).containsExactly("c5-1");
        assertThat(desired()).isEqualTo(3);

        fleet.replacement(GROUP, "m5-2", M5, false);
        assertThat(balance().terminated()).as("the replacement is not in service yet").isEmpty();
        assertThat(status("m5-2")).isEqualTo(InstanceStatus.ACTIVE);

        fleet.replacement(GROUP, "m5-2", M5, true);
        assertThat(balance().terminated()).containsExactly("c5-1");
        assertThat(terminations()).containsExactly(List.of("c5-1", true));
        assertThat(desired()).isEqualTo(2);
        assertThat(fleet.instances.find(GROUP, "c5-1")).isEmpty();
        assertThat(fleet.servers.find("gs-c5")).isEmpty();
    }

    @Test
    void aDrainingInstanceIsNotEndedWhileNothingElseServes() {
        group(b -> b.minSize(1).maxSize(1));
        fleet.launch("c5-1", C5);
        lostToSpot(C5);

        GroupReport first = balance();
        assertThat(first.drained()).containsExactly("c5-1");
        assertThat(first.desiredCapacity()).as("no room for a replacement").isEmpty();
        for (int run = 0; run < 3; run++) {
            assertThat(balance().terminated()).isEmpty();
        }
        assertThat(terminations()).isEmpty();
    }

    @Test
    void anInstanceBeingInterruptedIsNotServingCapacity() {
        group(b -> b.maxSize(8));
        for (String id : List.of("m5-a", "m5-1", "m5-2", "m5-3", "m5-4")) {
            fleet.launch(id, M5);
        }
        fleet.launch("c5-1", C5);
        lostToSpot(C5);
        assertThat(balance().drained()).containsExactly("c5-1");
        assertThat(desired()).isEqualTo(7);

        // The replacement serves, but m5-a gets a Spot warning while still in service: 5 serve of the 6 wanted.
        fleet.replacement(GROUP, "m5-r1", M5, true);
        fleet.events().spotInterruptionWarning("m5-a", Optional.of(fleet.clock.instant()));
        GroupReport interrupted = balance();
        assertThat(interrupted.nonViableTypes()).as("m5: 1 ÷ (5 + 1)").containsExactly(C5);
        assertThat(interrupted.terminated()).isEmpty();

        // m5-a is gone; the scaling group replaces it: 6 serve.
        fleet.compute.removeInstance(scalingGroup, "m5-a");
        fleet.events().terminated("m5-a");
        fleet.replacement(GROUP, "m5-r2", M5, true);
        assertThat(balance().terminated()).containsExactly("c5-1");
    }

    @Test
    void aClaimDuringTheRunKeepsTheDrainingInstance() {
        anM5AndAnIdleC5AfterAC5WasLost();
        balance();
        fleet.replacement(GROUP, "m5-2", M5, true);
        GameServerRepository racing = Fleet.around(GameServerRepository.class, fleet.servers, (method, args, proceed) -> {
            if (method.equals("retire")) {
                fleet.gameServers().claim(new Claim(GROUP, Optional.of("gs-c5"), Optional.empty(), Optional.empty()));
            }
            return proceed.call();
        });

        GroupReport report = fleet.balancer(racing, fleet.compute).run(fleet.group(GROUP));

        assertThat(report.terminated()).isEmpty();
        assertThat(terminations()).isEmpty();
        assertThat(status("c5-1")).isEqualTo(InstanceStatus.DRAINING);
        assertThat(fleet.log).contains("balancer: draining instance c5-1 of group arena got a claim or a game during this run; "
                + "it stays for now");
    }

    // ---- protection ------------------------------------------------------------------------

    @Test
    void fullProtectionFollowsGamesAndClaimsAndCallsComputeOnlyOnChange() {
        group(b -> b.protectionPolicy(GameServerProtectionPolicy.FULL_PROTECTION));
        fleet.launch("i-playing", C5);
        fleet.launch("i-claimed", C5);
        fleet.launch("i-idle", C5);
        fleet.register("gs-playing", "i-playing");
        fleet.register("gs-claimed", "i-claimed");
        fleet.register("gs-idle", "i-idle");
        fleet.utilize("gs-playing");
        fleet.gameServers().claim(new Claim(GROUP, Optional.of("gs-claimed"), Optional.empty(), Optional.empty()));

        balance();
        assertThat(fleet.compute.calls(FakeCompute.SET_INSTANCE_PROTECTION))
                .containsExactlyInAnyOrder(List.of(scalingGroup, "i-playing", true), List.of(scalingGroup, "i-claimed", true));
        balance();
        assertThat(fleet.compute.calls(FakeCompute.SET_INSTANCE_PROTECTION)).as("nothing changed").hasSize(2);

        // The claim lapses and the game ends.
        fleet.clock.advance(Fleet.CLAIM_TTL);
        fleet.heartbeat("gs-claimed");
        fleet.heartbeat("gs-idle");
        fleet.gameServers().deregister(GROUP, "gs-playing", Caller.UNBOUND);
        balance();
        assertThat(fleet.compute.calls(FakeCompute.SET_INSTANCE_PROTECTION)).hasSize(4).endsWith(
                List.of(scalingGroup, "i-playing", false), List.of(scalingGroup, "i-claimed", false));
    }

    @Test
    void noProtectionLeavesUnprotectedInstancesAlone() {
        group(b -> b.protectionPolicy(GameServerProtectionPolicy.NO_PROTECTION));
        fleet.launch("i-playing", C5);
        fleet.register("gs-playing", "i-playing");
        fleet.utilize("gs-playing");
        balance();
        assertThat(fleet.compute.calls(FakeCompute.SET_INSTANCE_PROTECTION)).isEmpty();
    }

    // ---- bookkeeping, sweep, repair ------------------------------------------------------

    @Test
    void newInstancesAreRecordedAndGoneOnesForgottenWithTheirServers() {
        group(b -> b);
        fleet.launch("i-old", C5);
        fleet.register("gs-old", "i-old");
        fleet.compute.removeInstance(scalingGroup, "i-old");
        fleet.replacement(GROUP, "i-new", M5, true);

        balance();

        assertThat(fleet.instances.listAll(GROUP)).extracting(GameServerInstance::instanceId, GameServerInstance::instanceStatus)
                .containsExactly(tuple("i-new", InstanceStatus.ACTIVE));
        assertThat(fleet.servers.find("gs-old")).isEmpty();
    }

    @Test
    void serversWithoutAHeartbeatPastTheHealthTimeoutAreDeregistered() {
        group(b -> b);
        fleet.launch("i-1", C5);
        fleet.register("gs-silent", "i-1");
        fleet.register("gs-beating", "i-1");

        fleet.clock.advance(Fleet.HEALTH_TIMEOUT);
        fleet.heartbeat("gs-beating");
        assertThat(balance().swept()).as("at the timeout itself it is still healthy").isZero();

        fleet.clock.advance(Duration.ofMillis(1));
        GroupReport report = balance();

        assertThat(report.swept()).isEqualTo(1);
        assertThat(fleet.servers.find("gs-silent")).isEmpty();
        assertThat(fleet.servers.find("gs-beating")).isPresent();
        assertThat(report.counts()).isEqualTo(new GameServerCounts(1, 0, 0, 0));
        assertThat(fleet.log).anyMatch(line -> line.startsWith("balancer: deregistered game server gs-silent of group arena: "
                + "no heartbeat since 2100-01-01T00:00:00Z (health timeout 60 s)"));
    }

    @Test
    void aServerThatKeptItsInstancesOldStatusIsRepaired() {
        group(b -> b);
        fleet.launch("i-draining", C5);
        fleet.launch("i-interrupted", C5);
        fleet.register("gs-draining", "i-draining");
        fleet.register("gs-interrupted", "i-interrupted");
        // The instances moved while the servers registered: the servers still say ACTIVE.
        fleet.setInstanceStatus(GROUP, "i-draining", InstanceStatus.DRAINING);
        fleet.setInstanceStatus(GROUP, "i-interrupted", InstanceStatus.SPOT_TERMINATING);

        balance();

        assertThat(fleet.server("gs-draining").instanceStatus()).isEqualTo(InstanceStatus.DRAINING);
        assertThat(fleet.server("gs-interrupted").instanceStatus()).isEqualTo(InstanceStatus.SPOT_TERMINATING);
        GameServerServiceTest.fails(() -> fleet.gameServers().claim(new Claim(GROUP, Optional.empty(), Optional.empty(),
                Optional.of(EnumSet.of(InstanceStatus.ACTIVE)))), ErrorKind.OUT_OF_CAPACITY,
                "no game server of game server group arena can be claimed now");
        assertThat(fleet.claim(GROUP).gameServerId()).as("DRAINING, as a last resort").isEqualTo("gs-draining");
    }

    // ---- metrics and groups ------------------------------------------------------------------

    @Test
    void eachRunPublishesTheGroupsServerCounts() {
        group(b -> b);
        fleet.launch("i-active", C5);
        fleet.launch("i-draining", C5);
        fleet.launch("i-interrupted", C5);
        for (String id : List.of("gs-a-available", "gs-a-utilized", "gs-a-claimed")) {
            fleet.register(id, "i-active");
        }
        for (String id : List.of("gs-d-available", "gs-d-utilized")) {
            fleet.register(id, "i-draining");
        }
        for (String id : List.of("gs-i-available", "gs-i-utilized")) {
            fleet.register(id, "i-interrupted");
        }
        for (String id : List.of("gs-a-utilized", "gs-d-utilized", "gs-i-utilized")) {
            fleet.utilize(id);
        }
        fleet.gameServers().claim(new Claim(GROUP, Optional.of("gs-a-claimed"), Optional.empty(), Optional.empty()));
        fleet.setInstanceStatus(GROUP, "i-draining", InstanceStatus.DRAINING);
        fleet.setInstanceStatus(GROUP, "i-interrupted", InstanceStatus.SPOT_TERMINATING);

        GroupReport report = balance();

        // Claimed counts as available; servers on the interrupted instance do not count.
        GameServerCounts expected = new GameServerCounts(3, 2, 1, 1);
        assertThat(report.counts()).isEqualTo(expected);
        assertThat(fleet.metrics.gameServers()).containsExactly(new GameServersReport(
                GROUP, expected));
        assertThat(expected.percentUtilized()).isEqualTo(40.0);
        // What a console shows without listing: only the unclaimed server on the ACTIVE instance is
        // claimable; the two on the interrupted instance are in no count.
        assertThat(fleet.summaries.find(GROUP)).contains(new GroupSummary(fleet.clock.instant(), 7, expected, 1, 1, 2,
                new ProcessCounts(0, 0, 0, 0, 0)));
    }

    @Test
    void onlyActiveGroupsAreBalancedAndAGroupWithoutScalingGroupIsSkipped() {
        group(b -> b);
        fleet.activeGroup("orphan", b -> b);
        fleet.compute.deleteScalingGroup(Fleet.SETTINGS.autoScalingGroupName("orphan"), true);
        fleet.groupService().create(Fleet.draft("new").build());
        fleet.activeGroup("leaving", b -> b);
        fleet.groupService().delete("leaving", DeleteOption.SAFE_DELETE);

        List<GroupReport> reports = fleet.balancer().runAll();

        assertThat(reports).extracting(GroupReport::group).containsExactlyInAnyOrder(GROUP, "orphan");
        assertThat(fleet.metrics.gameServers()).extracting(GameServersReport::group).containsExactly(GROUP);
        assertThat(fleet.log).contains("balancer: group orphan has no Auto Scaling group gamefleet-orphan");
    }

    @Test
    void aGroupWhoseRunFailsDoesNotStopTheOthers() {
        fleet.activeGroup("broken", b -> b);
        fleet.clock.advance(Duration.ofSeconds(1));
        group(b -> b);
        Compute failingForBroken = Fleet.around(Compute.class, fleet.compute, (method, args, proceed) -> {
            if (method.equals("describeScalingGroup") && args[0].equals("gamefleet-broken")) {
                throw new Compute.ComputeException("throttled", true, null);
            }
            return proceed.call();
        });

        List<GroupReport> reports = fleet.balancer(fleet.servers, failingForBroken).runAll();

        assertThat(reports).extracting(GroupReport::group).containsExactly(GROUP);
        assertThat(fleet.log).anyMatch(line -> line.startsWith("balancer: group broken failed this run: "));
        assertThat(fleet.metrics.gameServers()).extracting(GameServersReport::group).containsExactly(GROUP);
    }
}

package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.domain.StandbyPolicy.Buffer;
import io.gamefleet.domain.fakes.FakeCompute;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Standby buffers kept by the balancer's runs on the fakes: capacity raised, idle instances ended, target tracking. */
class StandbyScalerTest {
    private static final Duration COOLDOWN = Duration.ofMinutes(5);

    private final Fleet fleet = new Fleet();
    private final StandbyService standby = new StandbyService(fleet.groups, fleet.standby, Fleet.SETTINGS, fleet.clock);

    private static StandbyPolicy buffer(int servers) {
        return new StandbyPolicy(Buffer.count(servers), List.of(), StandbyPolicy.DEFAULT_RAMP_DOWN, List.of(), COOLDOWN);
    }

    /** An ACTIVE group of sizes 1 to 10 with {@code instances} instances of 4 AVAILABLE servers each. */
    private void groupOf(int instances, AutoScalingPolicy policy) {
        fleet.activeGroup(GROUP, b -> b.minSize(1).maxSize(10).autoScalingPolicy(policy));
        for (int i = 1; i <= instances; i++) {
            fleet.launch(GROUP, "i-" + i, C5, fleet.clock.instant().minus(Duration.ofHours(10 - i)));
            for (int s = 1; s <= 4; s++) {
                fleet.register("gs-" + i + "-" + s, "i-" + i);
            }
        }
    }

    private int desired() {
        return fleet.scalingGroup(GROUP).desiredCapacity();
    }

    private List<String> instanceIds() {
        return fleet.scalingGroup(GROUP).instances().stream().map(Compute.ComputeInstance::instanceId).toList();
    }

    private void heartbeats() {
        fleet.servers.listAll(GROUP).forEach(s -> fleet.heartbeat(s.gameServerId()));
    }

    @Test
    void capacityIsRaisedToHoldTheServersInUseAndTheBuffer() {
        groupOf(1, null);
        standby.put(GROUP, buffer(10));

        fleet.balancer().runAll();

        // 0 in use + 10 StandingBy at 4 servers per instance, measured on i-1: three instances.
        assertThat(desired()).isEqualTo(3);
        StandbyState.Evaluation last = standby.describe(GROUP).lastEvaluation().orElseThrow();
        assertThat(last.target()).isEqualTo(10);
        assertThat(last.standingBy()).isEqualTo(4);
        assertThat(last.serversPerInstance()).isEqualTo(4);

        fleet.claim(GROUP);
        fleet.claim(GROUP);
        fleet.balancer().runAll();
        assertThat(desired()).isEqualTo(3); // (2 + 10) / 4
        fleet.claim(GROUP);
        fleet.balancer().runAll();
        assertThat(desired()).isEqualTo(4); // (3 + 10) / 4 = 3.25
    }

    @Test
    void idleInstancesEndAfterTheCooldownAndOnesWithGamesStay() {
        groupOf(4, null);
        standby.put(GROUP, buffer(4));
        // The oldest instance's servers are claimed first: i-1 holds the two games.
        fleet.claim(GROUP);
        fleet.utilize(fleet.claim(GROUP).gameServerId());

        fleet.balancer().runAll();
        assertThat(instanceIds()).hasSize(4); // (2 + 4) / 4: two are needed, but the cooldown has not passed

        fleet.clock.advance(COOLDOWN);
        heartbeats();
        fleet.balancer().runAll();

        assertThat(instanceIds()).containsExactly("i-1", "i-2");
        assertThat(desired()).isEqualTo(2);
        assertThat(fleet.compute.calls(FakeCompute.TERMINATE_INSTANCE)).extracting(args -> args.get(1))
                .containsExactly("i-4", "i-3");
        assertThat(fleet.servers.onInstance("i-4")).isEmpty();
        assertThat(fleet.log).anyMatch(line -> line.contains("ended idle instances [i-4, i-3]"));
    }

    @Test
    void withTheBufferOnTargetTrackingOnlyAddsInstancesAndScalesInAgainWhenItIsOff() {
        groupOf(1, new AutoScalingPolicy(null, 70));
        standby.put(GROUP, buffer(4));

        fleet.balancer().runAll();
        fleet.balancer().runAll();
        assertThat(fleet.compute.calls(FakeCompute.SET_TARGET_TRACKING_SCALE_IN)).extracting(args -> args.get(1))
                .containsExactly(false);

        standby.put(GROUP, StandbyPolicy.none());
        fleet.balancer().runAll();
        fleet.balancer().runAll();
        assertThat(fleet.compute.calls(FakeCompute.SET_TARGET_TRACKING_SCALE_IN)).extracting(args -> args.get(1))
                .containsExactly(false, true);
    }

    @Test
    void aGroupWithoutABufferIsLeftToTargetTrackingAndAnEarlierGroupsBufferIsNotItsOwn() {
        groupOf(1, null);
        fleet.balancer().runAll();
        assertThat(fleet.compute.calls(FakeCompute.SET_DESIRED_CAPACITY)).isEmpty();
        assertThat(standby.describe(GROUP).policy()).isEqualTo(StandbyPolicy.none());

        fleet.standby.put(GROUP, new StandbyRepository.Standby(fleet.group(GROUP).creationTime().minusSeconds(1), "old",
                buffer(40), StandbyState.initial()));
        fleet.balancer().runAll();
        assertThat(fleet.compute.calls(FakeCompute.SET_DESIRED_CAPACITY)).isEmpty();
        assertThat(standby.describe(GROUP).policy()).isEqualTo(StandbyPolicy.none());
    }

    @Test
    void anUnknownGroupHasNoBuffer() {
        assertThatThrownBy(() -> standby.put("nope", buffer(1))).isInstanceOf(GamefleetException.class)
                .hasMessageContaining("does not exist");
        assertThat(fleet.standby.find("nope")).isEmpty();
    }

    @Test
    void anEvaluationAClaimAskedForRaisesCapacityAndNeverEndsAnInstance() {
        groupOf(1, null);
        standby.put(GROUP, buffer(4));
        fleet.balancer().runAll();
        assertThat(desired()).isEqualTo(1);

        fleet.claim(GROUP);
        fleet.claim(GROUP);
        // Within the interval of the run's evaluation, a request's is not made.
        fleet.clock.advance(StandbyScaler.REQUESTED_EVALUATION_INTERVAL.minusMillis(1));
        assertThat(fleet.balancer().keepStandby(GROUP)).isEmpty();
        assertThat(desired()).isEqualTo(1);
        // (2 + 4) / 4: two instances, asked for before any run.
        fleet.clock.advance(Duration.ofMillis(1));
        assertThat(fleet.balancer().keepStandby(GROUP)).contains(2);
        assertThat(desired()).isEqualTo(2);
        assertThat(standby.describe(GROUP).lastEvaluation().orElseThrow().at()).isEqualTo(fleet.clock.instant());

        // A surplus is left to the runs, which count its cooldown.
        standby.put(GROUP, buffer(1));
        fleet.clock.advance(Duration.ofHours(1));
        heartbeats();
        assertThat(fleet.balancer().keepStandby(GROUP)).isEmpty();
        assertThat(desired()).isEqualTo(2);
        assertThat(fleet.compute.calls(FakeCompute.TERMINATE_INSTANCE)).isEmpty();
        assertThat(fleet.balancer().keepStandby("nope")).isEmpty();
    }

    @Test
    void claimsAndDeregistrationsAskForTheirGroupsEvaluation() {
        groupOf(1, null);
        List<String> asked = new java.util.ArrayList<>();
        GameServerService service = new GameServerService(fleet.groups, fleet.servers, fleet.instances,
                () -> fleet.compute, new ClaimPolicy(1, new java.util.SplittableRandom(1)), fleet.tokens, Fleet.SETTINGS,
                fleet.clock, InstanceNotices.none(), asked::add);

        GameServer claimed = service.claim(new GameServerService.Claim(GROUP, java.util.Optional.empty(),
                java.util.Optional.empty(), java.util.Optional.empty()));
        service.deregister(GROUP, claimed.gameServerId(), Caller.ADMINISTRATOR);

        assertThat(asked).containsExactly(GROUP, GROUP);
    }
}

package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static io.gamefleet.domain.Fleet.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.domain.InterruptionRepository.Interruption;
import io.gamefleet.domain.fakes.FakeCompute;
import io.gamefleet.domain.fakes.RecordingMetrics.InterruptionReport;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** EC2's Spot interruption warnings and terminations, delivered once or more. */
class InstanceEventsTest {
    private final Fleet fleet = new Fleet();
    private final InstanceEvents events = fleet.events();
    private final Instant warnedAt = T0.minusSeconds(5);

    /** i-1 with gs-1 and gs-2, i-2 with gs-3. */
    @BeforeEach
    void twoInstancesWithServers() {
        fleet.activeGroup();
        fleet.launch("i-1", C5);
        fleet.launch("i-2", C5);
        fleet.register("gs-1", "i-1");
        fleet.register("gs-2", "i-1");
        fleet.register("gs-3", "i-2");
    }

    private InstanceStatus instanceStatus(String instanceId) {
        return fleet.instances.find(GROUP, instanceId).orElseThrow().instanceStatus();
    }

    private List<Interruption> interruptions() {
        return fleet.interruptions.since(GROUP, Instant.EPOCH);
    }

    @Test
    void aSpotWarningTakesTheInstanceAndItsServersOutOfClaimsAndCountsTheInterruption() {
        assertThat(events.spotInterruptionWarning("i-1", Optional.of(warnedAt))).isTrue();

        assertThat(instanceStatus("i-1")).isEqualTo(InstanceStatus.SPOT_TERMINATING);
        assertThat(fleet.server("gs-1").instanceStatus()).isEqualTo(InstanceStatus.SPOT_TERMINATING);
        assertThat(fleet.server("gs-2").instanceStatus()).isEqualTo(InstanceStatus.SPOT_TERMINATING);
        assertThat(fleet.server("gs-3").instanceStatus()).isEqualTo(InstanceStatus.ACTIVE);
        assertThat(interruptions()).containsExactly(new Interruption(GROUP, "i-1", C5, warnedAt));
        assertThat(fleet.metrics.interruptions()).containsExactly(new InterruptionReport(GROUP, C5, 2));
        assertThat(fleet.log).containsExactly("instance events: Spot interruption of i-1 (c5.large) in group arena; "
                + "2 game servers affected");

        assertThat(fleet.claim(GROUP).gameServerId()).isEqualTo("gs-3");
        GameServerServiceTest.fails(() -> fleet.claim(GROUP), ErrorKind.OUT_OF_CAPACITY,
                "no game server of game server group arena can be claimed now");
    }

    @Test
    void aStoppingInstanceTakesNoClaimButCountsNoInterruptionAndStartsNoReplacement() {
        assertThat(events.stopping("i-1")).isTrue();

        assertThat(instanceStatus("i-1")).isEqualTo(InstanceStatus.SPOT_TERMINATING);
        assertThat(fleet.server("gs-1").instanceStatus()).isEqualTo(InstanceStatus.SPOT_TERMINATING);
        assertThat(fleet.server("gs-3").instanceStatus()).isEqualTo(InstanceStatus.ACTIVE);
        assertThat(interruptions()).isEmpty();
        assertThat(fleet.metrics.interruptions()).isEmpty();
        assertThat(fleet.compute.calls(FakeCompute.SET_DESIRED_CAPACITY)).isEmpty();
        assertThat(fleet.instances.find(GROUP, "i-1").orElseThrow().replacementRequested()).isFalse();
        assertThat(fleet.log).containsExactly("instance events: instance i-1 of group arena is stopping (no Spot"
                + " interruption); its game servers take no claim");
        assertThat(fleet.claim(GROUP).gameServerId()).isEqualTo("gs-3");
        assertThat(events.stopping("i-stranger")).isFalse();
    }

    @Test
    void aWarningDeliveredTwiceCountsOnce() {
        events.spotInterruptionWarning("i-1", Optional.of(warnedAt));
        fleet.gameServers().deregister(GROUP, "gs-2", Caller.UNBOUND);
        fleet.clock.advance(Duration.ofSeconds(30));

        assertThat(events.spotInterruptionWarning("i-1", Optional.of(warnedAt))).isTrue();

        assertThat(interruptions()).hasSize(1);
        assertThat(fleet.metrics.interruptions()).containsExactly(new InterruptionReport(GROUP, C5, 2));
        assertThat(fleet.log).hasSize(1);
        assertThat(instanceStatus("i-1")).isEqualTo(InstanceStatus.SPOT_TERMINATING);
    }

    @Test
    void aWarningRetriedAfterAFailureFinishesTheWorkWithoutCountingAgain() {
        AtomicBoolean failed = new AtomicBoolean();
        InstanceEvents failingOnce = fleet.events(Fleet.around(GameServerRepository.class, fleet.servers,
                (method, args, proceed) -> {
                    if (method.equals("setInstanceStatus") && !failed.getAndSet(true)) {
                        throw new IllegalStateException("DynamoDB throttled the transaction");
                    }
                    return proceed.call();
                }));
        assertThatThrownBy(() -> failingOnce.spotInterruptionWarning("i-1", Optional.of(warnedAt)))
                .hasMessage("DynamoDB throttled the transaction");
        assertThat(fleet.server("gs-1").instanceStatus()).isEqualTo(InstanceStatus.ACTIVE);

        assertThat(failingOnce.spotInterruptionWarning("i-1", Optional.of(warnedAt))).isTrue();

        assertThat(fleet.server("gs-1").instanceStatus()).isEqualTo(InstanceStatus.SPOT_TERMINATING);
        assertThat(fleet.server("gs-2").instanceStatus()).isEqualTo(InstanceStatus.SPOT_TERMINATING);
        assertThat(fleet.metrics.interruptions()).hasSize(1);
        assertThat(interruptions()).hasSize(1);
    }

    @Test
    void aWarningWithoutItsTimeIsTimedByTheClock() {
        fleet.clock.advance(Duration.ofSeconds(7));
        events.spotInterruptionWarning("i-1", Optional.empty());
        assertThat(interruptions()).extracting(Interruption::at).containsExactly(T0.plusSeconds(7));
    }

    @Test
    void aTerminatedInstanceIsForgottenWithItsServers() {
        assertThat(events.terminated("i-1")).isTrue();

        assertThat(fleet.instances.find(GROUP, "i-1")).isEmpty();
        assertThat(fleet.servers.find("gs-1")).isEmpty();
        assertThat(fleet.servers.find("gs-2")).isEmpty();
        assertThat(fleet.servers.find("gs-3")).isPresent();
        assertThat(fleet.instances.find(GROUP, "i-2")).isPresent();
        assertThat(events.terminated("i-1")).as("delivered again: nothing left to do").isFalse();
    }

    @Test
    void eventsForInstancesOfNoGroupAreIgnored() {
        assertThat(events.spotInterruptionWarning("i-stranger", Optional.of(warnedAt))).isFalse();
        assertThat(events.terminated("i-stranger")).isFalse();

        assertThat(interruptions()).isEmpty();
        assertThat(fleet.metrics.interruptions()).isEmpty();
        assertThat(fleet.instances.findById("i-stranger")).isEmpty();
        assertThat(fleet.log).isEmpty();
    }
}

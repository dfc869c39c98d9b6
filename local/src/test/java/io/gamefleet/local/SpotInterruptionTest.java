package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.Compute.ScalingGroupState;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.InstanceStatus;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Spot interruption on the local profile: the replacement starts with the warning, so the
 * group serves at its desired capacity through the two minutes' notice, and is back to it, not
 * one larger, once the interrupted instance has ended.
 */
class SpotInterruptionTest {
    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension()
            .localOnly("Spot interruptions of its simulated fleet, a clock the test moves and balancer runs on demand");

    private static final String GROUP = "noticed";

    private final GamefleetClient admin = LOCAL.admin();

    private ScalingGroupState scaling() {
        return LOCAL.profile().fleet().describeScalingGroup("gamefleet-" + GROUP).orElseThrow();
    }

    /** Instances in service that take claims: ACTIVE, or launched so lately that Gamefleet has not recorded them yet. */
    private long serving() {
        Map<String, InstanceStatus> recorded = LOCAL.profile().services().groups()
                .describeInstances(GROUP, Optional.empty(), 100, Optional.empty()).items().stream()
                .collect(Collectors.toMap(GameServerInstance::instanceId, GameServerInstance::instanceStatus));
        return scaling().instances().stream().filter(ComputeInstance::inService)
                .filter(i -> recorded.getOrDefault(i.instanceId(), InstanceStatus.ACTIVE) == InstanceStatus.ACTIVE)
                .count();
    }

    private void balance() {
        LOCAL.profile().services().balancer().runAll();
    }

    @Test
    void theGroupServesAtDesiredCapacityThroughTheNotice() {
        admin.createActive(GamefleetClient.groupBody(GROUP, 6, 12));
        assertThat(scaling().desiredCapacity()).isEqualTo(6);
        assertThat(serving()).isEqualTo(6);
        String interrupted = scaling().instances().get(0).instanceId();

        LOCAL.profile().fleet().interrupt(interrupted);
        assertThat(serving()).as("at the warning").isEqualTo(6);
        assertThat(scaling().desiredCapacity()).isEqualTo(7);
        // The warning delivered again starts no second replacement.
        LOCAL.profile().services().instanceEvents().spotInterruptionWarning(interrupted, Optional.empty());
        assertThat(scaling().desiredCapacity()).isEqualTo(7);

        // Through the notice (the balancer drains the interrupted type's other instances meanwhile).
        for (int step = 0; step < 4; step++) {
            balance();
            assertThat(serving()).as("%d s into the notice", step * 30).isEqualTo(6);
            LOCAL.clock().advance(Duration.ofSeconds(30));
            LOCAL.profile().fleet().tick();
        }
        assertThat(scaling().instances()).extracting(ComputeInstance::instanceId).doesNotContain(interrupted);
        assertThat(serving()).as("as it ends").isEqualTo(6);

        // Once the drained instances have ended too, the group is as large as before.
        balance();
        balance();
        assertThat(serving()).isEqualTo(6);
        assertThat(scaling().desiredCapacity()).isEqualTo(6);
        assertThat(scaling().instances()).hasSize(6);
    }
}

package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static io.gamefleet.domain.Fleet.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gamefleet.domain.GroupLifecycle.StepRefusedException;
import io.gamefleet.domain.GroupLifecycle.Workflow;
import io.gamefleet.domain.fakes.FakeCompute;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The steps of the activation and deletion workflows, each run twice as a retry would. */
class GroupLifecycleTest {
    /** Up to 250 servers on one instance (several purge batches): a stage that raised maxGameServersPerInstance. */
    private final Fleet fleet = new Fleet().allowGameServersPerInstance(250);
    private final GroupLifecycle steps = fleet.lifecycle();
    private final GroupService groups = fleet.groupService();
    private final String scalingGroup = Fleet.SETTINGS.autoScalingGroupName(GROUP);

    private GameServerGroup group() {
        return fleet.group(GROUP);
    }

    private void refused(Runnable step, String reason) {
        assertThatThrownBy(step::run).isInstanceOf(StepRefusedException.class).hasMessage(reason);
    }

    /** Created with the API and past the activation's first two steps. */
    private String activating() {
        groups.create(Fleet.draft(GROUP).build());
        steps.startActivation(GROUP);
        return steps.createScalingGroup(GROUP);
    }

    // ---- activation ------------------------------------------------------------------------

    @Test
    void activationStepByStep() {
        groups.create(Fleet.draft(GROUP).build());

        steps.startActivation(GROUP);
        steps.startActivation(GROUP);
        assertThat(group().status()).isEqualTo(GameServerGroupStatus.ACTIVATING);
        assertThat(group().version()).as("written once").isEqualTo(1);

        String arn = steps.createScalingGroup(GROUP);
        assertThat(steps.createScalingGroup(GROUP)).isEqualTo(arn);
        assertThat(fleet.scalingGroup(GROUP).instanceTypes()).isEqualTo(Fleet.TYPES);
        assertThat(fleet.scalingGroup(GROUP).desiredCapacity()).isEqualTo(1);

        assertThat(steps.checkActivation(GROUP)).as("no instance yet").isFalse();
        fleet.replacement(GROUP, "i-1", C5, false);
        assertThat(steps.checkActivation(GROUP)).as("launched, not in service").isFalse();
        assertThat(fleet.instances.find(GROUP, "i-1")).map(GameServerInstance::instanceStatus).contains(InstanceStatus.ACTIVE);
        fleet.replacement(GROUP, "i-1", C5, true);
        assertThat(steps.checkActivation(GROUP)).isTrue();
        assertThat(steps.checkActivation(GROUP)).isTrue();
        assertThat(fleet.instances.listAll(GROUP)).extracting(GameServerInstance::instanceId).containsExactly("i-1");

        steps.completeActivation(GROUP, arn);
        long version = group().version();
        steps.completeActivation(GROUP, arn);
        assertThat(group().status()).isEqualTo(GameServerGroupStatus.ACTIVE);
        assertThat(group().autoScalingGroupArn()).isEqualTo(arn);
        assertThat(group().statusReason()).isNull();
        assertThat(group().version()).as("the second completion wrote nothing").isEqualTo(version);

        // Game servers can register on the instance the activation recorded.
        assertThat(fleet.register("gs-1", "i-1").instanceStatus()).isEqualTo(InstanceStatus.ACTIVE);
    }

    @Test
    void aStepRefusesAGroupInAnotherStatusOrGone() {
        groups.create(Fleet.draft(GROUP).build());
        refused(() -> steps.createScalingGroup(GROUP),
                "game server group arena is NEW where [ACTIVATING] was expected; the workflow stopped");
        refused(() -> steps.completeActivation(GROUP, "arn"),
                "game server group arena is NEW where [ACTIVATING] was expected; the workflow stopped");
        refused(() -> steps.checkActivation("nowhere"), "game server group nowhere no longer exists");

        fleet.activeGroup("live", b -> b);
        refused(() -> steps.startActivation("live"),
                "game server group live is ACTIVE where [NEW] was expected; the workflow stopped");
        refused(() -> steps.startDeleting("live"),
                "game server group live is ACTIVE where [DELETE_SCHEDULED] was expected; the workflow stopped");
        assertThat(fleet.compute.calls(FakeCompute.CREATE_SCALING_GROUP)).isEmpty();
    }

    @Test
    void anActivationWithNoInstanceInServiceInTimeEndsInErrorWithTheReason() {
        activating();
        fleet.replacement(GROUP, "i-1", C5, false);

        fleet.clock.advance(Fleet.ACTIVATION_TIMEOUT);
        assertThat(steps.checkActivation(GROUP)).as("at the timeout itself it still waits").isFalse();
        fleet.clock.advance(Duration.ofMillis(1));
        StepRefusedException timedOut = catchThrowableOfType(() -> steps.checkActivation(GROUP), StepRefusedException.class);
        assertThat(timedOut).hasMessage("no instance of Auto Scaling group gamefleet-arena came into service within 600 "
                + "seconds; check the launch template, the subnets and the instance types' availability");

        // The workflow's failure state records it.
        assertThat(steps.recordFailure(GROUP, Workflow.ACTIVATION, timedOut.getMessage())).isTrue();
        assertThat(group().status()).isEqualTo(GameServerGroupStatus.ERROR);
        assertThat(group().statusReason()).isEqualTo(timedOut.getMessage());
        assertThat(steps.recordFailure(GROUP, Workflow.ACTIVATION, "again")).as("ERROR is no workflow's status").isFalse();
        assertThat(group().statusReason()).isEqualTo(timedOut.getMessage());
    }

    @Test
    void aFailureIsRecordedOnlyOnAGroupStillInTheFailedWorkflowsStatuses() {
        GameServerGroup active = fleet.activeGroup();
        assertThat(steps.recordFailure(GROUP, Workflow.ACTIVATION, "late failure")).isFalse();
        assertThat(group()).isEqualTo(active);
        assertThat(steps.recordFailure("nowhere", Workflow.ACTIVATION, "gone")).isFalse();

        groups.delete(GROUP, DeleteOption.SAFE_DELETE);
        assertThat(steps.recordFailure(GROUP, Workflow.ACTIVATION, "wrong workflow")).isFalse();
        assertThat(steps.recordFailure(GROUP, Workflow.DELETION, "compute refused")).isTrue();
        assertThat(group().status()).isEqualTo(GameServerGroupStatus.ERROR);
        assertThat(group().statusReason()).isEqualTo("compute refused");
    }

    // ---- deletion --------------------------------------------------------------------------

    @Test
    void aSafeDeleteWaitsForGamesThenLiftsProtectionAndDeletesEverything() {
        fleet.activeGroup(GROUP, b -> b.protectionPolicy(GameServerProtectionPolicy.FULL_PROTECTION));
        fleet.launch("i-1", C5);
        fleet.launch("i-2", C5);
        fleet.register("gs-playing", "i-1");
        fleet.register("gs-idle", "i-2");
        fleet.utilize("gs-playing");
        fleet.compute.setInstanceProtection(scalingGroup, "i-1", true);
        groups.delete(GROUP, DeleteOption.SAFE_DELETE);

        assertThat(steps.readyToDelete(GROUP)).isFalse();
        assertThat(steps.readyToDelete(GROUP)).isFalse();
        fleet.gameServers().deregister(GROUP, "gs-playing", Caller.UNBOUND);
        assertThat(steps.readyToDelete(GROUP)).isTrue();

        steps.startDeleting(GROUP);
        steps.startDeleting(GROUP);
        assertThat(group().status()).isEqualTo(GameServerGroupStatus.DELETING);
        assertThat(steps.readyToDelete(GROUP)).as("a retry after the move").isTrue();

        assertThat(steps.deleteScalingGroup(GROUP)).isTrue();
        assertThat(fleet.compute.calls(FakeCompute.SET_INSTANCE_PROTECTION)).last().isEqualTo(List.of(scalingGroup, "i-1", false));
        assertThat(fleet.compute.calls(FakeCompute.DELETE_SCALING_GROUP)).containsExactly(List.of(scalingGroup, false));
        assertThat(fleet.compute.scalingGroup(scalingGroup)).isEmpty();
        assertThat(steps.deleteScalingGroup(GROUP)).isTrue();

        assertThat(steps.purgeRecords(GROUP)).isTrue();
        assertThat(steps.purgeRecords(GROUP)).isTrue();
        assertThat(fleet.servers.listAll(GROUP)).isEmpty();
        assertThat(fleet.instances.listAll(GROUP)).isEmpty();

        steps.completeDeletion(GROUP);
        GameServerGroup deleted = group();
        fleet.clock.advance(Duration.ofMinutes(5));
        steps.completeDeletion(GROUP);
        assertThat(deleted.status()).isEqualTo(GameServerGroupStatus.DELETED);
        assertThat(deleted.expiresAt()).isEqualTo(T0.plus(Fleet.DELETED_RETENTION));
        assertThat(group()).as("the retry changed nothing").isEqualTo(deleted);
    }

    @Test
    void retainWaitsForGamesTooAndKeepsTheScalingGroup() {
        fleet.activeGroup();
        fleet.launch("i-1", C5);
        fleet.register("gs-playing", "i-1");
        fleet.utilize("gs-playing");
        groups.delete(GROUP, DeleteOption.RETAIN);

        assertThat(steps.readyToDelete(GROUP)).isFalse();
        fleet.gameServers().deregister(GROUP, "gs-playing", Caller.UNBOUND);
        assertThat(steps.readyToDelete(GROUP)).isTrue();
        steps.startDeleting(GROUP);
        assertThat(steps.deleteScalingGroup(GROUP)).isTrue();
        assertThat(steps.deleteScalingGroup(GROUP)).isTrue();

        assertThat(fleet.compute.calls(FakeCompute.DELETE_SCALING_GROUP)).isEmpty();
        assertThat(fleet.compute.calls(FakeCompute.SET_INSTANCE_PROTECTION)).isEmpty();
        assertThat(fleet.scalingGroup(GROUP).instances()).hasSize(1);
    }

    @Test
    void aForceDeleteGoesAheadDuringGamesAndEndsProtectedInstances() {
        fleet.activeGroup(GROUP, b -> b.protectionPolicy(GameServerProtectionPolicy.FULL_PROTECTION));
        fleet.launch("i-1", C5);
        fleet.register("gs-playing", "i-1");
        fleet.utilize("gs-playing");
        fleet.compute.setInstanceProtection(scalingGroup, "i-1", true);
        groups.delete(GROUP, DeleteOption.FORCE_DELETE);

        assertThat(steps.readyToDelete(GROUP)).isTrue();
        steps.startDeleting(GROUP);
        assertThat(steps.deleteScalingGroup(GROUP)).isTrue();

        assertThat(fleet.compute.calls(FakeCompute.DELETE_SCALING_GROUP)).containsExactly(List.of(scalingGroup, true));
        assertThat(fleet.compute.calls(FakeCompute.SET_INSTANCE_PROTECTION)).hasSize(1); // the arrangement's own
        assertThat(fleet.compute.scalingGroup(scalingGroup)).isEmpty();
    }

    @Test
    void recordsArePurgedInBatchesServersFirst() {
        fleet.activeGroup();
        for (int n = 0; n < 160; n++) {
            fleet.launch(String.format("i-%03d", n), C5);
        }
        for (int n = 0; n < 250; n++) {
            fleet.register("gs-" + n, "i-000");
        }
        groups.delete(GROUP, DeleteOption.FORCE_DELETE);
        refused(() -> steps.purgeRecords(GROUP),
                "game server group arena is DELETE_SCHEDULED where [DELETING] was expected; the workflow stopped");
        steps.startDeleting(GROUP);

        assertThat(GroupLifecycle.PURGE_BATCH).isEqualTo(200);
        assertThat(steps.purgeRecords(GROUP)).isFalse();
        assertThat(fleet.servers.listAll(GROUP)).hasSize(50);
        assertThat(fleet.instances.listAll(GROUP)).hasSize(160);
        assertThat(steps.purgeRecords(GROUP)).as("50 servers and 150 instances: a full batch").isFalse();
        assertThat(fleet.servers.listAll(GROUP)).isEmpty();
        assertThat(fleet.instances.listAll(GROUP)).hasSize(10);
        assertThat(steps.purgeRecords(GROUP)).isTrue();
        assertThat(fleet.instances.listAll(GROUP)).isEmpty();
        assertThat(steps.purgeRecords(GROUP)).isTrue();
    }

    @Test
    void aDeletedGroupTakesNoServerAndNoClaim() {
        fleet.activeGroup();
        fleet.launch("i-1", C5);
        fleet.register("gs-1", "i-1");
        groups.delete(GROUP, DeleteOption.FORCE_DELETE);
        steps.startDeleting(GROUP);
        steps.deleteScalingGroup(GROUP);
        steps.purgeRecords(GROUP);
        steps.completeDeletion(GROUP);

        GameServerServiceTest.fails(() -> fleet.claim(GROUP), ErrorKind.CONFLICT,
                "ClaimGameServer needs an ACTIVE game server group; arena is DELETED");
        GameServerServiceTest.fails(() -> fleet.register("gs-2", "i-1"), ErrorKind.CONFLICT,
                "RegisterGameServer needs an ACTIVE game server group; arena is DELETED");
        assertThat(fleet.servers.claimCandidates(GROUP, InstanceStatus.ACTIVE, fleet.clock.instant(),
                fleet.clock.instant(), 1).groupStatus()).as("its gate went with it").isEqualTo(Optional.empty());
    }
}

package io.gamefleet.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.domain.fakes.FakeCompute;
import io.gamefleet.domain.fakes.FakeLaunchTemplates;
import io.gamefleet.domain.fakes.InMemoryGameServerRepository;
import io.gamefleet.domain.fakes.InMemoryGroupRepository;
import io.gamefleet.domain.fakes.InMemoryInstanceRepository;
import io.gamefleet.domain.fakes.MutableClock;
import io.gamefleet.domain.fakes.RecordingWorkflowStarter;
import io.gamefleet.domain.fakes.RecordingWorkflowStarter.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Groups whose workflow was lost: started again, or after {@link WorkflowReconciler#MAX_RESTARTS}
 * in ERROR; and FORCE_DELETE on a group in any status but DELETED.
 */
class WorkflowReconcilerTest {
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private final MutableClock clock = new MutableClock(T0);
    private final InMemoryGameServerRepository servers = new InMemoryGameServerRepository();
    private final InMemoryGroupRepository groups = new InMemoryGroupRepository(servers);
    private final InMemoryInstanceRepository instances = new InMemoryInstanceRepository();
    private final RecordingWorkflowStarter workflows = new RecordingWorkflowStarter();
    private final ServiceSettings settings = new ServiceSettings("us-east-1", "000000000000", Duration.ofSeconds(60),
            Duration.ofSeconds(180), Duration.ofDays(1), Duration.ofMinutes(15), "gamefleet-", Fleet.LIMITS,
            Fleet.LIFETIME);
    private final GroupService service = new GroupService(groups, instances, workflows, new PageTokens("k"), settings,
            clock, new LaunchGuard(new FakeLaunchTemplates(), Set.of()));
    private final FakeCompute compute = new FakeCompute();
    private final GroupLifecycle lifecycle = new GroupLifecycle(service, groups, servers, instances, compute, settings,
            clock);
    private final List<String> log = new ArrayList<>();
    private final WorkflowReconciler reconciler = new WorkflowReconciler(groups, service, workflows, clock, log::add);

    private GameServerGroup create(String name) {
        return service.create(GameServerGroup.builder().name(name).roleArn("arn:aws:iam::000000000000:role/r")
                .instanceDefinitions(List.of(new InstanceDefinition("c5.large", null),
                        new InstanceDefinition("m5.large", null)))
                .minSize(1).maxSize(2).launchTemplate(new LaunchTemplate(null, "lt", null)).build());
    }

    private GameServerGroup group(String name) {
        return groups.find(name).orElseThrow();
    }

    private GameServerGroup activate(String name) {
        create(name);
        lifecycle.startActivation(name);
        lifecycle.completeActivation(name, "arn:asg");
        workflows.lose(name); // it ended
        return group(name);
    }

    @Test
    void aGroupWithARunningWorkflowIsLeftAlone() {
        create("running");
        clock.advance(Duration.ofHours(1));
        assertThat(reconciler.reconcile().restarted()).isEmpty();
        assertThat(workflows.started(Workflow.ACTIVATION)).containsExactly("running");
        assertThat(group("running").statusReason()).isNull();
    }

    @Test
    void aLostWorkflowIsStartedAgainOnceTheGraceHasPassed() {
        create("new");
        create("activating");
        lifecycle.startActivation("activating");
        workflows.end(); // the sidecar ended, or the executions were aborted
        assertThat(reconciler.reconcile().restarted()).as("within the grace").isEmpty();

        clock.advance(WorkflowReconciler.GRACE);
        WorkflowReconciler.Report report = reconciler.reconcile();
        assertThat(report.restarted()).containsExactlyInAnyOrder("new", "activating");
        assertThat(workflows.started(Workflow.ACTIVATION)).containsExactlyInAnyOrder("new", "activating", "new", "activating");
        assertThat(group("activating").status()).isEqualTo(GameServerGroupStatus.ACTIVATING);
        assertThat(group("activating").statusReason()).contains("activation workflow had stopped")
                .contains("restart 1 of " + WorkflowReconciler.MAX_RESTARTS);
        // The restarted workflow runs: nothing more to do, however long it takes.
        clock.advance(Duration.ofHours(3));
        assertThat(reconciler.reconcile().restarted()).isEmpty();
        // It carries on where the lost one stopped, and completing clears the reason.
        lifecycle.startActivation("new");
        lifecycle.completeActivation("new", "arn:asg");
        assertThat(group("new").status()).isEqualTo(GameServerGroupStatus.ACTIVE);
        assertThat(group("new").statusReason()).isNull();
    }

    @Test
    void aLostDeletionIsStartedAgainInEachOfItsStatuses() {
        activate("scheduled");
        activate("deleting");
        service.delete("scheduled", DeleteOption.SAFE_DELETE);
        service.delete("deleting", DeleteOption.SAFE_DELETE);
        lifecycle.startDeleting("deleting");
        workflows.end();
        clock.advance(WorkflowReconciler.GRACE);
        assertThat(reconciler.reconcile(Duration.ZERO).restarted()).containsExactlyInAnyOrder("scheduled", "deleting");
        assertThat(workflows.started(Workflow.DELETION)).containsExactlyInAnyOrder("scheduled", "deleting", "scheduled",
                "deleting");
        assertThat(group("deleting").status()).isEqualTo(GameServerGroupStatus.DELETING);
    }

    @Test
    void withoutGraceEveryLostWorkflowIsStartedAtOnce() {
        create("just-created");
        workflows.end();
        assertThat(reconciler.reconcile(Duration.ZERO).restarted()).containsExactly("just-created");
    }

    @Test
    void afterTheLastRestartTheGroupGoesToErrorWithWhatToDo() {
        create("doomed");
        for (int i = 1; i <= WorkflowReconciler.MAX_RESTARTS; i++) {
            workflows.end();
            clock.advance(WorkflowReconciler.GRACE);
            assertThat(reconciler.reconcile().restarted()).as("restart %s", i).containsExactly("doomed");
        }
        workflows.end();
        clock.advance(WorkflowReconciler.GRACE);
        WorkflowReconciler.Report report = reconciler.reconcile();
        assertThat(report.restarted()).isEmpty();
        assertThat(report.failed()).containsExactly("doomed");
        assertThat(group("doomed").status()).isEqualTo(GameServerGroupStatus.ERROR);
        assertThat(group("doomed").statusReason()).contains("activation workflow stopped")
                .contains("FORCE_DELETE");
        assertThat(log).anyMatch(l -> l.contains("doomed") && l.contains("ERROR"));
    }

    @Test
    void startsThatFailAreTriedAgainAndCountAsRestarts() {
        create("throttled");
        workflows.end();
        workflows.failWith(new IllegalStateException("ThrottlingException"));
        for (int i = 1; i <= WorkflowReconciler.MAX_RESTARTS; i++) {
            clock.advance(WorkflowReconciler.GRACE);
            reconciler.reconcile();
            assertThat(group("throttled").status()).isEqualTo(GameServerGroupStatus.NEW);
        }
        assertThat(log).anyMatch(l -> l.contains("throttled") && l.contains("ThrottlingException"));
        clock.advance(WorkflowReconciler.GRACE);
        reconciler.reconcile();
        assertThat(group("throttled").status()).isEqualTo(GameServerGroupStatus.ERROR);
    }

    @Test
    void whenExecutionsCannotBeListedNothingIsDecided() {
        create("unknown");
        workflows.end();
        workflows.failListingWith(new IllegalStateException("AccessDenied"));
        clock.advance(Duration.ofHours(1));
        assertThat(reconciler.reconcile().restarted()).isEmpty();
        assertThat(group("unknown").status()).isEqualTo(GameServerGroupStatus.NEW);
        assertThat(log).anyMatch(l -> l.contains("could not be listed"));
    }

    @Test
    void settledGroupsAreNotTouched() {
        activate("active");
        create("failed");
        lifecycle.recordFailure("failed", GroupLifecycle.Workflow.ACTIVATION, "no capacity");
        workflows.end();
        clock.advance(Duration.ofHours(1));
        assertThat(reconciler.reconcile()).isEqualTo(new WorkflowReconciler.Report(List.of(), List.of()));
    }

    // ---------------------------------------------------------------- FORCE_DELETE

    @Test
    void forceDeleteWorksInEveryStatusButDeleted() {
        create("new");
        create("activating");
        lifecycle.startActivation("activating");
        activate("scheduled");
        service.delete("scheduled", DeleteOption.SAFE_DELETE);
        activate("deleting");
        service.delete("deleting", DeleteOption.RETAIN);
        lifecycle.startDeleting("deleting");
        for (String name : List.of("new", "activating", "scheduled", "deleting")) {
            GameServerGroupStatus before = group(name).status();
            assertThatThrownBy(() -> service.delete(name, DeleteOption.SAFE_DELETE)).as(name)
                    .isInstanceOf(GamefleetException.class).hasMessageContaining("FORCE_DELETE");
            GameServerGroup scheduled = service.delete(name, DeleteOption.FORCE_DELETE);
            assertThat(scheduled.deleteOption()).isEqualTo(DeleteOption.FORCE_DELETE);
            assertThat(scheduled.status()).as(name).isEqualTo(before == GameServerGroupStatus.DELETING
                    ? GameServerGroupStatus.DELETING : GameServerGroupStatus.DELETE_SCHEDULED);
            // The deletion workflow then runs through, by force.
            assertThat(lifecycle.readyToDelete(name)).isTrue();
            lifecycle.startDeleting(name);
            assertThat(lifecycle.deleteScalingGroup(name)).isTrue();
            assertThat(lifecycle.purgeRecords(name)).isTrue();
            lifecycle.completeDeletion(name);
            assertThat(group(name).status()).isEqualTo(GameServerGroupStatus.DELETED);
        }
        assertThat(workflows.started(Workflow.DELETION)).contains("new", "activating", "scheduled", "deleting");
        assertThatThrownBy(() -> service.delete("new", DeleteOption.FORCE_DELETE)).isInstanceOf(GamefleetException.class)
                .hasMessageContaining("DELETED");
    }

    @Test
    void anActivationThatCreatesItsScalingGroupAfterAForceDeleteRemovesIt() {
        create("raced");
        lifecycle.startActivation("raced");
        GameServerGroup activating = group("raced");
        // The activation's step read the group ACTIVATING; a FORCE_DELETE came while it created the
        // scaling group, and its deletion found none to delete.
        service.delete("raced", DeleteOption.FORCE_DELETE);
        assertThatThrownBy(() -> new GroupLifecycle(service, new StaleReads(groups, activating), servers, instances,
                compute, settings, clock).createScalingGroup("raced"))
                .hasMessageContaining("being deleted");
        assertThat(compute.describeScalingGroup(settings.autoScalingGroupName("raced"))).isEmpty();
    }

    /** Reads the group once as it was (the step's first read), then as it is. */
    private static final class StaleReads implements GroupRepository {
        private final GroupRepository delegate;
        private GameServerGroup stale;

        StaleReads(GroupRepository delegate, GameServerGroup stale) {
            this.delegate = delegate;
            this.stale = stale;
        }

        @Override
        public void create(GameServerGroup group) {
            delegate.create(group);
        }

        @Override
        public Optional<GameServerGroup> find(String name) {
            GameServerGroup first = stale;
            stale = null;
            return first != null ? Optional.of(first) : delegate.find(name);
        }

        @Override
        public GameServerGroup update(GameServerGroup group) {
            return delegate.update(group);
        }

        @Override
        public Page<GameServerGroup> list(int limit, Optional<String> cursor) {
            return delegate.list(limit, cursor);
        }
    }
}

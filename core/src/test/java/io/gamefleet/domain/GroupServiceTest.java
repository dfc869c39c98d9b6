package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static io.gamefleet.domain.Fleet.M5;
import static io.gamefleet.domain.Fleet.T0;
import static io.gamefleet.domain.GameServerServiceTest.fails;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.GroupService.GroupUpdate;
import io.gamefleet.domain.fakes.RecordingWorkflowStarter.Started;
import io.gamefleet.domain.fakes.RecordingWorkflowStarter.Workflow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The game server group operations: create, describe, list, update, suspend and resume, delete. */
class GroupServiceTest {
    private final Fleet fleet = new Fleet();
    private final GroupService service = fleet.groupService();

    private static final GroupUpdate NO_CHANGE = new GroupUpdate(Optional.empty(), Optional.empty(), Optional.empty(),
            Optional.empty());

    // ---- CreateGameServerGroup -------------------------------------------------------------

    @Test
    void createStoresTheGroupAsNewAndStartsItsActivation() {
        GameServerGroup created = service.create(Fleet.draft(GROUP).build());

        assertThat(created.status()).isEqualTo(GameServerGroupStatus.NEW);
        assertThat(created.arn()).isEqualTo("arn:aws:gamelift:us-east-1:123456789012:gameservergroup/arena");
        assertThat(created.creationTime()).isEqualTo(T0);
        assertThat(created.lastUpdatedTime()).isEqualTo(T0);
        assertThat(created.version()).isZero();
        assertThat(fleet.group(GROUP)).isEqualTo(created);
        assertThat(fleet.workflows.started()).containsExactly(new Started(Workflow.ACTIVATION, created));
    }

    // ---- What instances may launch with ----

    private static void invalid(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String fragment) {
        GamefleetException e = org.assertj.core.api.Assertions.catchThrowableOfType(call, GamefleetException.class);
        assertThat(e).as("a GamefleetException").isNotNull();
        assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_REQUEST);
        assertThat(e).hasMessageContaining(fragment);
    }

    @Test
    void aLaunchTemplateWithAnInstanceProfileTheDeploymentDoesNotAllowIsRefusedAndNothingIsStored() {
        fleet.templates.profiles.put("game-server", "arn:aws:iam::123456789012:instance-profile/Administrator");
        fleet.templates.pins.put("game-server", new LaunchTemplate("lt-game-server", null, "1"));

        invalid(() -> service.create(Fleet.draft(GROUP).build()),
                "LaunchTemplate lt-game-server version 1 runs instances with instance profile "
                        + "arn:aws:iam::123456789012:instance-profile/Administrator, which this deployment does not allow");

        assertThat(fleet.groups.find(GROUP)).isEmpty();
        assertThat(fleet.workflows.started()).isEmpty();
    }

    @Test
    void theAllowedInstanceProfileOrNoneIsAcceptedAndTheTemplateIsPinnedToTheVersionChecked() {
        // The template names the allowed profile by name (EC2 takes either form).
        fleet.templates.profiles.put("game-server", "GameServerInstanceProfile");
        fleet.templates.pins.put("game-server", new LaunchTemplate("lt-game-server", null, "1"));
        GameServerGroup created = service.create(Fleet.draft(GROUP).build());
        assertThat(created.launchTemplate()).isEqualTo(new LaunchTemplate("lt-game-server", null, "1"));
        assertThat(fleet.group(GROUP).launchTemplate()).isEqualTo(created.launchTemplate());

        fleet.templates.pins.put("bare", new LaunchTemplate("lt-bare", null, "7"));
        GameServerGroup noProfile = service.create(Fleet.draft("other").launchTemplate(
                new LaunchTemplate(null, "bare", "7")).build());
        assertThat(noProfile.launchTemplate()).isEqualTo(new LaunchTemplate("lt-bare", null, "7"));
    }

    @Test
    void aMissingLaunchTemplateIsRefused() {
        fleet.templates.missing.add("game-server");
        invalid(() -> service.create(Fleet.draft(GROUP).build()), "does not exist");
        assertThat(fleet.groups.find(GROUP)).isEmpty();
    }

    @Test
    void reservedTagKeysAreRefused() {
        for (String key : List.of("gamefleet:game-server-group", "Gamefleet:Stage", "aws:cloudformation:stack-name",
                "GameLift", "gamelift")) {
            invalid(() -> service.create(Fleet.draft(GROUP).tags(List.of(new Tag(key, "x"))).build()),
                    "the key " + key + " is reserved");
        }
        assertThat(fleet.groups.find(GROUP)).isEmpty();
        assertThat(service.create(Fleet.draft(GROUP).tags(List.of(new Tag("team", "blue"))).build()).tags())
                .containsExactly(new Tag("team", "blue"));
    }

    @Test
    void aGroupsAutoScalingGroupCarriesTheDeploymentsPrefixForGood() {
        ServiceSettings staging = new ServiceSettings("us-east-1", "123456789012", Duration.ofMinutes(1),
                Duration.ofMinutes(3), Duration.ofDays(1), Duration.ofMinutes(15), "gamefleet-staging-", Fleet.LIMITS,
                Fleet.LIFETIME);
        GroupService stagingService = new GroupService(fleet.groups, fleet.instances, fleet.workflows,
                new PageTokens("k"), staging, fleet.clock, fleet.launchGuard());

        GameServerGroup created = stagingService.create(Fleet.draft(GROUP).build());

        assertThat(created.autoScalingGroupName()).isEqualTo("gamefleet-staging-arena");
        assertThat(fleet.group(GROUP).autoScalingGroupName()).isEqualTo("gamefleet-staging-arena");
        // A group stored before names had a stage keeps the name it had.
        assertThat(Fleet.draft("old").build().autoScalingGroupName()).isEqualTo("gamefleet-old");
    }

    @Test
    void aGroupWhoseActivationCannotStartIsLeftInErrorWithAReason() {
        fleet.workflows.failWith(new IllegalStateException("Step Functions is down"));

        fails(() -> service.create(Fleet.draft(GROUP).build()), ErrorKind.INTERNAL,
                "the activation workflow could not be started");

        GameServerGroup stored = fleet.group(GROUP);
        assertThat(stored.status()).isEqualTo(GameServerGroupStatus.ERROR);
        assertThat(stored.statusReason())
                .isEqualTo("the activation workflow could not be started; delete the group and create it again");
        // As the reason says: it can be deleted.
        fleet.workflows.succeed();
        assertThat(service.delete(GROUP, DeleteOption.SAFE_DELETE).status()).isEqualTo(GameServerGroupStatus.DELETE_SCHEDULED);
        assertThat(fleet.workflows.started(Workflow.DELETION)).containsExactly(GROUP);
    }

    @Test
    void createRefusesInvalidDraftsAndATakenName() {
        InstanceDefinition c5 = new InstanceDefinition(C5, null);
        fails(() -> service.create(Fleet.draft(GROUP).instanceDefinitions(List.of(c5, new InstanceDefinition(M5, "2"), c5))
                .build()), ErrorKind.INVALID_REQUEST, "InstanceDefinitions names c5.large twice; each instance type may appear once");
        fails(() -> service.create(Fleet.draft(GROUP).instanceDefinitions(List.of(c5)).build()), ErrorKind.INVALID_REQUEST,
                "InstanceDefinitions must name at least two different instance types");
        fails(() -> service.create(Fleet.draft(GROUP).minSize(5).maxSize(4).build()), ErrorKind.INVALID_REQUEST,
                "MinSize (5) must not be greater than MaxSize (4)");
        for (LaunchTemplate template : List.of(new LaunchTemplate("lt-1", "game-server", null),
                new LaunchTemplate(null, null, "3"))) {
            fails(() -> service.create(Fleet.draft(GROUP).launchTemplate(template).build()), ErrorKind.INVALID_REQUEST,
                    "LaunchTemplate must name exactly one of LaunchTemplateId and LaunchTemplateName");
        }
        assertThat(fleet.groups.find(GROUP)).isEmpty();
        assertThat(fleet.workflows.started()).isEmpty();

        service.create(Fleet.draft(GROUP).build());
        fails(() -> service.create(Fleet.draft(GROUP).build()), ErrorKind.CONFLICT,
                "a game server group named arena already exists");
        assertThat(fleet.workflows.started()).hasSize(1);
    }

    // ---- DescribeGameServerGroup and ListGameServerGroups -------------------------------

    @Test
    void describeTakesTheNameOrThisDeploymentsArnOnly() {
        GameServerGroup created = service.create(Fleet.draft(GROUP).build());

        assertThat(service.describe(GROUP)).isEqualTo(created);
        assertThat(service.describe(created.arn())).isEqualTo(created);
        fails(() -> service.describe("arn:aws:gamelift:eu-west-1:123456789012:gameservergroup/arena"), ErrorKind.NOT_FOUND,
                "game server group arn:aws:gamelift:eu-west-1:123456789012:gameservergroup/arena does not exist in this "
                        + "deployment (us-east-1, account 123456789012)");
        fails(() -> service.describe("arn:aws:gamelift:us-east-1:999999999999:gameservergroup/arena"), ErrorKind.NOT_FOUND,
                "game server group arn:aws:gamelift:us-east-1:999999999999:gameservergroup/arena does not exist in this "
                        + "deployment (us-east-1, account 123456789012)");
        fails(() -> service.describe("nowhere"), ErrorKind.NOT_FOUND, "game server group nowhere does not exist");
    }

    @Test
    void listPagesInCreationOrderAndHidesDeletedGroupsPastTheirRetention() {
        for (String name : List.of("a", "b", "c")) {
            service.create(Fleet.draft(name).build());
            fleet.clock.advance(Duration.ofSeconds(1));
        }
        Page<GameServerGroup> first = service.list(2, Optional.empty());
        assertThat(first.items()).extracting(GameServerGroup::name).containsExactly("a", "b");
        Page<GameServerGroup> second = service.list(2, first.cursor());
        assertThat(second.items()).extracting(GameServerGroup::name).containsExactly("c");
        assertThat(second.cursor()).isEmpty();
        fails(() -> service.list(2, Optional.of("forged.token")), ErrorKind.INVALID_REQUEST,
                "NextToken is not a token this listing issued");

        // "b" was deleted: listed (and described) while DELETED, not once its retention is over.
        service.transition("b", g -> g.toBuilder().status(GameServerGroupStatus.DELETED)
                .expiresAt(fleet.clock.instant().plus(Fleet.DELETED_RETENTION)).build());
        assertThat(service.list(10, Optional.empty()).items()).extracting(GameServerGroup::name).containsExactly("a", "b", "c");
        fleet.clock.advance(Fleet.DELETED_RETENTION.plusSeconds(1));
        assertThat(service.list(10, Optional.empty()).items()).extracting(GameServerGroup::name).containsExactly("a", "c");
        fails(() -> service.describe("b"), ErrorKind.NOT_FOUND, "game server group b does not exist");
    }

    // ---- UpdateGameServerGroup, Suspend and Resume ------------------------------------

    @Test
    void updateChangesWhatItIsGivenAndKeepsTheRest() {
        GameServerGroup before = fleet.activeGroup();
        fleet.clock.advance(Duration.ofSeconds(5));
        List<InstanceDefinition> types = List.of(new InstanceDefinition("r5.large", "2"), new InstanceDefinition(M5, null));

        GameServerGroup after = service.update(before.arn(), new GroupUpdate(Optional.empty(), Optional.of(types),
                Optional.of(GameServerProtectionPolicy.FULL_PROTECTION), Optional.empty()));

        assertThat(after.instanceDefinitions()).isEqualTo(types);
        assertThat(after.protectionPolicy()).isEqualTo(GameServerProtectionPolicy.FULL_PROTECTION);
        assertThat(after.roleArn()).isEqualTo(before.roleArn());
        assertThat(after.balancingStrategy()).isEqualTo(before.balancingStrategy());
        assertThat(after.status()).isEqualTo(GameServerGroupStatus.ACTIVE);
        assertThat(after.lastUpdatedTime()).isEqualTo(T0.plusSeconds(5));
        assertThat(after.version()).isEqualTo(before.version() + 1);
        assertThat(fleet.group(GROUP)).isEqualTo(after);

        fails(() -> service.update(GROUP, new GroupUpdate(Optional.empty(),
                Optional.of(List.of(new InstanceDefinition(M5, null), new InstanceDefinition(M5, "2"))), Optional.empty(),
                Optional.empty())), ErrorKind.INVALID_REQUEST, "InstanceDefinitions names m5.large twice; each instance type may appear once");
    }

    @Test
    void suspendAndResumeAddAndRemoveActions() {
        fleet.activeGroup();
        Set<GameServerGroupAction> replace = Set.of(GameServerGroupAction.REPLACE_INSTANCE_TYPES);

        assertThat(service.suspend(GROUP, replace).suspendedActions()).isEqualTo(replace);
        assertThat(service.suspend(GROUP, replace).suspendedActions()).isEqualTo(replace);
        assertThat(service.resume(GROUP, replace).suspendedActions()).isEmpty();
        assertThat(service.resume(GROUP, replace).suspendedActions()).isEmpty();
        assertThat(fleet.group(GROUP).isSuspended(GameServerGroupAction.REPLACE_INSTANCE_TYPES)).isFalse();
    }

    @Test
    void aGroupBeingDeletedTakesNoUpdateSuspensionOrResumption() {
        fleet.activeGroup();
        service.delete(GROUP, DeleteOption.SAFE_DELETE);
        fails(() -> service.update(GROUP, NO_CHANGE), ErrorKind.CONFLICT,
                "UpdateGameServerGroup is not possible while game server group arena is DELETE_SCHEDULED");
        fails(() -> service.suspend(GROUP, Set.of(GameServerGroupAction.REPLACE_INSTANCE_TYPES)), ErrorKind.CONFLICT,
                "SuspendGameServerGroup is not possible while game server group arena is DELETE_SCHEDULED");
        fails(() -> service.resume(GROUP, Set.of(GameServerGroupAction.REPLACE_INSTANCE_TYPES)), ErrorKind.CONFLICT,
                "ResumeGameServerGroup is not possible while game server group arena is DELETE_SCHEDULED");
    }

    // ---- DeleteGameServerGroup -------------------------------------------------------------

    @Test
    void deleteSchedulesTheDeletionWithItsOptionAndStartsItsWorkflow() {
        for (DeleteOption option : DeleteOption.values()) {
            Fleet each = new Fleet();
            each.activeGroup();
            GameServerGroup scheduled = each.groupService().delete(GROUP, option);
            assertThat(scheduled.status()).isEqualTo(GameServerGroupStatus.DELETE_SCHEDULED);
            assertThat(scheduled.deleteOption()).isEqualTo(option);
            assertThat(each.group(GROUP)).isEqualTo(scheduled);
            assertThat(each.workflows.started()).containsExactly(new Started(Workflow.DELETION, scheduled));
        }
    }

    @Test
    void onlyActiveAndErrorGroupsCanBeDeletedSafelyAndAnyButADeletedOneByForce() {
        service.create(Fleet.draft("new").build());
        fails(() -> service.delete("new", DeleteOption.SAFE_DELETE), ErrorKind.CONFLICT,
                "DeleteGameServerGroup needs an ACTIVE or ERROR game server group; new is NEW; "
                        + "DeleteOption FORCE_DELETE deletes it in any status");

        fleet.activeGroup();
        service.delete(GROUP, DeleteOption.SAFE_DELETE);
        fails(() -> service.delete(GROUP, DeleteOption.RETAIN), ErrorKind.CONFLICT,
                "DeleteGameServerGroup needs an ACTIVE or ERROR game server group; arena is DELETE_SCHEDULED; "
                        + "DeleteOption FORCE_DELETE deletes it in any status");
        assertThat(fleet.group(GROUP).deleteOption()).isEqualTo(DeleteOption.SAFE_DELETE);
        assertThat(fleet.workflows.started(Workflow.DELETION)).containsExactly(GROUP);
        // A stuck deletion can always be forced.
        assertThat(service.delete(GROUP, DeleteOption.FORCE_DELETE).deleteOption()).isEqualTo(DeleteOption.FORCE_DELETE);
    }

    @Test
    void aDeletionWhoseWorkflowCannotStartIsLeftInErrorAndCanBeAskedAgain() {
        fleet.activeGroup();
        fleet.workflows.failWith(new IllegalStateException("throttled"));

        fails(() -> service.delete(GROUP, DeleteOption.SAFE_DELETE), ErrorKind.INTERNAL,
                "the deletion workflow could not be started");
        assertThat(fleet.group(GROUP).status()).isEqualTo(GameServerGroupStatus.ERROR);
        assertThat(fleet.group(GROUP).statusReason())
                .isEqualTo("the deletion workflow could not be started; call DeleteGameServerGroup again");

        fleet.workflows.succeed();
        GameServerGroup scheduled = service.delete(GROUP, DeleteOption.SAFE_DELETE);
        assertThat(scheduled.status()).isEqualTo(GameServerGroupStatus.DELETE_SCHEDULED);
        assertThat(scheduled.statusReason()).isNull();
        assertThat(fleet.workflows.started(Workflow.DELETION)).containsExactly(GROUP);
    }

    // ---- DescribeGameServerInstances -----------------------------------------------------

    @Test
    void describeInstancesPagesInIdOrderOrFindsTheIdsAsked() {
        fleet.activeGroup();
        for (String id : List.of("i-3", "i-1", "i-2")) {
            fleet.launch(id, C5);
        }
        Page<GameServerInstance> first = service.describeInstances(GROUP, Optional.empty(), 2, Optional.empty());
        assertThat(first.items()).extracting(GameServerInstance::instanceId).containsExactly("i-1", "i-2");
        assertThat(service.describeInstances(GROUP, Optional.empty(), 2, first.cursor()).items())
                .extracting(GameServerInstance::instanceId).containsExactly("i-3");

        assertThat(service.describeInstances(GROUP, Optional.of(List.of("i-3", "i-9")), 2, Optional.empty()).items())
                .extracting(GameServerInstance::instanceId).containsExactly("i-3");
        fails(() -> service.describeInstances(GROUP, Optional.of(List.of("i-1")), 2, first.cursor()),
                ErrorKind.INVALID_REQUEST, "NextToken cannot be used together with InstanceIds");
    }

    // ---- transitions under optimistic locking -------------------------------------------

    @Test
    void aWriteThatLosesToAConcurrentOneIsDecidedAgainOnAFreshRead() {
        fleet.activeGroup();
        AtomicInteger writes = new AtomicInteger();
        GroupService racing = fleet.groupService(Fleet.around(GroupRepository.class, fleet.groups, (method, args, proceed) -> {
            if (method.equals("update") && writes.incrementAndGet() == 1) {
                // Between this request's read and its write, another request suspends the group.
                fleet.groupService().suspend(GROUP, Set.of(GameServerGroupAction.REPLACE_INSTANCE_TYPES));
            }
            return proceed.call();
        }));

        GameServerGroup updated = racing.update(GROUP, new GroupUpdate(Optional.of("arn:aws:iam::123456789012:role/new"),
                Optional.empty(), Optional.empty(), Optional.empty()));

        assertThat(writes).hasValue(2);
        assertThat(updated.roleArn()).isEqualTo("arn:aws:iam::123456789012:role/new");
        assertThat(updated.suspendedActions()).as("the concurrent change is kept")
                .containsExactly(GameServerGroupAction.REPLACE_INSTANCE_TYPES);
        assertThat(fleet.group(GROUP)).isEqualTo(updated);
    }

    @Test
    void aRefusalIsDecidedOnTheFreshReadToo() {
        fleet.activeGroup();
        GroupService racing = fleet.groupService(Fleet.around(GroupRepository.class, fleet.groups, (method, args, proceed) -> {
            if (method.equals("update") && fleet.group(GROUP).status() == GameServerGroupStatus.ACTIVE) {
                fleet.groupService().delete(GROUP, DeleteOption.FORCE_DELETE);
            }
            return proceed.call();
        }));
        fails(() -> racing.update(GROUP, new GroupUpdate(Optional.of("r"), Optional.empty(), Optional.empty(),
                Optional.empty())), ErrorKind.CONFLICT,
                "UpdateGameServerGroup is not possible while game server group arena is DELETE_SCHEDULED");
        assertThat(fleet.group(GROUP).roleArn()).isEqualTo(Fleet.draft(GROUP).build().roleArn());
    }

    @Test
    void aGroupChangedByEveryOtherRequestIsAConflictAfterFiveAttempts() {
        fleet.activeGroup();
        List<String> calls = new ArrayList<>();
        GroupService contended = fleet.groupService(Fleet.around(GroupRepository.class, fleet.groups, (method, args, proceed) -> {
            calls.add(method);
            if (method.equals("update")) {
                throw new ConcurrentUpdateException("game server group " + GROUP);
            }
            return proceed.call();
        }));

        fails(() -> contended.suspend(GROUP, Set.of(GameServerGroupAction.REPLACE_INSTANCE_TYPES)), ErrorKind.CONFLICT,
                "game server group arena is being changed by another request; try again");
        assertThat(calls).containsExactly("find", "update", "find", "update", "find", "update", "find", "update", "find",
                "update");
    }

    @Test
    void aChangeThatChangesNothingWritesNothing() {
        GameServerGroup before = fleet.activeGroup();
        List<String> calls = new ArrayList<>();
        GroupService counted = fleet.groupService(Fleet.around(GroupRepository.class, fleet.groups, (method, args, proceed) -> {
            calls.add(method);
            return proceed.call();
        }));
        assertThat(counted.transition(GROUP, g -> g)).isEqualTo(before);
        assertThat(calls).containsExactly("find");
        assertThat(fleet.group(GROUP).version()).isEqualTo(before.version());
    }
}

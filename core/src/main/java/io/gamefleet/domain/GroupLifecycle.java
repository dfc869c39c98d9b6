package io.gamefleet.domain;

import io.gamefleet.domain.Compute.ComputeInstance;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * The steps of the activation and deletion workflows. Each step is idempotent: Step Functions
 * retries a step after a transient failure, and a retried step must find its own earlier work
 * done and carry on. A step that cannot succeed throws {@link StepRefusedException} with a
 * reason a person can act on; the workflow then records it as the group's StatusReason.
 */
public final class GroupLifecycle {
    /** Records deleted per purge step, so one step stays well inside a Lambda timeout. */
    static final int PURGE_BATCH = 200;

    private final GroupService groupService;
    private final GroupRepository groups;
    private final GameServerRepository servers;
    private final InstanceRepository instances;
    private final Compute compute;
    private final ServiceSettings settings;
    private final Clock clock;

    public GroupLifecycle(GroupService groupService, GroupRepository groups, GameServerRepository servers,
            InstanceRepository instances, Compute compute, ServiceSettings settings, Clock clock) {
        this.groupService = groupService;
        this.groups = groups;
        this.servers = servers;
        this.instances = instances;
        this.compute = compute;
        this.settings = settings;
        this.clock = clock;
    }

    /** A step that cannot succeed, whatever the retries. */
    public static final class StepRefusedException extends RuntimeException {
        public StepRefusedException(String reason) {
            super(reason);
        }
    }

    // Activation: NEW -> ACTIVATING -> (scaling group, first instance in service) -> ACTIVE

    public void startActivation(String name) {
        move(name, EnumSet.of(GameServerGroupStatus.NEW), GameServerGroupStatus.ACTIVATING,
                EnumSet.of(GameServerGroupStatus.ACTIVATING));
    }

    public String createScalingGroup(String name) {
        GameServerGroup group = require(name, EnumSet.of(GameServerGroupStatus.ACTIVATING));
        String arn = compute.createScalingGroup(group);
        // A FORCE_DELETE may have come while the scaling group was being created, and its deletion
        // workflow may have found none to delete: then this one must not outlive the group.
        GameServerGroup now = groups.find(name).orElse(null);
        if (now == null || EnumSet.of(GameServerGroupStatus.DELETE_SCHEDULED, GameServerGroupStatus.DELETING,
                GameServerGroupStatus.DELETED).contains(now.status())) {
            compute.deleteScalingGroup(group.autoScalingGroupName(), true);
            throw new StepRefusedException("game server group " + name + " is being deleted; its activation stopped");
        }
        return arn;
    }

    /**
     * Records the scaling group's new instances, with EC2's launch time and addresses (one EC2 is yet to
     * describe waits for a later check, or the balancer); true once one of them is in service.
     */
    public boolean checkActivation(String name) {
        GameServerGroup group = require(name, EnumSet.of(GameServerGroupStatus.ACTIVATING));
        List<ComputeInstance> found = compute.describeInstances(group.autoScalingGroupName());
        Set<String> recorded = instances.listAll(name).stream().map(GameServerInstance::instanceId)
                .collect(Collectors.toSet());
        List<ComputeInstance> added = found.stream().filter(i -> !recorded.contains(i.instanceId())).toList();
        if (!added.isEmpty()) {
            Map<String, Compute.LaunchedInstance> launched = compute.launched(group.autoScalingGroupName(), added.stream()
                    .map(ComputeInstance::instanceId).toList());
            for (ComputeInstance i : added) {
                if (launched.containsKey(i.instanceId())) {
                    instances.addIfAbsent(GameServerInstance.active(name, i, launched.get(i.instanceId())));
                }
            }
        }
        if (found.stream().anyMatch(ComputeInstance::inService)) {
            return true;
        }
        Duration waited = Duration.between(group.creationTime(), clock.instant());
        if (waited.compareTo(settings.activationTimeout()) > 0) {
            throw new StepRefusedException(group.isContainerGroup()
                    ? "no task of ECS service " + group.autoScalingGroupName() + " came to run within "
                            + settings.activationTimeout().toSeconds() + " seconds; check the task definition's images,"
                            + " the ECS service's events and the capacity providers' availability"
                    : "no instance of Auto Scaling group " + group.autoScalingGroupName()
                            + " came into service within " + settings.activationTimeout().toSeconds()
                            + " seconds; check the launch template, the subnets and the instance types' availability");
        }
        return false;
    }

    public void completeActivation(String name, String autoScalingGroupArn) {
        groupService.transition(name, g -> {
            if (g.status() == GameServerGroupStatus.ACTIVE) {
                return g;
            }
            requireStatus(g, EnumSet.of(GameServerGroupStatus.ACTIVATING));
            return g.toBuilder().status(GameServerGroupStatus.ACTIVE).statusReason(null)
                    .autoScalingGroupArn(autoScalingGroupArn).build();
        });
    }

    // Deletion: DELETE_SCHEDULED -> (no UTILIZED game server, unless FORCE_DELETE) -> DELETING -> DELETED

    /** True when deletion may proceed: FORCE_DELETE at once, otherwise once no game server is UTILIZED. */
    public boolean readyToDelete(String name) {
        GameServerGroup group = require(name,
                EnumSet.of(GameServerGroupStatus.DELETE_SCHEDULED, GameServerGroupStatus.DELETING));
        return group.status() == GameServerGroupStatus.DELETING
                || group.deleteOption() == DeleteOption.FORCE_DELETE
                || servers.countUtilized(name) == 0;
    }

    public void startDeleting(String name) {
        move(name, EnumSet.of(GameServerGroupStatus.DELETE_SCHEDULED), GameServerGroupStatus.DELETING,
                EnumSet.of(GameServerGroupStatus.DELETING));
    }

    /** Deletes the scaling group (not under RETAIN); true once it is gone. */
    public boolean deleteScalingGroup(String name) {
        GameServerGroup group = require(name, EnumSet.of(GameServerGroupStatus.DELETING));
        if (group.deleteOption() == DeleteOption.RETAIN) {
            return true;
        }
        boolean force = group.deleteOption() == DeleteOption.FORCE_DELETE;
        if (!force) {
            // No game is left (readyToDelete said so): protection from scale-in, which only the
            // balancer of an ACTIVE group would lift, must not keep the instances alive.
            for (ComputeInstance i : compute.describeInstances(group.autoScalingGroupName())) {
                if (i.protectedFromScaleIn()) {
                    compute.setInstanceProtection(group.autoScalingGroupName(), i.instanceId(), false);
                }
            }
        }
        return compute.deleteScalingGroup(group.autoScalingGroupName(), force);
    }

    /**
     * Deletes a batch of the group's game server and instance records, the servers first (each
     * giving its instance's count back), then the instances, and their counts; true once none is
     * left.
     */
    public boolean purgeRecords(String name) {
        require(name, EnumSet.of(GameServerGroupStatus.DELETING));
        int deleted = servers.deleteSome(name, PURGE_BATCH);
        if (deleted < PURGE_BATCH) {
            for (String instanceId : instances.deleteSome(name, PURGE_BATCH - deleted)) {
                servers.forgetInstance(instanceId);
                deleted++;
            }
        }
        return deleted < PURGE_BATCH;
    }

    public void completeDeletion(String name) {
        Instant expiresAt = clock.instant().plus(settings.deletedRetention());
        move(name, EnumSet.of(GameServerGroupStatus.DELETING), GameServerGroupStatus.DELETED,
                EnumSet.of(GameServerGroupStatus.DELETED), b -> b.expiresAt(expiresAt));
    }

    /** The statuses each workflow owns: its failure may put the group in ERROR only from these. */
    public enum Workflow {
        ACTIVATION(EnumSet.of(GameServerGroupStatus.NEW, GameServerGroupStatus.ACTIVATING)),
        DELETION(EnumSet.of(GameServerGroupStatus.DELETE_SCHEDULED, GameServerGroupStatus.DELETING));

        private final Set<GameServerGroupStatus> owned;

        Workflow(Set<GameServerGroupStatus> owned) {
            this.owned = owned;
        }

        /** The workflow that moves a group on from this status, if it is one a workflow owns. */
        public static java.util.Optional<Workflow> owning(GameServerGroupStatus status) {
            return java.util.Arrays.stream(values()).filter(w -> w.owned.contains(status)).findFirst();
        }
    }

    /**
     * Puts the group in ERROR with the reason, if it is still in a status the failed workflow
     * owns. A group that moved on (deleted meanwhile, or created again under the same name) is
     * left alone. Returns whether it was put in ERROR.
     */
    public boolean recordFailure(String name, Workflow workflow, String reason) {
        if (groups.find(name).isEmpty()) {
            return false;
        }
        // Decided on the read the write is conditioned on, so a group that moved on since is not touched.
        AtomicBoolean recorded = new AtomicBoolean();
        groupService.transition(name, g -> {
            recorded.set(workflow.owned.contains(g.status()));
            return recorded.get() ? g.toBuilder().status(GameServerGroupStatus.ERROR).statusReason(reason).build() : g;
        });
        return recorded.get();
    }

    private void move(String name, Set<GameServerGroupStatus> from, GameServerGroupStatus to,
            Set<GameServerGroupStatus> alreadyDone) {
        move(name, from, to, alreadyDone, b -> b);
    }

    private void move(String name, Set<GameServerGroupStatus> from, GameServerGroupStatus to,
            Set<GameServerGroupStatus> alreadyDone, java.util.function.UnaryOperator<GameServerGroup.Builder> extra) {
        groupService.transition(name, g -> {
            if (alreadyDone.contains(g.status())) {
                return g;
            }
            requireStatus(g, from);
            return extra.apply(g.toBuilder().status(to)).build();
        });
    }

    private GameServerGroup require(String name, Set<GameServerGroupStatus> statuses) {
        GameServerGroup group = groups.find(name)
                .orElseThrow(() -> new StepRefusedException("game server group " + name + " no longer exists"));
        requireStatus(group, statuses);
        return group;
    }

    private static void requireStatus(GameServerGroup g, Set<GameServerGroupStatus> statuses) {
        if (!statuses.contains(g.status())) {
            throw new StepRefusedException("game server group " + g.name() + " is " + g.status()
                    + " where " + statuses + " was expected; the workflow stopped");
        }
    }
}

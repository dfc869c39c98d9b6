package io.gamefleet.domain;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * A game server group as stored: the FleetIQ output fields plus the create-time settings that
 * FleetIQ keeps on the Auto Scaling group (sizes, template, policy, subnets) and the deletion
 * bookkeeping. {@code version} is the optimistic-lock counter of status transitions.
 * {@code containers}: a container group's ECS service ({@link ContainerCompute}); null for a group
 * on an EC2 Auto Scaling group, whose name then holds the ECS service's.
 */
public record GameServerGroup(
        String name,
        String arn,
        String roleArn,
        List<InstanceDefinition> instanceDefinitions,
        BalancingStrategy balancingStrategy,
        ClaimStrategy claimStrategy,
        GameServerProtectionPolicy protectionPolicy,
        String autoScalingGroupArn,
        String autoScalingGroupName,
        GameServerGroupStatus status,
        String statusReason,
        Set<GameServerGroupAction> suspendedActions,
        Instant creationTime,
        Instant lastUpdatedTime,
        int minSize,
        int maxSize,
        LaunchTemplate launchTemplate,
        AutoScalingPolicy autoScalingPolicy,
        List<String> vpcSubnets,
        List<Tag> tags,
        DeleteOption deleteOption,
        Instant expiresAt,
        ContainerCompute containers,
        long version) {

    /** Where a group stored without its Auto Scaling group's name had it: before names had a stage. */
    static final String UNSTAGED_SCALING_GROUP_PREFIX = "gamefleet-";

    public GameServerGroup {
        if (claimStrategy == null) {
            claimStrategy = ClaimStrategy.FLEETIQ; // a group stored before groups had one
        }
        if (autoScalingGroupName == null && name != null) {
            autoScalingGroupName = UNSTAGED_SCALING_GROUP_PREFIX + name;
        }
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    public static Builder builder() {
        return new Builder(null);
    }

    /** A group whose compute is an ECS service rather than an EC2 Auto Scaling group. */
    public boolean isContainerGroup() {
        return containers != null;
    }

    public boolean isSuspended(GameServerGroupAction action) {
        return suspendedActions.contains(action);
    }

    public static final class Builder {
        private String name;
        private String arn;
        private String roleArn;
        private List<InstanceDefinition> instanceDefinitions = List.of();
        private BalancingStrategy balancingStrategy = BalancingStrategy.SPOT_PREFERRED;
        private ClaimStrategy claimStrategy = ClaimStrategy.FLEETIQ;
        private GameServerProtectionPolicy protectionPolicy = GameServerProtectionPolicy.NO_PROTECTION;
        private String autoScalingGroupArn;
        private String autoScalingGroupName;
        private GameServerGroupStatus status = GameServerGroupStatus.NEW;
        private String statusReason;
        private Set<GameServerGroupAction> suspendedActions = Set.of();
        private Instant creationTime;
        private Instant lastUpdatedTime;
        private int minSize;
        private int maxSize;
        private LaunchTemplate launchTemplate;
        private AutoScalingPolicy autoScalingPolicy;
        private List<String> vpcSubnets = List.of();
        private List<Tag> tags = List.of();
        private DeleteOption deleteOption;
        private Instant expiresAt;
        private ContainerCompute containers;
        private long version;

        private Builder(GameServerGroup g) {
            if (g == null) {
                return;
            }
            name = g.name;
            arn = g.arn;
            roleArn = g.roleArn;
            instanceDefinitions = g.instanceDefinitions;
            balancingStrategy = g.balancingStrategy;
            claimStrategy = g.claimStrategy;
            protectionPolicy = g.protectionPolicy;
            autoScalingGroupArn = g.autoScalingGroupArn;
            autoScalingGroupName = g.autoScalingGroupName;
            status = g.status;
            statusReason = g.statusReason;
            suspendedActions = g.suspendedActions;
            creationTime = g.creationTime;
            lastUpdatedTime = g.lastUpdatedTime;
            minSize = g.minSize;
            maxSize = g.maxSize;
            launchTemplate = g.launchTemplate;
            autoScalingPolicy = g.autoScalingPolicy;
            vpcSubnets = g.vpcSubnets;
            tags = g.tags;
            deleteOption = g.deleteOption;
            expiresAt = g.expiresAt;
            containers = g.containers;
            version = g.version;
        }

        public Builder name(String v) { name = v; return this; }
        public Builder arn(String v) { arn = v; return this; }
        public Builder roleArn(String v) { roleArn = v; return this; }
        public Builder instanceDefinitions(List<InstanceDefinition> v) { instanceDefinitions = List.copyOf(v); return this; }
        public Builder balancingStrategy(BalancingStrategy v) { balancingStrategy = v; return this; }
        /** Gamefleet's own: null (a group stored before groups had one) is FLEETIQ. */
        public Builder claimStrategy(ClaimStrategy v) { claimStrategy = v; return this; }
        public Builder protectionPolicy(GameServerProtectionPolicy v) { protectionPolicy = v; return this; }
        public Builder autoScalingGroupArn(String v) { autoScalingGroupArn = v; return this; }
        /** Fixed at creation: the deployment's prefix (its stage) and the group's name. */
        public Builder autoScalingGroupName(String v) { autoScalingGroupName = v; return this; }
        public Builder status(GameServerGroupStatus v) { status = v; return this; }
        public Builder statusReason(String v) { statusReason = v; return this; }
        public Builder suspendedActions(Set<GameServerGroupAction> v) { suspendedActions = Set.copyOf(v); return this; }
        public Builder creationTime(Instant v) { creationTime = v; return this; }
        public Builder lastUpdatedTime(Instant v) { lastUpdatedTime = v; return this; }
        public Builder minSize(int v) { minSize = v; return this; }
        public Builder maxSize(int v) { maxSize = v; return this; }
        public Builder launchTemplate(LaunchTemplate v) { launchTemplate = v; return this; }
        public Builder autoScalingPolicy(AutoScalingPolicy v) { autoScalingPolicy = v; return this; }
        public Builder vpcSubnets(List<String> v) { vpcSubnets = List.copyOf(v); return this; }
        public Builder tags(List<Tag> v) { tags = List.copyOf(v); return this; }
        public Builder deleteOption(DeleteOption v) { deleteOption = v; return this; }
        public Builder expiresAt(Instant v) { expiresAt = v; return this; }
        public Builder containers(ContainerCompute v) { containers = v; return this; }
        public Builder version(long v) { version = v; return this; }

        public GameServerGroup build() {
            return new GameServerGroup(name, arn, roleArn, instanceDefinitions, balancingStrategy, claimStrategy,
                    protectionPolicy, autoScalingGroupArn, autoScalingGroupName, status, statusReason, suspendedActions,
                    creationTime, lastUpdatedTime, minSize, maxSize, launchTemplate, autoScalingPolicy,
                    vpcSubnets, tags, deleteOption, expiresAt, containers, version);
        }
    }
}

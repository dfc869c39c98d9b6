package io.gamefleet.adapters.dynamodb;

import static io.gamefleet.adapters.dynamodb.Attributes.derived;
import static io.gamefleet.adapters.dynamodb.Attributes.enumeration;
import static io.gamefleet.adapters.dynamodb.Attributes.json;
import static io.gamefleet.adapters.dynamodb.Attributes.millis;
import static io.gamefleet.adapters.dynamodb.Attributes.sortable;
import static io.gamefleet.adapters.dynamodb.Attributes.string;
import static software.amazon.awssdk.enhanced.dynamodb.mapper.StaticAttributeTags.primaryPartitionKey;
import static software.amazon.awssdk.enhanced.dynamodb.mapper.StaticAttributeTags.secondaryPartitionKey;
import static software.amazon.awssdk.enhanced.dynamodb.mapper.StaticAttributeTags.secondarySortKey;

import com.fasterxml.jackson.core.type.TypeReference;
import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.AutoScalingPolicy;
import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.ClaimStrategy;
import io.gamefleet.domain.ContainerCompute;
import io.gamefleet.domain.DeleteOption;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupAction;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerProtectionPolicy;
import io.gamefleet.domain.InstanceDefinition;
import io.gamefleet.domain.LaunchTemplate;
import io.gamefleet.domain.Tag;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import software.amazon.awssdk.enhanced.dynamodb.TableSchema;
import software.amazon.awssdk.enhanced.dynamodb.mapper.StaticImmutableTableSchema;

/**
 * GameServerGroups items. Access patterns: get/put by GameServerGroupName (every group
 * operation); the ByCreationTime index (one constant partition, groups are few) lists groups
 * in creation order for ListGameServerGroups without a scan. ExpiresAt (epoch seconds) is the
 * TTL attribute: set when a group reaches DELETED.
 */
final class GroupSchema {
    static final String LIST_PARTITION = "groups";

    static final TableSchema<GameServerGroup> SCHEMA = build();

    private GroupSchema() {}

    private static TableSchema<GameServerGroup> build() {
        var s = StaticImmutableTableSchema.builder(GameServerGroup.class, GameServerGroup.Builder.class)
                .newItemBuilder(GameServerGroup::builder, GameServerGroup.Builder::build);
        s.addAttribute(String.class, a -> a.name("GameServerGroupName")
                .getter(GameServerGroup::name).setter(GameServerGroup.Builder::name).tags(primaryPartitionKey()));
        string(s, "GameServerGroupArn", GameServerGroup::arn, GameServerGroup.Builder::arn);
        string(s, "RoleArn", GameServerGroup::roleArn, GameServerGroup.Builder::roleArn);
        json(s, "InstanceDefinitions", new TypeReference<List<InstanceDefinition>>() { },
                GameServerGroup::instanceDefinitions, GameServerGroup.Builder::instanceDefinitions);
        enumeration(s, "BalancingStrategy", BalancingStrategy.class,
                GameServerGroup::balancingStrategy, GameServerGroup.Builder::balancingStrategy);
        // Gamefleet's own (PutClaimStrategy); absent on groups stored before it, which read as FLEETIQ.
        enumeration(s, "ClaimStrategy", ClaimStrategy.class, GameServerGroup::claimStrategy,
                GameServerGroup.Builder::claimStrategy);
        enumeration(s, "GameServerProtectionPolicy", GameServerProtectionPolicy.class,
                GameServerGroup::protectionPolicy, GameServerGroup.Builder::protectionPolicy);
        string(s, "AutoScalingGroupArn", GameServerGroup::autoScalingGroupArn, GameServerGroup.Builder::autoScalingGroupArn);
        // Absent on groups stored before names had a stage: the record then gives the unstaged name.
        string(s, "AutoScalingGroupName", GameServerGroup::autoScalingGroupName, GameServerGroup.Builder::autoScalingGroupName);
        enumeration(s, "Status", GameServerGroupStatus.class, GameServerGroup::status, GameServerGroup.Builder::status);
        string(s, "StatusReason", GameServerGroup::statusReason, GameServerGroup.Builder::statusReason);
        json(s, "SuspendedActions", new TypeReference<Set<GameServerGroupAction>>() { },
                GameServerGroup::suspendedActions, GameServerGroup.Builder::suspendedActions);
        millis(s, "CreationTime", GameServerGroup::creationTime, GameServerGroup.Builder::creationTime);
        millis(s, "LastUpdatedTime", GameServerGroup::lastUpdatedTime, GameServerGroup.Builder::lastUpdatedTime);
        s.addAttribute(Integer.class, a -> a.name("MinSize").getter(GameServerGroup::minSize)
                .setter(GameServerGroup.Builder::minSize));
        s.addAttribute(Integer.class, a -> a.name("MaxSize").getter(GameServerGroup::maxSize)
                .setter(GameServerGroup.Builder::maxSize));
        json(s, "LaunchTemplate", new TypeReference<LaunchTemplate>() { },
                GameServerGroup::launchTemplate, GameServerGroup.Builder::launchTemplate);
        // A container group's ECS service (its task definition, game server container, capacity); absent on a group on EC2.
        json(s, "Containers", new TypeReference<ContainerCompute>() { },
                GameServerGroup::containers, GameServerGroup.Builder::containers);
        json(s, "AutoScalingPolicy", new TypeReference<AutoScalingPolicy>() { },
                GameServerGroup::autoScalingPolicy, GameServerGroup.Builder::autoScalingPolicy);
        json(s, "VpcSubnets", new TypeReference<List<String>>() { },
                GameServerGroup::vpcSubnets, GameServerGroup.Builder::vpcSubnets);
        json(s, "Tags", new TypeReference<List<Tag>>() { }, GameServerGroup::tags, GameServerGroup.Builder::tags);
        enumeration(s, "DeleteOption", DeleteOption.class, GameServerGroup::deleteOption, GameServerGroup.Builder::deleteOption);
        s.addAttribute(Long.class, a -> a.name("ExpiresAt")
                .getter(g -> g.expiresAt() == null ? null : g.expiresAt().getEpochSecond())
                .setter((b, v) -> b.expiresAt(v == null ? null : Instant.ofEpochSecond(v))));
        s.addAttribute(Long.class, a -> a.name("Version").getter(GameServerGroup::version)
                .setter((b, v) -> b.version(v == null ? 0 : v)));
        derived(s, "ListPartition", g -> LIST_PARTITION, secondaryPartitionKey(Tables.GROUPS_BY_CREATION_INDEX));
        derived(s, "ListSortKey", g -> sortable(g.creationTime()) + "#" + g.name(),
                secondarySortKey(Tables.GROUPS_BY_CREATION_INDEX));
        return s.build();
    }
}

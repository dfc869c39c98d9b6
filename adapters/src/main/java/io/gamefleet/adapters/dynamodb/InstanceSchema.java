package io.gamefleet.adapters.dynamodb;

import static io.gamefleet.adapters.dynamodb.Attributes.enumeration;
import static io.gamefleet.adapters.dynamodb.Attributes.millis;
import static io.gamefleet.adapters.dynamodb.Attributes.string;
import static software.amazon.awssdk.enhanced.dynamodb.mapper.StaticAttributeTags.primaryPartitionKey;
import static software.amazon.awssdk.enhanced.dynamodb.mapper.StaticAttributeTags.primarySortKey;
import static software.amazon.awssdk.enhanced.dynamodb.mapper.StaticAttributeTags.secondaryPartitionKey;
import static software.amazon.awssdk.enhanced.dynamodb.mapper.StaticAttributeTags.secondarySortKey;

import io.gamefleet.catalog.PushChannel;
import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.InstanceStatus;
import java.time.Instant;
import java.util.List;
import software.amazon.awssdk.enhanced.dynamodb.EnhancedType;
import software.amazon.awssdk.enhanced.dynamodb.TableSchema;
import software.amazon.awssdk.enhanced.dynamodb.mapper.StaticImmutableTableSchema;

/**
 * GameServerInstances items. Access patterns: one instance by group and id (registration checks
 * the instance belongs to the group and reads its status); a group's instances in id order
 * (DescribeGameServerInstances, the workflows, all of them for the balancer); one instance by id
 * alone through the ByInstanceId index (EC2 events name only the instance); the instance holding a
 * push connection through the sparse ByPushConnection index ($disconnect names only the connection).
 * {@code Addresses}: the instance's own addresses, as EC2 gave them when it was first seen.
 * {@code QosPort}: its agent's QoS beacon port, written and removed with the push connection.
 */
final class InstanceSchema {
    static final TableSchema<GameServerInstance> SCHEMA = build();

    private InstanceSchema() {}

    /** The record is immutable; this builder only collects attributes while reading an item. */
    static final class Builder {
        private String group;
        private String instanceId;
        private InstanceStatus status = InstanceStatus.ACTIVE;
        private String type;
        private String zone;
        private Instant launchTime;
        private boolean replacementRequested;
        private String pushConnectionId;
        private Instant pushConnectedAt;
        private List<String> addresses;
        private Integer qosPort;

        GameServerInstance build() {
            return new GameServerInstance(group, instanceId, status, type, zone, launchTime, replacementRequested,
                    pushConnectionId, pushConnectedAt, addresses, qosPort);
        }
    }

    private static TableSchema<GameServerInstance> build() {
        var s = StaticImmutableTableSchema.builder(GameServerInstance.class, Builder.class)
                .newItemBuilder(Builder::new, Builder::build);
        s.addAttribute(String.class, a -> a.name("GameServerGroupName").getter(GameServerInstance::gameServerGroupName)
                .setter((b, v) -> b.group = v)
                .tags(primaryPartitionKey(), secondarySortKey(Tables.INSTANCES_BY_ID_INDEX)));
        s.addAttribute(String.class, a -> a.name("InstanceId").getter(GameServerInstance::instanceId)
                .setter((b, v) -> b.instanceId = v)
                .tags(primarySortKey(), secondaryPartitionKey(Tables.INSTANCES_BY_ID_INDEX),
                        secondarySortKey(Tables.INSTANCES_BY_PUSH_CONNECTION_INDEX)));
        enumeration(s, "InstanceStatus", InstanceStatus.class, GameServerInstance::instanceStatus, (b, v) -> b.status = v);
        string(s, "InstanceType", GameServerInstance::instanceType, (b, v) -> b.type = v);
        string(s, "AvailabilityZone", GameServerInstance::availabilityZone, (b, v) -> b.zone = v);
        millis(s, "LaunchTime", GameServerInstance::launchTime, (b, v) -> b.launchTime = v);
        s.addAttribute(Boolean.class, a -> a.name("ReplacementRequested").getter(GameServerInstance::replacementRequested)
                .setter((b, v) -> b.replacementRequested = Boolean.TRUE.equals(v)));
        s.addAttribute(String.class, a -> a.name(PushChannel.CONNECTION_ATTRIBUTE).getter(GameServerInstance::pushConnectionId)
                .setter((b, v) -> b.pushConnectionId = v)
                .tags(secondaryPartitionKey(Tables.INSTANCES_BY_PUSH_CONNECTION_INDEX)));
        millis(s, PushChannel.CONNECTED_AT_ATTRIBUTE, GameServerInstance::pushConnectedAt, (b, v) -> b.pushConnectedAt = v);
        // A list, in EC2's order; none on a record made before addresses were recorded.
        s.addAttribute(EnhancedType.listOf(String.class), a -> a.name("Addresses")
                .getter(i -> i.addresses().isEmpty() ? null : i.addresses())
                .setter((b, v) -> b.addresses = v));
        s.addAttribute(Integer.class, a -> a.name(PushChannel.QOS_PORT_ATTRIBUTE).getter(GameServerInstance::qosPort)
                .setter((b, v) -> b.qosPort = v));
        return s.build();
    }
}

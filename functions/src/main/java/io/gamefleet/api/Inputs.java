package io.gamefleet.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.domain.AutoScalingPolicy;
import io.gamefleet.domain.GameServerGroupAction;
import io.gamefleet.domain.InstanceDefinition;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.Tag;
import java.util.EnumSet;
import java.util.Set;

/** Decoding of nested input members shared by several handlers (already validated). */
final class Inputs {
    private Inputs() {}

    static InstanceDefinition instanceDefinition(JsonNode node) {
        JsonNode weight = node.get("WeightedCapacity");
        return new InstanceDefinition(node.get("InstanceType").asText(), weight == null ? null : weight.asText());
    }

    /** FleetIQ's GameServerGroupAutoScalingPolicy: CreateGameServerGroup's member, and CreateContainerGroup's. */
    static AutoScalingPolicy autoScalingPolicy(JsonNode node) {
        JsonNode warmup = node.get("EstimatedInstanceWarmup");
        return new AutoScalingPolicy(warmup == null ? null : warmup.asInt(),
                node.get("TargetTrackingConfiguration").get("TargetValue").asDouble());
    }

    static Tag tag(JsonNode node) {
        return new Tag(node.get("Key").asText(), node.get("Value").asText());
    }

    static Set<GameServerGroupAction> actions(ApiRequest request, String member) {
        Set<GameServerGroupAction> actions = EnumSet.noneOf(GameServerGroupAction.class);
        request.input().get(member).forEach(a -> actions.add(GameServerGroupAction.valueOf(a.asText())));
        return actions;
    }

    static Set<InstanceStatus> instanceStatuses(JsonNode list) {
        Set<InstanceStatus> statuses = EnumSet.noneOf(InstanceStatus.class);
        list.forEach(s -> statuses.add(InstanceStatus.valueOf(s.asText())));
        return statuses;
    }
}

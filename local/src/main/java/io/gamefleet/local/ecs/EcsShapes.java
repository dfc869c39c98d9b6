package io.gamefleet.local.ecs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How ECS shows the simulated services and tasks: its API's shapes (DescribeServices,
 * DescribeTasks, task protection), task metadata v4's, and the "ECS Task State
 * Change" event, with ECS's ARNs of this account and region.
 */
final class EcsShapes {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String region;
    private final String accountId;

    EcsShapes(String region, String accountId) {
        this.region = region;
        this.accountId = accountId;
    }

    /** The addresses of a task: its containers listen on this machine. */
    private static final String LOOPBACK = "127.0.0.1";

    String clusterArn(String cluster) {
        return "arn:aws:ecs:" + region + ":" + accountId + ":cluster/" + cluster;
    }

    /** DescribeServices' service. */
    ObjectNode service(SimulatedService s, int running, int pending) {
        ObjectNode o = JSON.createObjectNode();
        o.put("serviceArn", s.arn).put("serviceName", s.name).put("clusterArn", clusterArn(s.cluster)).put("status", s.status)
                .put("desiredCount", s.desired)
                .put("runningCount", running)
                .put("pendingCount", pending)
                .put("taskDefinition", s.taskDefinitionArn);
        if (!s.strategy.isEmpty()) {
            o.set("capacityProviderStrategy", s.strategy.deepCopy());
        } else {
            o.put("launchType", launchType(s));
        }
        for (String member : List.of("networkConfiguration", "propagateTags", "enableECSManagedTags")) {
            if (s.request.has(member)) {
                o.set(member, s.request.get(member).deepCopy());
            }
        }
        o.set("tags", s.request.path("tags").isArray() ? s.request.get("tags").deepCopy() : JSON.createArrayNode());
        o.set("createdAt", timestamp(s.createdAt));
        o.put("schedulingStrategy", "REPLICA");
        return o;
    }

    /** DescribeTasks' task. */
    ObjectNode task(SimulatedTask t) {
        ObjectNode o = JSON.createObjectNode();
        o.put("taskArn", t.arn).put("clusterArn", clusterArn(t.cluster))
                .put("taskDefinitionArn", t.definition.get("taskDefinitionArn").asText())
                .put("lastStatus", t.lastStatus).put("desiredStatus", t.desiredStatus)
                .put("availabilityZone", t.zone).put("launchType", launchType(t)).put("version", t.version)
                .put("connectivity", "CONNECTED").put("platformFamily", "Linux");
        if (t.capacityProvider != null) {
            o.put("capacityProviderName", t.capacityProvider);
        }
        if (t.service != null) {
            o.put("group", "service:" + t.service.name).put("startedBy", "ecs-svc/" + Integer.toHexString(t.service.arn.hashCode()));
        }
        for (String member : List.of("cpu", "memory")) {
            if (t.definition.hasNonNull(member)) {
                o.put(member, t.definition.get(member).asText());
            }
        }
        o.set("createdAt", timestamp(t.createdAt));
        putTime(o, "startedAt", t.startedAt);
        putTime(o, "stoppingAt", t.stoppingAt);
        putTime(o, "stoppedAt", t.stoppedAt);
        if (t.stopCode != null) {
            o.put("stopCode", t.stopCode).put("stoppedReason", t.stoppedReason);
        }
        String eni = "eni-" + t.id.substring(0, 17);
        ObjectNode attachment = o.putArray("attachments").addObject().put("id", t.id.substring(0, 8) + "-attachment")
                .put("type", "ElasticNetworkInterface").put("status", t.lastStatus.equals("STOPPED") ? "DELETED" : "ATTACHED");
        ArrayNode details = attachment.putArray("details");
        details.addObject().put("name", "networkInterfaceId").put("value", eni);
        details.addObject().put("name", "privateIPv4Address").put("value", LOOPBACK);
        ArrayNode containers = o.putArray("containers");
        for (JsonNode c : t.definition.path("containerDefinitions")) {
            ObjectNode container = containers.addObject().put("name", c.get("name").asText()).put("image", c.get("image").asText())
                    .put("taskArn", t.arn).put("lastStatus", t.lastStatus);
            container.putArray("networkInterfaces").addObject().put("attachmentId", attachment.get("id").asText())
                    .put("privateIpv4Address", LOOPBACK);
        }
        return o;
    }

    /** Task metadata v4's {@code ${ECS_CONTAINER_METADATA_URI_V4}/task}. */
    ObjectNode metadata(SimulatedTask t) {
        ObjectNode o = JSON.createObjectNode().put("Cluster", clusterArn(t.cluster)).put("TaskARN", t.arn)
                .put("Family", t.definition.get("family").asText())
                .put("Revision", t.definition.get("revision").asText())
                .put("DesiredStatus", t.desiredStatus).put("KnownStatus", t.lastStatus)
                .put("AvailabilityZone", t.zone).put("LaunchType", launchType(t));
        ArrayNode containers = o.putArray("Containers");
        for (JsonNode c : t.definition.path("containerDefinitions")) {
            ObjectNode container = containers.addObject().put("Name", c.get("name").asText())
                    .put("Image", c.get("image").asText()).put("DesiredStatus", t.desiredStatus)
                    .put("KnownStatus", t.lastStatus).put("Type", "NORMAL");
            container.putArray("Networks").addObject().put("NetworkMode", "awsvpc")
                    .putArray("IPv4Addresses").add(LOOPBACK);
        }
        return o;
    }

    /** Its protection as ECS reports it: off once its expiry has passed. */
    static ObjectNode protection(SimulatedTask t, Instant now) {
        ObjectNode o = JSON.createObjectNode().put("taskArn", t.arn).put("protectionEnabled", t.protectedAt(now));
        if (t.protectedAt(now)) {
            o.set("expirationDate", timestamp(t.protectionExpiry));
        }
        return o;
    }

    /** A capacity provider's kind; with none, the service's launch type. */
    static String launchType(SimulatedTask t) {
        if (t.capacityProvider == null) {
            return t.service == null ? "EC2" : launchType(t.service);
        }
        return t.capacityProvider.startsWith("FARGATE") ? "FARGATE" : "EC2";
    }

    /** With no strategy: its launchType, else EC2, as ECS's for a cluster with no default strategy (the local ones). */
    static String launchType(SimulatedService s) {
        return s.request.path("launchType").asText("EC2");
    }

    /** "ECS Task State Change", as ECS sends it to EventBridge (detail's times ISO-8601). */
    Map<String, Object> stateChange(SimulatedTask t, Instant now) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("clusterArn", clusterArn(t.cluster));
        detail.put("taskArn", t.arn);
        detail.put("taskDefinitionArn", t.definition.get("taskDefinitionArn").asText());
        if (t.service != null) {
            detail.put("group", "service:" + t.service.name);
        }
        detail.put("lastStatus", t.lastStatus);
        detail.put("desiredStatus", t.desiredStatus);
        if (t.capacityProvider != null) {
            detail.put("capacityProviderName", t.capacityProvider);
        }
        detail.put("availabilityZone", t.zone);
        detail.put("launchType", launchType(t));
        if (t.stopCode != null) {
            detail.put("stopCode", t.stopCode);
            detail.put("stoppedReason", t.stoppedReason);
        }
        detail.put("createdAt", t.createdAt.toString());
        if (t.stoppingAt != null) {
            detail.put("stoppingAt", t.stoppingAt.toString());
        }
        if (t.stoppedAt != null) {
            detail.put("stoppedAt", t.stoppedAt.toString());
        }
        detail.put("updatedAt", now.toString());
        detail.put("version", t.version);
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("version", "0");
        e.put("id", java.util.UUID.randomUUID().toString());
        e.put("detail-type", "ECS Task State Change");
        e.put("source", "aws.ecs");
        e.put("account", accountId);
        e.put("time", now.toString());
        e.put("region", region);
        e.put("resources", List.of(t.arn));
        e.put("detail", detail);
        return e;
    }

    /** ECS's JSON timestamps: epoch seconds, with milliseconds as the fraction. */
    static JsonNode timestamp(Instant at) {
        return JSON.getNodeFactory().numberNode(BigDecimal.valueOf(at.toEpochMilli(), 3));
    }

    private static void putTime(ObjectNode o, String member, Instant at) {
        if (at != null) {
            o.set(member, timestamp(at));
        }
    }
}

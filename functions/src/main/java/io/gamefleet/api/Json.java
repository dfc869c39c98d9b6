package io.gamefleet.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.InstanceDefinition;
import io.gamefleet.domain.Page;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;

/**
 * The FleetIQ output shapes. Absent members are omitted, never null; timestamps are epoch
 * seconds with a millisecond fraction, as in the AWS JSON protocol.
 */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            // One document per body: "{...} xyz" or two objects are refused, not half read.
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private Json() {}

    /** A request body that must be one JSON object; an empty body is an empty object. */
    static ObjectNode readObject(String text) {
        if (text.isBlank()) {
            return MAPPER.createObjectNode();
        }
        JsonNode parsed;
        try {
            parsed = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw GamefleetException.invalidRequest("the request body is not valid JSON: " + e.getOriginalMessage());
        }
        if (!(parsed instanceof ObjectNode object)) {
            throw GamefleetException.invalidRequest("the request body must be a JSON object");
        }
        return object;
    }

    static ObjectNode group(GameServerGroup g) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("GameServerGroupName", g.name());
        n.put("GameServerGroupArn", g.arn());
        n.put("RoleArn", g.roleArn());
        ArrayNode definitions = n.putArray("InstanceDefinitions");
        for (InstanceDefinition d : g.instanceDefinitions()) {
            ObjectNode def = definitions.addObject().put("InstanceType", d.instanceType());
            if (d.weightedCapacity() != null) {
                def.put("WeightedCapacity", d.weightedCapacity());
            }
        }
        n.put("BalancingStrategy", g.balancingStrategy().name());
        n.put("GameServerProtectionPolicy", g.protectionPolicy().name());
        putIfPresent(n, "AutoScalingGroupArn", g.autoScalingGroupArn());
        n.put("Status", g.status().name());
        putIfPresent(n, "StatusReason", g.statusReason());
        ArrayNode suspended = n.putArray("SuspendedActions");
        g.suspendedActions().stream().map(Enum::name).sorted().forEach(suspended::add);
        time(n, "CreationTime", g.creationTime());
        time(n, "LastUpdatedTime", g.lastUpdatedTime());
        return n;
    }

    static ObjectNode server(GameServer s, String groupArn, Instant now) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("GameServerGroupName", s.gameServerGroupName());
        n.put("GameServerGroupArn", groupArn);
        n.put("GameServerId", s.gameServerId());
        n.put("InstanceId", s.instanceId());
        putIfPresent(n, "ConnectionInfo", s.connectionInfo());
        putIfPresent(n, "GameServerData", s.gameServerData());
        if (s.isClaimedAt(now)) {
            n.put("ClaimStatus", "CLAIMED");
        }
        n.put("UtilizationStatus", s.utilizationStatus().name());
        time(n, "RegistrationTime", s.registrationTime());
        time(n, "LastClaimTime", s.lastClaimTime());
        time(n, "LastHealthCheckTime", s.lastHealthCheckTime());
        n.put("InstanceStatus", s.instanceStatus().name());
        return n;
    }

    static ObjectNode instance(GameServerInstance i, String groupArn) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("GameServerGroupName", i.gameServerGroupName());
        n.put("GameServerGroupArn", groupArn);
        n.put("InstanceId", i.instanceId());
        n.put("InstanceStatus", i.instanceStatus().name());
        putIfPresent(n, "InstanceType", i.instanceType());
        time(n, "LaunchTime", i.launchTime());
        return n;
    }

    static ObjectNode wrap(String member, ObjectNode value) {
        ObjectNode n = MAPPER.createObjectNode();
        n.set(member, value);
        return n;
    }

    static <T> ObjectNode page(String member, Page<T> page, Function<T, ObjectNode> encode) {
        ObjectNode n = MAPPER.createObjectNode();
        ArrayNode items = n.putArray(member);
        List<T> list = page.items();
        list.forEach(item -> items.add(encode.apply(item)));
        page.cursor().ifPresent(token -> n.put("NextToken", token));
        return n;
    }

    private static void putIfPresent(ObjectNode n, String member, String value) {
        if (value != null) {
            n.put(member, value);
        }
    }

    private static void time(ObjectNode n, String member, Instant t) {
        if (t != null) {
            n.put(member, BigDecimal.valueOf(t.toEpochMilli(), 3));
        }
    }
}

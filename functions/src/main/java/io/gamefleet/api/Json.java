package io.gamefleet.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
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
 *
 * <p>JSON text is read into Jackson's tree and written from it with jackson-core's streaming
 * parser and generator alone: no ObjectMapper, whose making costs a cold start a tenth of a second.
 */
public final class Json {
    /** Makes the tree's nodes. */
    public static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** Duplicate names are refused, as AWS refuses them. */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private Json() {}

    /** A request body that must be one JSON object; an empty body is an empty object. */
    public static ObjectNode readObject(String text) {
        if (text.isBlank()) {
            return NODES.objectNode();
        }
        JsonNode parsed;
        try (JsonParser parser = FACTORY.createParser(text)) {
            parsed = read(parser);
        } catch (JsonProcessingException e) {
            throw GamefleetException.invalidRequest("the request body is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!(parsed instanceof ObjectNode object)) {
            throw GamefleetException.invalidRequest("the request body must be a JSON object");
        }
        return object;
    }

    /** One JSON document (the model, say) as a tree. */
    static JsonNode read(InputStream in) throws IOException {
        try (JsonParser parser = FACTORY.createParser(in)) {
            return read(parser);
        }
    }

    /** One document and nothing after it: "{...} xyz" or two objects are refused, not half read. */
    private static JsonNode read(JsonParser parser) throws IOException {
        if (parser.nextToken() == null) {
            throw new com.fasterxml.jackson.core.JsonParseException(parser, "no content");
        }
        JsonNode document = value(parser);
        JsonToken after = parser.nextToken();
        if (after != null) {
            throw new com.fasterxml.jackson.core.JsonParseException(parser,
                    "Trailing token (of type " + after + ") found after the value: not allowed");
        }
        return document;
    }

    private static JsonNode value(JsonParser parser) throws IOException {
        switch (parser.currentToken()) {
            case START_OBJECT -> {
                ObjectNode object = NODES.objectNode();
                for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
                    parser.nextToken();
                    object.set(name, value(parser));
                }
                return object;
            }
            case START_ARRAY -> {
                ArrayNode array = NODES.arrayNode();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    array.add(value(parser));
                }
                return array;
            }
            case VALUE_STRING -> {
                return NODES.textNode(parser.getText());
            }
            case VALUE_NUMBER_INT -> {
                return switch (parser.getNumberType()) {
                    case INT -> NODES.numberNode(parser.getIntValue());
                    case LONG -> NODES.numberNode(parser.getLongValue());
                    default -> NODES.numberNode(parser.getBigIntegerValue());
                };
            }
            case VALUE_NUMBER_FLOAT -> {
                return NODES.numberNode(parser.getDoubleValue());
            }
            case VALUE_TRUE -> {
                return NODES.booleanNode(true);
            }
            case VALUE_FALSE -> {
                return NODES.booleanNode(false);
            }
            case VALUE_NULL -> {
                return NODES.nullNode();
            }
            default -> throw new com.fasterxml.jackson.core.JsonParseException(parser,
                    "Unexpected token " + parser.currentToken());
        }
    }

    /** The tree as JSON text. */
    public static String text(JsonNode node) {
        StringWriter out = new StringWriter();
        try (JsonGenerator generator = FACTORY.createGenerator(out)) {
            write(node, generator);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    static ObjectNode group(GameServerGroup g) {
        ObjectNode n = NODES.objectNode();
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
        ObjectNode n = NODES.objectNode();
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
        ObjectNode n = NODES.objectNode();
        n.put("GameServerGroupName", i.gameServerGroupName());
        n.put("GameServerGroupArn", groupArn);
        n.put("InstanceId", i.instanceId());
        n.put("InstanceStatus", i.instanceStatus().name());
        putIfPresent(n, "InstanceType", i.instanceType());
        time(n, "LaunchTime", i.launchTime());
        return n;
    }

    static ObjectNode wrap(String member, ObjectNode value) {
        ObjectNode n = NODES.objectNode();
        n.set(member, value);
        return n;
    }

    static <T> ObjectNode page(String member, Page<T> page, Function<T, ObjectNode> encode) {
        ObjectNode n = NODES.objectNode();
        ArrayNode items = n.putArray(member);
        List<T> list = page.items();
        list.forEach(item -> items.add(encode.apply(item)));
        page.cursor().ifPresent(token -> n.put("NextToken", token));
        return n;
    }

    private static void write(JsonNode node, JsonGenerator g) throws IOException {
        switch (node.getNodeType()) {
            case OBJECT -> {
                g.writeStartObject();
                for (var fields = node.fields(); fields.hasNext(); ) {
                    var field = fields.next();
                    g.writeFieldName(field.getKey());
                    write(field.getValue(), g);
                }
                g.writeEndObject();
            }
            case ARRAY -> {
                g.writeStartArray();
                for (JsonNode item : node) {
                    write(item, g);
                }
                g.writeEndArray();
            }
            case STRING -> g.writeString(node.textValue());
            case NUMBER -> {
                switch (node.numberType()) {
                    case INT -> g.writeNumber(node.intValue());
                    case LONG -> g.writeNumber(node.longValue());
                    case BIG_INTEGER -> g.writeNumber(node.bigIntegerValue());
                    case BIG_DECIMAL -> g.writeNumber(node.decimalValue());
                    case FLOAT -> g.writeNumber(node.floatValue());
                    default -> g.writeNumber(node.doubleValue());
                }
            }
            case BOOLEAN -> g.writeBoolean(node.booleanValue());
            case NULL -> g.writeNull();
            default -> throw new IllegalArgumentException("cannot write a " + node.getNodeType() + " node as JSON");
        }
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

package io.gamefleet.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.domain.GamefleetException;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * JSON text to Jackson's tree and back, for the functions' bodies, the FleetIQ model and the log.
 * Read and written with jackson-core's streaming parser and generator alone: no ObjectMapper, whose
 * making costs a cold start a tenth of a second.
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
    public static JsonNode read(InputStream in) throws IOException {
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
}

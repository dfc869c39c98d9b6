package io.gamefleet.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Checks request objects against the FleetIQ wire model ({@code /fleetiq-api-model.json}, a
 * botocore-style service model), so every handler sees input that already respects the model's
 * types, lengths, patterns, enums, list sizes and ranges. The first violation becomes a 400
 * {@code InvalidRequestException} whose message names the member path, e.g.
 * {@code InstanceDefinitions[1].WeightedCapacity: must match ...}.
 *
 * <p>Patterns are applied with {@link java.util.regex.Matcher#find()}, because the model's patterns
 * carry their own anchors (and {@code IamRoleArn}'s has no trailing {@code $}, so a full match
 * would be stricter than AWS). The model's regexes are ECMA-262, where {@code $} is the end of the
 * input; in Java it also matches before a final line terminator, which would let {@code "id\n"}
 * through, so each {@code $} anchor is compiled as {@code \z}.
 * The patterns written for UTF-16 engines ({@code \uD800\uDC00-\uDBFF\uDFFF}) need no
 * translation: Java's regex parser joins an escaped high+low surrogate pair into one code point,
 * so that range is U+10000..U+10FFFF, and a lone surrogate is rejected.
 *
 * <p>Immutable and thread-safe; build it once per container with {@link #load()}.
 */
public final class ModelValidator {
    private static final String RESOURCE = "/fleetiq-api-model.json";
    /** Enums longer than this are summarised rather than listed in full (instance types: 88). */
    private static final int ENUM_LISTED = 10;
    /** Echoed client values are cut to this many characters so messages stay readable. */
    private static final int ECHO_MAX = 64;

    private final JsonNode operations;
    private final JsonNode shapes;
    private final Map<String, Pattern> patterns = new HashMap<>();

    private ModelValidator(JsonNode model) {
        this.operations = model.path("operations");
        this.shapes = model.path("shapes");
        // Compile every pattern up front (a dozen or so): a pattern Java cannot parse fails the
        // container at start, not the first unlucky request.
        for (Map.Entry<String, JsonNode> e : shapes.properties()) {
            JsonNode p = e.getValue().get("pattern");
            if (p != null) {
                patterns.put(e.getKey(), Pattern.compile(anchoredAtEndOfInput(p.asText())));
            }
        }
    }

    /** Rewrites each {@code $} anchor (not escaped, not in a character class) as {@code \z}. */
    static String anchoredAtEndOfInput(String regex) {
        StringBuilder out = new StringBuilder(regex.length() + 4);
        boolean inClass = false;
        for (int i = 0; i < regex.length(); i++) {
            char c = regex.charAt(i);
            if (c == '\\' && i + 1 < regex.length()) {
                out.append(c).append(regex.charAt(++i));
            } else if (c == '[') {
                inClass = true;
                out.append(c);
            } else if (c == ']') {
                inClass = false;
                out.append(c);
            } else if (c == '$' && !inClass) {
                out.append("\\z");
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Reads the model from the classpath. Call once (static init) and share the result. */
    public static ModelValidator load() {
        try (InputStream in = ModelValidator.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing classpath resource " + RESOURCE);
            }
            return new ModelValidator(Json.read(in));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    /**
     * Validates {@code input} against the input shape of {@code operation}.
     *
     * @throws GamefleetException InvalidRequestException naming the first offending member
     * @throws IllegalArgumentException if the operation is not in the model (a routing bug)
     */
    public void validateInput(String operation, ObjectNode input) {
        String shape = inputShape(operation)
                .orElseThrow(() -> new IllegalArgumentException("unknown operation " + operation));
        if (input == null) {
            throw GamefleetException.invalidRequest("the request body must be a JSON object");
        }
        validateStructure(shape, input, "", operation + "'s input");
    }

    /**
     * Validates one value against a named shape of the model: what the push channel takes
     * (connect parameters, a health report's ids) follows FleetIQ's own shapes.
     *
     * @throws GamefleetException InvalidRequestException naming {@code path}
     * @throws IllegalArgumentException if the model has no such shape
     */
    public void validateValue(String shapeName, JsonNode value, String path) {
        if (!shapes.has(shapeName)) {
            throw new IllegalArgumentException("the model has no shape " + shapeName);
        }
        validate(shapeName, value, path);
    }

    /**
     * The model type ("string", "integer", "double", "boolean", "timestamp", "list",
     * "structure") of a top-level input member, so the HTTP layer can turn path and query
     * strings into the right JSON node before validation. Empty if either name is unknown.
     */
    public Optional<String> memberType(String operation, String member) {
        return inputShape(operation)
                .map(s -> shapes.path(s).path("members").path(member).path("shape"))
                .filter(JsonNode::isTextual)
                .map(ref -> shapes.path(ref.asText()).path("type").asText());
    }

    /** The name of the operation's output shape, as the wire encoders walk it. */
    Optional<String> outputShape(String operation) {
        JsonNode ref = operations.path(operation).path("output").path("shape");
        return ref.isTextual() ? Optional.of(ref.asText()) : Optional.empty();
    }

    /** The model type of a shape ("structure", "list", "timestamp", ...), empty if unknown. */
    String typeOf(String shapeName) {
        return shapes.path(shapeName).path("type").asText();
    }

    /** The shape of a structure's member, or of a list's items when {@code member} is null. */
    Optional<String> shapeOf(String shapeName, String member) {
        JsonNode shape = shapes.path(shapeName);
        JsonNode ref = member == null ? shape.path("member").path("shape")
                : shape.path("members").path(member).path("shape");
        return ref.isTextual() ? Optional.of(ref.asText()) : Optional.empty();
    }

    private Optional<String> inputShape(String operation) {
        JsonNode ref = operations.path(operation).path("input").path("shape");
        return ref.isTextual() ? Optional.of(ref.asText()) : Optional.empty();
    }

    private void validate(String shapeName, JsonNode value, String path) {
        if (value.isNull()) {
            // An explicit null is never the same as an absent member on this API.
            throw invalid(path, "must not be null");
        }
        JsonNode shape = shapes.path(shapeName);
        switch (shape.path("type").asText()) {
            case "structure" -> {
                if (!value.isObject()) throw invalid(path, "must be an object");
                validateStructure(shapeName, value, path, shapeName);
            }
            case "list" -> validateList(shape, value, path);
            case "string" -> validateString(shapeName, shape, value, path);
            case "integer" -> validateInteger(shape, value, path);
            case "double" -> {
                if (!value.isNumber()) throw invalid(path, "must be a number");
                if (!Double.isFinite(value.doubleValue())) throw invalid(path, "must be within the range of a double");
                if (shape.has("min") && value.decimalValue().compareTo(shape.get("min").decimalValue()) < 0) {
                    throw invalid(path, "must be at least " + shape.get("min").asText());
                }
            }
            case "boolean" -> {
                if (!value.isBoolean()) throw invalid(path, "must be true or false");
            }
            // The AWS JSON protocol sends timestamps as epoch seconds.
            case "timestamp" -> {
                if (!value.isNumber() || !Double.isFinite(value.doubleValue())) {
                    throw invalid(path, "must be a timestamp in epoch seconds");
                }
            }
            default -> throw new IllegalStateException("model shape " + shapeName + " has no usable type");
        }
    }

    private void validateStructure(String shapeName, JsonNode obj, String path, String describedAs) {
        JsonNode members = shapes.path(shapeName).path("members");
        // Unknown names first: a misspelt member would otherwise surface as "X: is required".
        for (Iterator<String> names = obj.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!members.has(name)) {
                throw invalid(child(path, name), "is not a member of " + describedAs);
            }
        }
        for (JsonNode required : shapes.path(shapeName).path("required")) {
            if (!obj.has(required.asText())) {
                throw invalid(child(path, required.asText()), "is required");
            }
        }
        for (Map.Entry<String, JsonNode> e : obj.properties()) {
            String memberShape = members.get(e.getKey()).path("shape").asText();
            validate(memberShape, e.getValue(), child(path, e.getKey()));
        }
    }

    private void validateList(JsonNode shape, JsonNode value, String path) {
        if (!value.isArray()) throw invalid(path, "must be a list");
        int size = value.size();
        if (outside(size, shape)) {
            throw invalid(path, "must have " + bounds(shape, "item") + ", got " + size);
        }
        String memberShape = shape.path("member").path("shape").asText();
        for (int i = 0; i < size; i++) {
            validate(memberShape, value.get(i), path + "[" + i + "]");
        }
    }

    private void validateString(String shapeName, JsonNode shape, JsonNode value, String path) {
        if (!value.isTextual()) throw invalid(path, "must be a string");
        String s = value.asText();
        if (hasUnpairedSurrogate(s)) {
            // Not Unicode text: DynamoDB refuses to store it (and UTF-8 cannot encode it).
            throw invalid(path, "must be valid Unicode text (it has an unpaired surrogate)");
        }
        // Lengths count Unicode code points, as Smithy/AWS length constraints do, so an emoji
        // counts as one character even though it is two Java chars.
        int length = s.codePointCount(0, s.length());
        if (outside(length, shape)) {
            throw invalid(path, "must be " + bounds(shape, "character") + ", got " + length);
        }
        Pattern pattern = patterns.get(shapeName);
        // The value is not echoed: some patterned shapes (GameServerData) are sensitive.
        if (pattern != null && !pattern.matcher(s).find()) {
            // The model's spelling of the pattern, which is what its documentation shows.
            throw invalid(path, "must match " + shape.get("pattern").asText());
        }
        JsonNode allowed = shape.get("enum");
        if (allowed != null && !contains(allowed, s)) {
            throw invalid(path, quote(s) + " " + describeEnum(allowed));
        }
    }

    private void validateInteger(JsonNode shape, JsonNode value, String path) {
        // Integral JSON numbers only: 5.0 and "5" are both rejected, as AWS does.
        if (!value.isIntegralNumber()) throw invalid(path, "must be an integer");
        BigInteger v = value.bigIntegerValue();
        if (shape.has("min") && v.compareTo(BigInteger.valueOf(shape.get("min").asLong())) < 0) {
            throw invalid(path, "must be at least " + shape.get("min").asLong());
        }
        if (shape.has("max") && v.compareTo(BigInteger.valueOf(shape.get("max").asLong())) > 0) {
            throw invalid(path, "must be at most " + shape.get("max").asLong());
        }
        // Model integers are 32-bit; larger values would overflow the domain's ints.
        if (!value.canConvertToInt()) {
            throw invalid(path, "must be between " + Integer.MIN_VALUE + " and " + Integer.MAX_VALUE);
        }
    }

    private static boolean hasUnpairedSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    private static boolean outside(int n, JsonNode shape) {
        return (shape.has("min") && n < shape.get("min").asInt())
                || (shape.has("max") && n > shape.get("max").asInt());
    }

    /** "3 to 128 characters", "exactly 19 characters", "at least 1 item", "at most 256 characters". */
    private static String bounds(JsonNode shape, String unit) {
        // A min of 0 says nothing a person needs to hear.
        Integer min = shape.has("min") && shape.get("min").asInt() > 0 ? shape.get("min").asInt() : null;
        Integer max = shape.has("max") ? shape.get("max").asInt() : null;
        if (min != null && max != null) {
            return (min.equals(max) ? "exactly " + min : min + " to " + max) + " " + plural(unit, max);
        }
        return min != null ? "at least " + min + " " + plural(unit, min) : "at most " + max + " " + plural(unit, max);
    }

    private static String plural(String unit, int n) {
        return n == 1 ? unit : unit + "s";
    }

    private static boolean contains(JsonNode allowed, String s) {
        for (JsonNode a : allowed) {
            if (a.asText().equals(s)) return true;
        }
        return false;
    }

    private static String describeEnum(JsonNode allowed) {
        List<String> values = new ArrayList<>();
        allowed.forEach(a -> values.add(a.asText()));
        if (values.size() <= ENUM_LISTED) {
            return "is not one of " + String.join(", ", values);
        }
        return "is not a supported value; valid values include "
                + String.join(", ", values.subList(0, ENUM_LISTED))
                + " (" + values.size() + " values in all)";
    }

    private static String quote(String s) {
        String shown = s.length() > ECHO_MAX ? s.substring(0, ECHO_MAX) + "..." : s;
        return "\"" + shown + "\"";
    }

    private static String child(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    private static GamefleetException invalid(String path, String problem) {
        return GamefleetException.invalidRequest(path + ": " + problem);
    }
}

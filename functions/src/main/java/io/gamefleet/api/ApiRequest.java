package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Route;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GamefleetException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A validated FleetIQ input: the JSON body with the path and query members merged in (query
 * values converted to the member's model type), checked against the operation's input shape,
 * and the caller's instance binding.
 */
public final class ApiRequest {
    /** docs/api.md: Limit is 1 to 100 (the model sets only the minimum). */
    static final int MAX_LIMIT = 100;
    static final int DEFAULT_LIMIT = 50;
    /** An EC2 instance-profile session: assumed-role/<role>/<instance id>. */
    private static final Pattern INSTANCE_SESSION =
            Pattern.compile("^arn:aws[a-z-]*:sts::\\d{12}:assumed-role/[^/]+/(i-[0-9a-zA-Z]{17})$");

    private final ObjectNode input;
    private final Caller caller;

    private ApiRequest(ObjectNode input, Caller caller) {
        this.input = input;
        this.caller = caller;
    }

    static ApiRequest decode(Route route, APIGatewayV2HTTPEvent event, ModelValidator validator) {
        String operation = route.operation().fleetIqName();
        ObjectNode input = body(event);
        merge(input, event.getPathParameters(), "path", operation, validator);
        Map<String, String> query = event.getQueryStringParameters();
        if (query != null) {
            for (String name : query.keySet()) {
                if (!route.queryMembers().contains(name)) {
                    // Only what the route puts in the query may come from it: a body member
                    // sent there would otherwise skip the body's own rules.
                    throw GamefleetException.invalidRequest(name + ": is not a query parameter of " + operation
                            + (route.queryMembers().isEmpty() ? ", which takes none"
                                    : "; it takes " + new java.util.TreeSet<>(route.queryMembers())));
                }
            }
        }
        merge(input, query, "query string", operation, validator);
        validator.validateInput(operation, input);
        JsonNode limit = input.get("Limit");
        if (limit != null && limit.asInt() > MAX_LIMIT) {
            throw GamefleetException.invalidRequest("Limit: must be at most " + MAX_LIMIT + ", got " + limit.asInt());
        }
        return new ApiRequest(input, caller(event));
    }

    public ObjectNode input() {
        return input;
    }

    public Caller caller() {
        return caller;
    }

    public String string(String member) {
        return input.get(member).asText();
    }

    public Optional<String> optionalString(String member) {
        JsonNode v = input.get(member);
        return v == null ? Optional.empty() : Optional.of(v.asText());
    }

    public <E extends Enum<E>> Optional<E> optionalEnum(String member, Class<E> type) {
        return optionalString(member).map(v -> Enum.valueOf(type, v));
    }

    public int limit() {
        JsonNode v = input.get("Limit");
        return v == null ? DEFAULT_LIMIT : v.asInt();
    }

    public Optional<List<String>> optionalStrings(String member) {
        return optionalList(member, JsonNode::asText);
    }

    public <T> Optional<List<T>> optionalList(String member, Function<JsonNode, T> mapper) {
        JsonNode v = input.get(member);
        if (v == null) {
            return Optional.empty();
        }
        List<T> items = new ArrayList<>();
        v.forEach(item -> items.add(mapper.apply(item)));
        return Optional.of(items);
    }

    private static ObjectNode body(APIGatewayV2HTTPEvent event) {
        String text = event.getBody();
        if (text == null || text.isBlank()) {
            return Json.MAPPER.createObjectNode();
        }
        if (event.getIsBase64Encoded()) {
            text = utf8(text);
        }
        JsonNode parsed;
        try {
            parsed = Json.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw GamefleetException.invalidRequest("the request body is not valid JSON: " + e.getOriginalMessage());
        }
        if (!(parsed instanceof ObjectNode object)) {
            throw GamefleetException.invalidRequest("the request body must be a JSON object");
        }
        return object;
    }

    /** A base64 body as UTF-8 text; bytes that are not UTF-8 are refused, never replaced. */
    private static String utf8(String base64) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw GamefleetException.invalidRequest("the request body is not valid base64");
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw GamefleetException.invalidRequest("the request body is not valid UTF-8");
        }
    }

    private static void merge(ObjectNode input, Map<String, String> parameters, String where, String operation,
            ModelValidator validator) {
        if (parameters == null) {
            return;
        }
        // API Gateway hands over path and query values decoded: decoding again would give one
        // resource two spellings (b%2561d would name "bad").
        parameters.forEach((name, value) -> {
            JsonNode node = convert(name, value, validator.memberType(operation, name).orElse("string"));
            JsonNode existing = input.get(name);
            if (existing != null && !existing.equals(node)) {
                throw GamefleetException.invalidRequest(name + ": the body says " + existing
                        + " but the " + where + " says " + node);
            }
            input.set(name, node);
        });
    }

    private static JsonNode convert(String name, String value, String type) {
        switch (type) {
            case "integer":
                try {
                    return Json.MAPPER.getNodeFactory().numberNode(Integer.parseInt(value));
                } catch (NumberFormatException e) {
                    throw GamefleetException.invalidRequest(name + ": must be an integer, got \"" + value + "\"");
                }
            case "list":
                ArrayNode list = Json.MAPPER.createArrayNode();
                for (String item : value.split(",", -1)) {
                    list.add(item);
                }
                return list;
            default:
                return Json.MAPPER.getNodeFactory().textNode(value);
        }
    }

    private static Caller caller(APIGatewayV2HTTPEvent event) {
        var context = event.getRequestContext();
        if (context == null || context.getAuthorizer() == null || context.getAuthorizer().getIam() == null) {
            return Caller.UNBOUND;
        }
        String userArn = context.getAuthorizer().getIam().getUserArn();
        Matcher m = INSTANCE_SESSION.matcher(userArn == null ? "" : userArn);
        return m.matches() ? Caller.onInstance(m.group(1)) : Caller.UNBOUND;
    }
}

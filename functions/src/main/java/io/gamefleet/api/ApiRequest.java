package io.gamefleet.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Operation;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GamefleetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A validated FleetIQ input, whichever door it came through, and the caller's instance binding.
 */
public final class ApiRequest {
    /** docs/api.md: Limit is 1 to 100 (the model sets only the minimum). */
    static final int MAX_LIMIT = 100;
    static final int DEFAULT_LIMIT = 50;

    private final ObjectNode input;
    private final Caller caller;

    private ApiRequest(ObjectNode input, Caller caller) {
        this.input = input;
        this.caller = caller;
    }

    /** Validates the input against the operation's input shape and API limits. */
    static ApiRequest validate(Operation operation, ObjectNode input, Caller caller, ModelValidator validator) {
        validator.validateInput(operation.fleetIqName(), input);
        JsonNode limit = input.get("Limit");
        if (limit != null && limit.asInt() > MAX_LIMIT) {
            throw GamefleetException.invalidRequest("Limit: must be at most " + MAX_LIMIT + ", got " + limit.asInt());
        }
        return new ApiRequest(input, caller);
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
}

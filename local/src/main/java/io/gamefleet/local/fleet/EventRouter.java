package io.gamefleet.local.fleet;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.catalog.EventRule;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Map.Entry;

/**
 * The local EventBridge: delivers an event to the function of every catalog rule whose pattern
 * matches it. Patterns use a subset of EventBridge's syntax: objects nest, a field's array lists
 * the values it may take (exact strings, numbers or booleans), and {@code "$or"} lists patterns
 * of which at least one must match as well.
 */
public final class EventRouter {
    private static final ObjectMapper JSON = new ObjectMapper();

    private record Target(JsonNode pattern, RequestHandler<Map<String, Object>, Map<String, Object>> handler) {}

    private final List<Target> targets;
    private final Timeline timeline;

    /** The catalog's rules, each with the function it targets; every event delivered goes on the timeline. */
    public EventRouter(Map<EventRule, RequestHandler<Map<String, Object>, Map<String, Object>>> rules,
            Timeline timeline) {
        this.targets = rules.entrySet().stream().map(r -> new Target(pattern(r.getKey()), r.getValue())).toList();
        this.timeline = timeline;
    }

    private static JsonNode pattern(EventRule rule) {
        try {
            return JSON.readTree(rule.pattern());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("event pattern of " + rule.name() + " is not JSON", e);
        }
    }

    /** Returns how many rules matched. */
    public int deliver(Map<String, Object> event) {
        JsonNode tree = JSON.valueToTree(event);
        timeline.event(event);
        int matched = 0;
        for (Target t : targets) {
            if (matches(t.pattern(), tree)) {
                matched++;
                t.handler().handleRequest(event, null);
            }
        }
        return matched;
    }

    private static boolean matches(JsonNode pattern, JsonNode event) {
        Iterator<Entry<String, JsonNode>> fields = pattern.fields();
        while (fields.hasNext()) {
            Entry<String, JsonNode> field = fields.next();
            JsonNode value = event == null ? null : event.get(field.getKey());
            JsonNode expected = field.getValue();
            if (field.getKey().equals("$or")) {
                boolean any = false;
                for (JsonNode alternative : expected) {
                    any |= matches(alternative, event);
                }
                if (!any) {
                    return false;
                }
            } else if (expected.isObject()) {
                if (value == null || !value.isObject() || !matches(expected, value)) {
                    return false;
                }
            } else if (expected.isArray()) {
                boolean any = false;
                for (JsonNode allowed : expected) {
                    any |= value != null && allowed.equals(value);
                }
                if (!any) {
                    return false;
                }
            }
        }
        return true;
    }
}

package io.gamefleet.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a GSDK heartbeat body whatever the case of its keys: the C++, C# and Go GSDKs send
 * {@code CurrentGameState}, the Java GSDK {@code currentGameState}.
 */
final class GsdkHeartbeatReader {
    private static final ObjectMapper JSON = new ObjectMapper();

    private GsdkHeartbeatReader() {}

    /** The refusal of a body that is no heartbeat: its message says what is wrong. */
    static final class Malformed extends Exception {
        Malformed(String message) {
            super(message);
        }
    }

    static Heartbeat read(String body) throws Malformed {
        Map<String, JsonNode> fields = object(parse(body), "the heartbeat");
        JsonNode state = fields.get("CurrentGameState");
        if (state == null || !state.isTextual()) {
            throw new Malformed("CurrentGameState is missing or not a string");
        }
        GameState gameState = GameState.parse(state.asText())
                .orElseThrow(() -> new Malformed("CurrentGameState \"" + state.asText() + "\" is not a GSDK state"));
        Boolean healthy = null;
        JsonNode health = fields.get("CurrentGameHealth");
        if (health != null && !health.isNull()) {
            if (!health.isTextual() || !(health.asText().equalsIgnoreCase("Healthy") || health.asText().equalsIgnoreCase("Unhealthy"))) {
                throw new Malformed("CurrentGameHealth must be Healthy or Unhealthy");
            }
            healthy = health.asText().equalsIgnoreCase("Healthy");
        }
        List<String> players = new ArrayList<>();
        JsonNode list = fields.get("CurrentPlayers");
        if (list != null && !list.isNull()) {
            if (!list.isArray()) {
                throw new Malformed("CurrentPlayers must be an array of {PlayerId}");
            }
            for (JsonNode p : list) {
                JsonNode id = object(p, "each of CurrentPlayers").get("PlayerId");
                if (id == null || !id.isTextual()) {
                    throw new Malformed("each of CurrentPlayers needs a PlayerId string");
                }
                players.add(id.asText());
            }
        }
        return new Heartbeat(gameState, healthy, players);
    }

    /** {@code Flavor} and {@code Version} of a gsdkinfo body, both required as PlayFab's local agent does. */
    static String[] gsdkInfo(String body) throws Malformed {
        Map<String, JsonNode> fields = object(parse(body), "the gsdkinfo body");
        JsonNode flavor = fields.get("Flavor");
        JsonNode version = fields.get("Version");
        if (flavor == null || !flavor.isTextual() || flavor.asText().isEmpty()
                || version == null || !version.isTextual() || version.asText().isEmpty()) {
            throw new Malformed("Flavor and Version must be non-empty strings");
        }
        return new String[] {flavor.asText(), version.asText()};
    }

    private static JsonNode parse(String body) throws Malformed {
        try {
            JsonNode node = JSON.readTree(body);
            if (node == null || node.isMissingNode()) {
                throw new Malformed("empty body: a JSON object is expected");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new Malformed("not JSON: " + e.getOriginalMessage());
        }
    }

    private static Map<String, JsonNode> object(JsonNode node, String what) throws Malformed {
        if (!node.isObject()) {
            throw new Malformed(what + " must be a JSON object");
        }
        Map<String, JsonNode> fields = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        node.properties().forEach(e -> fields.put(e.getKey(), e.getValue()));
        return fields;
    }
}

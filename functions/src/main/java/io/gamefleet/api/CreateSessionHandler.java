package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.catalog.SessionLimits;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.Placement;
import io.gamefleet.domain.SessionService;
import io.gamefleet.json.Json;
import io.gamefleet.logging.JsonLog;
import io.gamefleet.wiring.Services;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * CreateSession ({@link Routes#CREATE_SESSION}): claims a server for a session, or answers the
 * session its SessionId already has. The body is {@code SessionId} (a UUID), {@code SessionCookie},
 * {@code InitialPlayers} and FleetIQ's {@code FilterOption}, held to {@link SessionLimits} and the
 * FleetIQ shape before anything is read, and where to place it: {@code PreferredRegions},
 * {@code Latencies} and {@code MaxLatencyMs} ({@link Placement}). A session placed in a peer region
 * is answered as that region answered it.
 */
public final class CreateSessionHandler extends ExtensionHandler {
    private static final Set<String> MEMBERS = Set.of("SessionId", "SessionCookie", "InitialPlayers", "FilterOption",
            "PreferredRegions", "Latencies", "MaxLatencyMs");
    /** An AWS region's name, such as eu-west-1 or us-gov-west-1. */
    private static final Pattern REGION = Pattern.compile("^[a-z]{2}(-[a-z]+)+-[0-9]{1,2}$");
    private static final int MAX_REGIONS = 32;
    /** A latency above a minute is no measurement. */
    private static final int MAX_LATENCY_MS = 60_000;

    public CreateSessionHandler() {
        this(Services.shared());
    }

    public CreateSessionHandler(Services services) {
        super(Routes.CREATE_SESSION, services);
    }

    @Override
    protected APIGatewayV2HTTPResponse serve(APIGatewayV2HTTPEvent event, Map<String, String> path, Caller caller,
            Optional<Role> role) {
        refuseGameServers(role);
        String group = member(path, "GameServerGroupName", "GameServerGroupNameOrArn");
        ObjectNode body = Json.readObject(Bodies.text(event));
        for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!MEMBERS.contains(name)) {
                throw GamefleetException.invalidRequest(name + ": is not a member of CreateSession's input");
            }
        }
        String sessionId = sessionId(body.get("SessionId"));
        Optional<String> cookie = cookie(body.get("SessionCookie"));
        List<String> players = players(body.get("InitialPlayers"));
        Optional<Set<InstanceStatus>> statuses = Optional.ofNullable(body.get("FilterOption")).map(filter -> {
            MODEL.validateValue("ClaimFilterOption", filter, "FilterOption");
            return filter.get("InstanceStatuses");
        }).map(Inputs::instanceStatuses);
        Placement placement = new Placement(preferredRegions(body.get("PreferredRegions")),
                latencies(body.get("Latencies")), latency(body.get("MaxLatencyMs"), "MaxLatencyMs"));
        JsonLog.with("group", group);
        SessionService.Placed placed = services.sessions().place(group, sessionId, cookie, players, statuses, placement);
        if (placed instanceof SessionService.Placed.Elsewhere elsewhere) {
            JsonLog.with("placedIn", elsewhere.region());
            return RestJsonProtocol.respond(200, Json.readObject(elsewhere.body()));
        }
        return RestJsonProtocol.respond(200, Outputs.sessionResponse(services, ((SessionService.Placed.Here) placed).view()));
    }

    private static List<String> preferredRegions(JsonNode node) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray() || node.size() > MAX_REGIONS) {
            throw GamefleetException.invalidRequest("PreferredRegions: must be a list of at most " + MAX_REGIONS
                    + " region names, in preference order");
        }
        List<String> regions = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            regions.add(region(node.get(i), "PreferredRegions[" + i + "]"));
        }
        return regions;
    }

    private static Map<String, Integer> latencies(JsonNode node) {
        if (node == null || node.isNull()) {
            return Map.of();
        }
        if (!node.isObject() || node.size() > MAX_REGIONS) {
            throw GamefleetException.invalidRequest("Latencies: must be an object of at most " + MAX_REGIONS
                    + " members, {\"<region>\": <milliseconds>}");
        }
        Map<String, Integer> latencies = new LinkedHashMap<>();
        node.fields().forEachRemaining(e -> {
            region(TextNode.valueOf(e.getKey()), "Latencies");
            latencies.put(e.getKey(), latency(e.getValue(), "Latencies." + e.getKey()).orElseThrow(() ->
                    GamefleetException.invalidRequest("Latencies." + e.getKey() + ": must be a number of milliseconds")));
        });
        return latencies;
    }

    private static String region(JsonNode node, String member) {
        if (node == null || !node.isTextual() || !REGION.matcher(node.asText()).matches()) {
            throw GamefleetException.invalidRequest(member + ": must be an AWS region's name, such as eu-west-1, not "
                    + node);
        }
        return node.asText();
    }

    private static Optional<Integer> latency(JsonNode node, String member) {
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (!node.isIntegralNumber() || node.asLong() < 0 || node.asLong() > MAX_LATENCY_MS) {
            throw GamefleetException.invalidRequest(member + ": must be a whole number of milliseconds from 0 to "
                    + MAX_LATENCY_MS + ", not " + node);
        }
        return Optional.of(node.asInt());
    }

    /** IAM lets only a matchmaker or an ADMIN in; a game server's session is refused here too. */
    static void refuseGameServers(Optional<Role> role) {
        if (role.equals(Optional.of(Role.GAME_SERVER))) {
            throw GamefleetException.unauthorized("a game server neither requests nor reads sessions");
        }
    }

    static String sessionId(JsonNode node) {
        if (node == null || node.isNull()) {
            throw GamefleetException.invalidRequest("SessionId: is required");
        }
        if (!node.isTextual() || !SessionLimits.SESSION_ID.matcher(node.asText()).matches()) {
            throw GamefleetException.invalidRequest("SessionId: must be a UUID (8-4-4-4-12 hexadecimal digits)");
        }
        return node.asText().toLowerCase(Locale.ROOT); // one UUID, one session, whatever its case
    }

    private static Optional<String> cookie(JsonNode node) {
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (!node.isTextual()) {
            throw GamefleetException.invalidRequest("SessionCookie: must be a string");
        }
        int bytes = node.asText().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > SessionLimits.COOKIE_MAX_BYTES) {
            throw GamefleetException.invalidRequest("SessionCookie: must be at most " + SessionLimits.COOKIE_MAX_BYTES
                    + " bytes (UTF-8), not " + bytes);
        }
        return Optional.of(node.asText());
    }

    private static List<String> players(JsonNode node) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw GamefleetException.invalidRequest("InitialPlayers: must be a list of player ids");
        }
        if (node.size() > SessionLimits.MAX_INITIAL_PLAYERS) {
            throw GamefleetException.invalidRequest("InitialPlayers: must hold at most " + SessionLimits.MAX_INITIAL_PLAYERS
                    + " player ids, not " + node.size());
        }
        List<String> players = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode player = node.get(i);
            if (!player.isTextual() || player.asText().isEmpty()
                    || player.asText().length() > SessionLimits.PLAYER_ID_MAX_LENGTH) {
                throw GamefleetException.invalidRequest("InitialPlayers[" + i + "]: must be a player id of 1 to "
                        + SessionLimits.PLAYER_ID_MAX_LENGTH + " characters");
            }
            players.add(player.asText());
        }
        return players;
    }
}

package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.StandbyPolicy;
import io.gamefleet.domain.StandbyPolicy.Buffer;
import io.gamefleet.domain.StandbyPolicy.DynamicTier;
import io.gamefleet.domain.StandbyPolicy.Window;
import io.gamefleet.json.Json;
import io.gamefleet.logging.JsonLog;
import io.gamefleet.wiring.Services;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PutStandbyPolicy ({@link Routes#PUT_STANDBY_POLICY}): replaces a group's standby buffer. The body
 * is {@code StandingBy} (a count, or a percentage of the group's servers as {@code "20%"}),
 * {@code Dynamic} tiers, {@code RampDownSeconds}, a {@code Schedule} of windows and
 * {@code ScaleInCooldownSeconds}; each member is read here, its rules are {@link StandbyPolicy}'s,
 * and a refusal names the member with nothing stored.
 */
public final class PutStandbyPolicyHandler extends ExtensionHandler {
    private static final Set<String> MEMBERS = Set.of("StandingBy", "Dynamic", "RampDownSeconds", "Schedule",
            "ScaleInCooldownSeconds");
    private static final Set<String> TIER_MEMBERS = Set.of("BelowPercent", "Multiplier");
    private static final Set<String> WINDOW_MEMBERS = Set.of("Start", "End", "StandingBy");
    private static final Pattern PERCENT = Pattern.compile("(\\d{1,3})%");

    public PutStandbyPolicyHandler() {
        this(Services.shared());
    }

    public PutStandbyPolicyHandler(Services services) {
        super(Routes.PUT_STANDBY_POLICY, services);
    }

    @Override
    protected APIGatewayV2HTTPResponse serve(APIGatewayV2HTTPEvent event, Map<String, String> path, Caller caller,
            Optional<Role> role) {
        if (!caller.administrator()) {
            throw GamefleetException.unauthorized("only an administrator sets a group's standby buffer");
        }
        String group = member(path, "GameServerGroupName", "GameServerGroupNameOrArn");
        StandbyPolicy policy = policy(Json.readObject(Bodies.text(event)));
        JsonLog.with("group", group);
        return RestJsonProtocol.respond(200, Outputs.standbyResponse(services, services.standby().put(group, policy)));
    }

    static StandbyPolicy policy(ObjectNode body) {
        onlyMembers(body, MEMBERS, "", "PutStandbyPolicy's input");
        JsonNode standingBy = body.get("StandingBy");
        if (standingBy == null || standingBy.isNull()) {
            throw GamefleetException.invalidRequest("StandingBy: is required (a count, or a percentage such as \"20%\")");
        }
        List<DynamicTier> tiers = new ArrayList<>();
        JsonNode dynamic = list(body.get("Dynamic"), "Dynamic");
        for (int i = 0; i < dynamic.size(); i++) {
            String member = "Dynamic[" + i + "]";
            JsonNode tier = object(dynamic.get(i), member);
            onlyMembers(tier, TIER_MEMBERS, member + ".", "a tier");
            tiers.add(new DynamicTier(number(tier.get("BelowPercent"), member + ".BelowPercent"),
                    number(tier.get("Multiplier"), member + ".Multiplier")));
        }
        List<Window> windows = new ArrayList<>();
        JsonNode schedule = list(body.get("Schedule"), "Schedule");
        for (int i = 0; i < schedule.size(); i++) {
            String member = "Schedule[" + i + "]";
            JsonNode window = object(schedule.get(i), member);
            onlyMembers(window, WINDOW_MEMBERS, member + ".", "a window");
            JsonNode buffer = window.get("StandingBy");
            if (buffer == null || buffer.isNull()) {
                throw GamefleetException.invalidRequest(member + ".StandingBy: is required");
            }
            windows.add(new Window(time(window.get("Start"), member + ".Start"), time(window.get("End"), member + ".End"),
                    buffer(buffer, member + ".StandingBy")));
        }
        return new StandbyPolicy(buffer(standingBy, "StandingBy"), tiers,
                seconds(body.get("RampDownSeconds"), "RampDownSeconds", StandbyPolicy.DEFAULT_RAMP_DOWN), windows,
                seconds(body.get("ScaleInCooldownSeconds"), "ScaleInCooldownSeconds",
                        StandbyPolicy.DEFAULT_SCALE_IN_COOLDOWN));
    }

    private static void onlyMembers(JsonNode node, Set<String> members, String prefix, String of) {
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!members.contains(name)) {
                throw GamefleetException.invalidRequest(prefix + name + ": is not a member of " + of);
            }
        }
    }

    private static Buffer buffer(JsonNode node, String member) {
        if (node.isTextual()) {
            Matcher m = PERCENT.matcher(node.asText());
            if (!m.matches()) {
                throw GamefleetException.invalidRequest(member + ": must be a count or a percentage such as \"20%\"");
            }
            return Buffer.percentOfServers(Integer.parseInt(m.group(1)));
        }
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
            throw GamefleetException.invalidRequest(member + ": must be a whole number of servers or a percentage such as"
                    + " \"20%\"");
        }
        return Buffer.count(node.asInt());
    }

    private static JsonNode list(JsonNode node, String member) {
        if (node == null || node.isNull()) {
            return Json.NODES.arrayNode();
        }
        if (!node.isArray()) {
            throw GamefleetException.invalidRequest(member + ": must be a list");
        }
        return node;
    }

    private static JsonNode object(JsonNode node, String member) {
        if (!node.isObject()) {
            throw GamefleetException.invalidRequest(member + ": must be an object");
        }
        return node;
    }

    private static double number(JsonNode node, String member) {
        if (node == null || node.isNull()) {
            throw GamefleetException.invalidRequest(member + ": is required");
        }
        if (!node.isNumber()) {
            throw GamefleetException.invalidRequest(member + ": must be a number");
        }
        return node.asDouble();
    }

    /** A time as the REST routes give them (epoch seconds), or an ISO-8601 UTC time such as {@code 2026-12-24T18:00:00Z}. */
    private static Instant time(JsonNode node, String member) {
        if (node == null || node.isNull()) {
            throw GamefleetException.invalidRequest(member + ": is required");
        }
        if (node.isNumber()) {
            BigDecimal millis = node.decimalValue().movePointRight(3);
            if (millis.signum() < 0 || millis.compareTo(BigDecimal.valueOf(Instant.parse("9999-12-31T23:59:59Z")
                    .toEpochMilli())) > 0) {
                throw GamefleetException.invalidRequest(member + ": must be a time from 1970 to 9999");
            }
            return Instant.ofEpochMilli(millis.longValue());
        }
        if (node.isTextual()) {
            try {
                return Instant.parse(node.asText());
            } catch (DateTimeParseException e) {
                // answered below
            }
        }
        throw GamefleetException.invalidRequest(member + ": must be epoch seconds or an ISO-8601 UTC time such as"
                + " \"2026-12-24T18:00:00Z\"");
    }

    private static Duration seconds(JsonNode node, String member, Duration absent) {
        if (node == null || node.isNull()) {
            return absent;
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw GamefleetException.invalidRequest(member + ": must be a whole number of seconds");
        }
        return Duration.ofSeconds(node.asLong());
    }
}

package io.gamefleet.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A game server for the tests, run as a child JVM under the agent: it speaks the GSDK protocol as
 * the Java GSDK does (camelCase keys, a heartbeat a second, at once on a state change, two players
 * in {@code currentPlayers} while Active) and prints
 * what it hears, so a test reads its console log. Modes:
 * {@code match-until FILE} Initializing, StandingBy, Active on a claim, then Terminated and exit 0 once
 * FILE exists (or on Terminate); {@code crash-standing-by-when FILE} the same, but exit 3 while
 * StandingBy once FILE exists; {@code crash} one heartbeat then exit 3; {@code silent} never beats,
 * ignores SIGTERM and starts a child in its process group. Each answered heartbeat prints {@code
 * BEAT n}, so a test sees heartbeats answered after a moment (an agent restarted, say), whether
 * or not one failed meanwhile.
 */
public final class ScriptedGsdkServer {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private static String url;
    private static long answered;

    public static void main(String[] args) throws Exception {
        JsonNode config = JSON.readTree(Path.of(System.getenv("GSDK_CONFIG_FILE")).toFile());
        url = "http://" + config.path("heartbeatEndpoint").asText() + "/v1/sessionHosts/" + config.path("sessionHostId").asText();
        System.out.println("GAMEFLEET_GAME_SERVER_ID " + System.getenv("GAMEFLEET_GAME_SERVER_ID")
                + " port " + config.path("gamePorts").path("game").asText());
        switch (args[0]) {
            case "crash" -> {
                beat("Initializing");
                System.out.println("crashing");
                System.exit(3);
            }
            case "silent" -> {
                sun.misc.Signal.handle(new sun.misc.Signal("TERM"), s -> System.out.println("TERM ignored"));
                Process child = new ProcessBuilder("sleep", "600").inheritIO().start();
                System.out.println("CHILD " + child.pid());
                Thread.sleep(Long.MAX_VALUE);
            }
            case "match-until" -> match(Path.of(args[1]), false);
            case "crash-standing-by-when" -> match(Path.of(args[1]), true);
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    private static void match(Path endFile, boolean crashStandingBy) throws Exception {
        post(url.replace("/v1/sessionHosts/", "/v1/metrics/") + "/gsdkinfo", "{\"Flavor\":\"Java\",\"Version\":\"2.0.0\"}", "POST");
        String state = "Initializing";
        beat(state);
        beat(state);
        state = "StandingBy";
        while (true) {
            JsonNode reply = beat(state);
            String operation = reply == null ? "" : reply.path("operation").asText();
            if (operation.equals("Terminate")) {
                System.out.println("TERMINATE");
                beat("Terminated");
                System.exit(0);
            }
            if (operation.equals("Active") && !state.equals("Active")) {
                state = "Active";
                System.out.println("ACTIVE cookie=" + reply.path("sessionConfig").path("sessionCookie").asText()
                        + " sessionId=" + reply.path("sessionConfig").path("sessionId").asText());
                beat(state);
                continue;
            }
            if (crashStandingBy && state.equals("StandingBy") && Files.exists(endFile)) {
                System.out.println("CRASHING while StandingBy");
                System.exit(3);
            }
            if (state.equals("Active") && Files.exists(endFile)) {
                System.out.println("MATCH OVER");
                beat("Terminated");
                System.exit(0);
            }
            Thread.sleep(reply == null ? 1000 : reply.path("nextHeartbeatIntervalMs").asInt(1000));
        }
    }

    /** One heartbeat, two players connected while Active (the Java GSDK's keys); null when the agent cannot be reached. */
    private static JsonNode beat(String state) throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode heartbeat = JSON.createObjectNode().put("currentGameState", state)
                .put("currentGameHealth", "Healthy");
        com.fasterxml.jackson.databind.node.ArrayNode players = heartbeat.putArray("currentPlayers");
        if (state.equals("Active")) {
            players.addObject().put("playerId", "camel-1");
            players.addObject().put("playerId", "camel-2");
        }
        String body = heartbeat.toString();
        String text = post(url, body, "PATCH");
        if (text == null) {
            return null;
        }
        JsonNode reply = JSON.readTree(text);
        if (reply.has("nextScheduledMaintenanceUtc")) {
            JsonNode events = reply.path("maintenanceSchedule").path("Events");
            System.out.println("MAINTENANCE " + reply.path("nextScheduledMaintenanceUtc").asText()
                    + (events.size() > 0 ? " " + events.get(0).path("eventType").asText() : ""));
        }
        return reply;
    }

    private static String post(String to, String body, String method) throws InterruptedException {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(to)).timeout(Duration.ofSeconds(1))
                    .method(method, HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                System.out.println("REFUSED " + r.statusCode() + " " + r.body());
                return null;
            }
            System.out.println("BEAT " + ++answered);
            return r.body();
        } catch (java.io.IOException e) {
            System.out.println("agent unreachable: " + e);
            return null;
        }
    }
}

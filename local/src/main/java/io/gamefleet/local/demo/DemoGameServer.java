package io.gamefleet.local.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The game server of {@code local/run --demo}, one process per slot under the agent: it speaks
 * PlayFab's GSDK protocol as a GSDK does (the config file named by {@code GSDK_CONFIG_FILE}, a
 * heartbeat a second to the agent's endpoint, PascalCase keys), goes Initializing, then StandingBy;
 * when the agent answers {@code Active} (a ClaimGameServer reached it), it plays a simulated match
 * (players join one a second, play, leave one a second, all reported in {@code CurrentPlayers}),
 * then reports Terminated and exits 0, and the agent starts a new one in its place. Told Terminate,
 * it ends at once. What it does is printed, one line each, to its console log.
 *
 * <p>{@code java -cp gamefleet-local.jar io.gamefleet.local.demo.DemoGameServer [MATCH_SECONDS]}:
 * how long the players stay (default 20 to 40 s, drawn per match).
 */
public final class DemoGameServer {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private static final int MOST_PLAYERS = 8;

    private final URI heartbeat;
    private final Random random;
    private final Duration matchLength;
    private final List<String> players = new ArrayList<>();
    private String state = "Initializing";
    private String lastMaintenance = "";

    private DemoGameServer(URI heartbeat, Random random, Duration matchLength) {
        this.heartbeat = heartbeat;
        this.random = random;
        this.matchLength = matchLength;
    }

    public static void main(String[] args) throws Exception {
        JsonNode config = JSON.readTree(Path.of(System.getenv("GSDK_CONFIG_FILE")).toFile());
        String sessionHost = config.path("sessionHostId").asText();
        URI base = URI.create("http://" + config.path("heartbeatEndpoint").asText());
        Random random = new Random();
        Duration match = args.length > 0 ? Duration.ofMillis((long) (Double.parseDouble(args[0]) * 1000))
                : Duration.ofSeconds(20 + random.nextInt(21));
        System.out.println("demo game server " + System.getenv("GAMEFLEET_GAME_SERVER_ID") + " on port "
                + config.path("gamePorts").path("game").asText() + ", instance " + config.path("vmId").asText());
        send(base.resolve("/v1/metrics/" + sessionHost + "/gsdkinfo"), "POST",
                JSON.createObjectNode().put("Flavor", "Gamefleet demo").put("Version", "1.0"));
        new DemoGameServer(base.resolve("/v1/sessionHosts/" + sessionHost), random, match).run();
    }

    private void run() throws InterruptedException {
        beat(); // Initializing: loading the map
        state = "StandingBy";
        System.out.println("ready for players (StandingBy)");
        while (true) {
            JsonNode reply = beat();
            String operation = reply.path("operation").asText();
            if (operation.equals("Terminate")) {
                end("told Terminate");
                return;
            }
            if (operation.equals("Active") && state.equals("StandingBy")) {
                state = "Active";
                JsonNode session = reply.path("sessionConfig");
                System.out.println("Active: match " + session.path("sessionCookie").asText("(no GameServerData)")
                        + ", session " + session.path("sessionId").asText());
                end(play() ? "match over" : "told Terminate during the match");
                return;
            }
            Thread.sleep(reply.path("nextHeartbeatIntervalMs").asLong(1000));
        }
    }

    /** Players join one a second, stay for the match, leave one a second; false when told Terminate. */
    private boolean play() throws InterruptedException {
        int coming = 2 + random.nextInt(MOST_PLAYERS - 1);
        Instant leaving = null;
        while (true) {
            if (leaving == null && players.size() < coming) {
                players.add("player-" + (players.size() + 1));
                System.out.println(players.get(players.size() - 1) + " joined (" + players.size() + " playing)");
                if (players.size() == coming) {
                    leaving = Instant.now().plus(matchLength);
                }
            } else if (leaving != null && Instant.now().isAfter(leaving)) {
                String left = players.remove(players.size() - 1);
                System.out.println(left + " left (" + players.size() + " playing)");
                if (players.isEmpty()) {
                    return true;
                }
            }
            if (beat().path("operation").asText().equals("Terminate")) {
                return false;
            }
            Thread.sleep(1000);
        }
    }

    private void end(String why) {
        state = "Terminated";
        beat();
        System.out.println(why + ": exiting");
    }

    /** One heartbeat with the state and the players; an unreachable agent is retried at the next one (a GSDK's way). */
    private JsonNode beat() {
        ObjectNode body = JSON.createObjectNode().put("CurrentGameState", state).put("CurrentGameHealth", "Healthy");
        ArrayNode current = body.putArray("CurrentPlayers");
        players.forEach(p -> current.addObject().put("PlayerId", p));
        JsonNode reply = send(heartbeat, "PATCH", body);
        String maintenance = reply.path("nextScheduledMaintenanceUtc").asText("");
        if (!maintenance.isEmpty() && !maintenance.equals(lastMaintenance)) {
            System.out.println("maintenance scheduled at " + maintenance + ": this instance goes away then");
        }
        lastMaintenance = maintenance;
        return reply;
    }

    private static JsonNode send(URI to, String method, ObjectNode body) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(to).timeout(Duration.ofSeconds(2))
                    .header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body.toString())).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                System.out.println("the agent refused " + method + " " + to.getPath() + ": " + r.statusCode() + " " + r.body());
                return JSON.createObjectNode();
            }
            return JSON.readTree(r.body());
        } catch (IOException e) {
            System.out.println("the agent cannot be reached: " + e.getMessage());
            return JSON.createObjectNode();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return JSON.createObjectNode();
        }
    }
}

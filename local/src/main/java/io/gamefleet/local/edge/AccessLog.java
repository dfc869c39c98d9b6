package io.gamefleet.local.edge;

import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.function.Consumer;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.server.Response;

/**
 * One line per request, as API Gateway's access log has them: time, method, path, the operation
 * (the route's, or what else served it), status, milliseconds from the first byte, and the caller
 * (the signer's ARN; {@code -} when unsigned). A request an outage held and dropped has
 * {@code dropped} for its status ({@link Outage}). Which requests have a line is the {@link LogLevel}'s
 * choice: by default, all but the agents' background requests (their instance metadata reads and heartbeats).
 * <pre>10:00:01.234 POST /game-server-groups/arena/claim ClaimGameServer 200 12 ms arn:aws:sts::000000000000:assumed-role/...</pre>
 */
final class AccessLog implements RequestLog {
    static final String OPERATION = "gamefleet.operation";
    static final String CALLER = "gamefleet.caller";
    static final String DROPPED = "gamefleet.dropped";
    /** Set on a request whose body reports a game server's health and changes nothing else: a heartbeat. */
    static final String HEALTH_ONLY = "gamefleet.healthOnly";
    private static final String UPDATE_GAME_SERVER = "UpdateGameServer";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    private final Clock clock;
    private final Consumer<String> out;
    private final LogLevel level;

    AccessLog(Clock clock, Consumer<String> out, LogLevel level) {
        this.clock = clock;
        this.out = out;
        this.level = level;
    }

    @Override
    public void log(Request request, Response response) {
        boolean dropped = request.getAttribute(DROPPED) != null;
        String path = String.valueOf(request.getHttpURI().getPath());
        // A task's own endpoints are its agent's, as an instance's metadata is its agent's: as often read.
        boolean metadata = path.startsWith(InstanceMetadataService.PREFIX) || path.startsWith(TaskEndpointsService.PREFIX);
        // A metadata 404 is EC2's answer to an agent's poll while no notice is posted (spot/instance-action).
        boolean wrong = dropped || response.getStatus() >= 400 && !(metadata && response.getStatus() == 404);
        boolean shown = switch (level) {
            case ALL -> true;
            case REQUESTS -> wrong || !metadata && !heartbeat(request);
            case QUIET -> false;
            case ERRORS -> wrong;
        };
        if (!shown) {
            return;
        }
        long millis = (System.nanoTime() - request.getBeginNanoTime()) / 1_000_000;
        Object operation = request.getAttribute(OPERATION);
        Object caller = request.getAttribute(CALLER);
        out.accept(TIME.format(clock.instant()) + " " + request.getMethod() + " "
                + HttpEdge.printable(TaskEndpointsService.logged(InstanceMetadataService.logged(path))) + " "
                + (operation == null ? "-" : operation) + " "
                + (dropped ? "dropped" : String.valueOf(response.getStatus())) + " "
                + millis + " ms "
                + (caller == null ? "-" : caller));
    }

    /** A game server's heartbeat, which its agent sends every few seconds on its own. */
    private static boolean heartbeat(Request request) {
        return request.getAttribute(HEALTH_ONLY) != null && UPDATE_GAME_SERVER.equals(request.getAttribute(OPERATION));
    }

    /** Notes a request whose body is a heartbeat's, for the level that leaves heartbeats out. */
    static void noteHeartbeat(Exchange exchange) {
        if (healthOnly(exchange.body())) {
            exchange.note(HEALTH_ONLY, true);
        }
    }

    /**
     * Whether a body is a heartbeat's: a JSON object with {@code HealthCheck} and neither
     * {@code UtilizationStatus} nor {@code GameServerData} (what else UpdateGameServer changes).
     */
    private static boolean healthOnly(byte[] body) {
        if (body.length == 0 || body.length > 2048) {
            return false;
        }
        try {
            com.fasterxml.jackson.databind.JsonNode json = Exchange.JSON.readTree(body);
            return json != null && json.isObject() && json.has("HealthCheck") && !json.has("UtilizationStatus")
                    && !json.has("GameServerData");
        } catch (java.io.IOException e) {
            return false;
        }
    }
}

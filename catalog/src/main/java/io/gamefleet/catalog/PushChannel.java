package io.gamefleet.catalog;

import java.util.List;
import java.util.Set;

/**
 * The agents' push channel (docs/architecture.md, "The push channel"): a WebSocket API per stage,
 * its routes and their functions, where the connection is recorded, and the notices it carries.
 * The CDK app and the local edge build it from here.
 */
public final class PushChannel {
    private static final String PACKAGE = "io.gamefleet.push.";

    /** A WebSocket route (API Gateway's route key) and the function behind it. */
    public record WebSocketRoute(String routeKey, String name, String handlerClass) {
        public String functionName() {
            return Catalog.FUNCTION_PREFIX + name;
        }

        public String handlerMethod() {
            return handlerClass + "::handleRequest";
        }
    }

    /** Admits an agent (a GAME_SERVER session of that instance, or ADMIN) and records its connection. */
    public static final WebSocketRoute CONNECT = new WebSocketRoute("$connect", "PushConnect", PACKAGE + "ConnectHandler");
    /** Clears the connection from its instance, if it is still that instance's. */
    public static final WebSocketRoute DISCONNECT =
            new WebSocketRoute("$disconnect", "PushDisconnect", PACKAGE + "DisconnectHandler");
    /** The agent's messages: a ping is answered with a pong (the route's response); a health report with nothing. */
    public static final WebSocketRoute MESSAGE = new WebSocketRoute("$default", "PushMessage", PACKAGE + "MessageHandler");

    public static final List<WebSocketRoute> ROUTES = List.of(CONNECT, DISCONNECT, MESSAGE);

    /**
     * The caller roles that may open a connection (execute-api:Invoke on {@code $connect}): an
     * instance's agent, and an administrator; {@code $connect}'s function binds a GAME_SERVER
     * session to its own instance.
     */
    public static final Set<Role> CONNECTING_ROLES = Set.of(Role.GAME_SERVER, Role.ADMIN);

    /** The query parameters of the connect request. */
    public static final String INSTANCE_ID_PARAMETER = "instanceId";
    public static final String GROUP_NAME_PARAMETER = "gameServerGroupName";

    /** The local edge's WebSocket path (in AWS, the API's stage URL). */
    public static final String LOCAL_PATH = "/push";
    /** The management API's resource a notice is posted to: {@code POST /@connections/<connectionId>}. */
    public static final String CONNECTIONS_PATH = "/@connections/";
    /** The service SigV4 signs the connect and PostToConnection for. */
    public static final String SIGNING_SERVICE = "execute-api";

    /**
     * The connection id on the instance's item (the authority), and its copy on each of the
     * instance's game server items, so that a claim's own write returns it and the notice needs no read.
     */
    public static final String CONNECTION_ATTRIBUTE = "PushConnectionId";
    /**
     * When the instance's connection was made (epoch ms), written with it: one older than API
     * Gateway's connection lifetime is gone, whether or not its {@code $disconnect} came.
     */
    public static final String CONNECTED_AT_ATTRIBUTE = "PushConnectedAt";

    /**
     * On a game server item whose agent reports its health over the channel: the end of its health
     * lease (epoch ms), until which it is healthy whatever its LastHealthCheckTime.
     */
    public static final String HEALTH_LEASE_ATTRIBUTE = "HealthLeaseExpiresAt";

    /** Notices, server to agent ({@code action}), and the agent's messages. */
    public static final String CLAIMED = "claimed";
    public static final String TERMINATE = "terminate";
    public static final String PING = "ping";
    public static final String PONG = "pong";
    /**
     * The agent's ping period (its {@code pushPingSeconds}' default): a pong is expected within two,
     * so a half-open connection is found within a minute; it also keeps API Gateway's 10-minute idle
     * timeout away. The stage's message throttle counts them ({@code Throttles.pushMessages}).
     */
    public static final int PING_SECONDS = 30;
    /**
     * The agent's health report, one per health period for all its instance's servers:
     * {@code {"action":"health","gameServerGroupName":g,"gameServers":[{"gameServerId":s,"healthCheck":"HEALTHY"|"UNHEALTHY"}]}}.
     * No answer when it is taken; a JSON error when it is refused.
     */
    public static final String HEALTH = "health";
    public static final String HEALTH_SERVERS = "gameServers";
    public static final String HEALTHY = "HEALTHY";
    public static final String UNHEALTHY = "UNHEALTHY";

    /**
     * Optional, per entry of a health report's {@link #HEALTH_SERVERS}: the process's state
     * {@code {"state","connectedPlayers","playerIds","crashes","startTimeouts","lastExitCode"}}
     * (absent from older agents; {@code state} absent before the process's first heartbeat,
     * {@code lastExitCode} when the slot's previous process has none).
     */
    public static final String HEALTH_PROCESS = "process";
    /** The PlayFab state the process last reported: Initializing, StandingBy, Active, Terminating, Terminated. */
    public static final String PROCESS_STATE = "state";
    /** The count of the GSDK heartbeat's {@code CurrentPlayers}: true even when {@link #PROCESS_PLAYER_IDS} is cut. */
    public static final String PROCESS_CONNECTED_PLAYERS = "connectedPlayers";
    /** Their {@code PlayerId}s, at most {@link #PROCESS_MAX_PLAYER_IDS}, each at most {@link #PROCESS_MAX_PLAYER_ID_LENGTH} characters. */
    public static final String PROCESS_PLAYER_IDS = "playerIds";
    public static final int PROCESS_MAX_PLAYER_IDS = 100;
    public static final int PROCESS_MAX_PLAYER_ID_LENGTH = 128;
    /** The process slot's crashes and start timeouts since the agent started. */
    public static final String PROCESS_CRASHES = "crashes";
    public static final String PROCESS_START_TIMEOUTS = "startTimeouts";
    /** The exit code of the slot's previous process, when it has one. */
    public static final String PROCESS_LAST_EXIT_CODE = "lastExitCode";
    /**
     * Optional, at the top of a health report: {@code {"crashes","startTimeouts"}} on the instance
     * since the previous report that was taken (kept by the agent until one is).
     */
    public static final String HEALTH_PROCESS_EVENTS = "processEvents";

    /**
     * Server to agent, at each balancer run while the instance is retiring and until it ends:
     * {@code {"action":"retiring","gameServerGroupName":g,"instanceId":i,"retiresAt":ISO-8601,"reason":"MAX_INSTANCE_LIFETIME"}}.
     * {@code retiresAt} is the instance's end; a repeat is a no-op to the agent.
     */
    public static final String RETIRING = "retiring";
    public static final String RETIRING_INSTANCE_ID = "instanceId";
    public static final String RETIRES_AT = "retiresAt";
    public static final String RETIRING_REASON = "reason";
    /** The retiring reason: the instance reaches the stage's maximum instance lifetime. */
    public static final String MAX_INSTANCE_LIFETIME = "MAX_INSTANCE_LIFETIME";

    private PushChannel() {}
}

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
    /**
     * The UDP port the agent's QoS beacon bound (docs/agent.md, "The QoS beacon"), 1 to 65535;
     * absent when the agent runs none. Recorded with the connection ({@link #QOS_PORT_ATTRIBUTE}),
     * listed by {@link Routes#LIST_QOS_SERVERS}.
     */
    public static final String QOS_PORT_PARAMETER = "qosPort";

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
     * The instance's QoS beacon port, as its connect gave it: written and cleared with the
     * connection, so an instance is listed while its agent (and so its beacon) is connected.
     */
    public static final String QOS_PORT_ATTRIBUTE = "QosPort";

    /**
     * On a game server item whose agent reports its health over the channel: the end of its health
     * lease (epoch ms), until which it is healthy whatever its LastHealthCheckTime.
     */
    public static final String HEALTH_LEASE_ATTRIBUTE = "HealthLeaseExpiresAt";

    /** Notices, server to agent ({@code action}), and the agent's messages. */
    public static final String CLAIMED = "claimed";
    /**
     * A claimed notice's member when the claim is a session's ({@link Routes#CREATE_SESSION}; a
     * ClaimGameServer's notice has none): {@code {"sessionId", "sessionCookie" (absent: none),
     * "initialPlayers"}}, what the agent hands the GSDK as its sessionConfig.
     */
    public static final String SESSION = "session";
    public static final String SESSION_ID = "sessionId";
    public static final String SESSION_COOKIE = "sessionCookie";
    public static final String INITIAL_PLAYERS = "initialPlayers";
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
     * A server's optional process state in a health report ({@code gameServers[].process}):
     * {@code {"state":s,"connectedPlayers":n,"playerIds":[...],"crashes":n,"startTimeouts":n,"lastExitCode":n,"ports":{name:port}}};
     * absent from older agents' reports. Refused (400, nothing written) past these bounds.
     */
    public static final String HEALTH_PROCESS = "process";
    /** The PlayFab state the process last reported; absent before its first heartbeat. */
    public static final String PROCESS_STATE = "state";
    /** The count of the GSDK's CurrentPlayers, which may exceed the ids listed. */
    public static final String PROCESS_CONNECTED_PLAYERS = "connectedPlayers";
    /** Their PlayerIds, at most {@link #PROCESS_MAX_PLAYER_IDS} of at most {@link #PROCESS_MAX_PLAYER_ID_LENGTH} characters each. */
    public static final String PROCESS_PLAYER_IDS = "playerIds";
    /** The process slot's crashes since the agent started. */
    public static final String PROCESS_CRASHES = "crashes";
    /** The process slot's start timeouts since the agent started. */
    public static final String PROCESS_START_TIMEOUTS = "startTimeouts";
    /** The exit code of the slot's previous process; absent when it had none. */
    public static final String PROCESS_LAST_EXIT_CODE = "lastExitCode";
    /** PlayFab's server states, as the GSDK reports them. */
    public static final List<String> PROCESS_STATES = List.of("Initializing", "StandingBy", "Active", "Terminating",
            "Terminated");
    public static final int PROCESS_MAX_PLAYER_IDS = 100;
    public static final int PROCESS_MAX_PLAYER_ID_LENGTH = 128;
    /**
     * The process's named ports (the agent config's {@code ports}, one port of each range per
     * slot): at most {@link #PROCESS_MAX_PORTS} names of {@link #PORT_NAME}, each a port from 1 to
     * 65535. CreateSession and DescribeSession answer them as the session's {@code Ports}.
     */
    public static final String PROCESS_PORTS = "ports";
    public static final int PROCESS_MAX_PORTS = 8;
    /**
     * A port's name, in the agent config as in a report: what its {@code {port:NAME}} placeholder
     * takes, and short enough that eight keep the server's item, which every claim writes, within
     * one write unit ({@code WriteUnitsTest}).
     */
    public static final String PORT_NAME = "[A-Za-z0-9_.-]{1,32}";
    /**
     * A report's optional crashes and start timeouts on the instance since its previous report that
     * was taken ({@code {"crashes":n,"startTimeouts":n}}, the names above), each at most
     * {@link #MAX_PROCESS_EVENTS}: published as the group's metrics.
     */
    public static final String HEALTH_PROCESS_EVENTS = "processEvents";
    public static final int MAX_PROCESS_EVENTS = 100_000;

    /**
     * The balancer's notice to an instance whose maximum lifetime ends soon, at each of its runs
     * from the end minus the guaranteed server lifetime until the end:
     * {@code {"action":"retiring","gameServerGroupName":g,"instanceId":i,"retiresAt":ISO-8601,"reason":r}}.
     */
    public static final String RETIRING = "retiring";
    public static final String INSTANCE_ID = "instanceId";
    /** When the instance ends (ISO-8601, UTC). */
    public static final String RETIRES_AT = "retiresAt";
    /** Why a notice came: the retiring notice's {@link #MAX_INSTANCE_LIFETIME}, a terminate notice's operator. */
    public static final String REASON = "reason";
    public static final String MAX_INSTANCE_LIFETIME = "MAX_INSTANCE_LIFETIME";

    private PushChannel() {}
}

package io.gamefleet.catalog;

import static io.gamefleet.catalog.Role.ADMIN;
import static io.gamefleet.catalog.Role.GAME_SERVER;
import static io.gamefleet.catalog.Role.MATCHMAKER;

import java.util.List;
import java.util.Set;

/** The REST route table (docs/api.md): read by the CDK app (HTTP API routes) and by the local edge server. */
public final class Routes {
    private static final String GROUPS = "/game-server-groups";
    private static final String GROUP = GROUPS + "/{GameServerGroupName}";
    private static final String SERVERS = GROUP + "/game-servers";
    private static final String SERVER = SERVERS + "/{GameServerId}";
    private static final String SESSIONS = GROUP + "/sessions";
    private static final String CLAIM_STRATEGY = GROUP + "/claim-strategy";
    private static final Set<String> NONE = Set.of();

    public static final List<Route> ALL = List.of(
            route(Operation.CREATE_GAME_SERVER_GROUP, "POST", GROUPS, NONE, ADMIN),
            route(Operation.LIST_GAME_SERVER_GROUPS, "GET", GROUPS, Set.of("Limit", "NextToken"), ADMIN, MATCHMAKER),
            route(Operation.DESCRIBE_GAME_SERVER_GROUP, "GET", GROUP, NONE, ADMIN, MATCHMAKER),
            route(Operation.UPDATE_GAME_SERVER_GROUP, "PATCH", GROUP, NONE, ADMIN),
            route(Operation.DELETE_GAME_SERVER_GROUP, "DELETE", GROUP, Set.of("DeleteOption"), ADMIN),
            route(Operation.SUSPEND_GAME_SERVER_GROUP, "POST", GROUP + "/suspend", NONE, ADMIN),
            route(Operation.RESUME_GAME_SERVER_GROUP, "POST", GROUP + "/resume", NONE, ADMIN),
            route(Operation.DESCRIBE_GAME_SERVER_INSTANCES, "GET", GROUP + "/instances", Set.of("InstanceIds", "Limit", "NextToken"),
                    ADMIN, MATCHMAKER),
            route(Operation.REGISTER_GAME_SERVER, "POST", SERVERS, NONE, ADMIN, GAME_SERVER),
            route(Operation.LIST_GAME_SERVERS, "GET", SERVERS, Set.of("SortOrder", "Limit", "NextToken"), ADMIN, MATCHMAKER),
            route(Operation.DESCRIBE_GAME_SERVER, "GET", SERVER, NONE, ADMIN, MATCHMAKER, GAME_SERVER),
            route(Operation.UPDATE_GAME_SERVER, "PATCH", SERVER, NONE, ADMIN, GAME_SERVER),
            route(Operation.DEREGISTER_GAME_SERVER, "DELETE", SERVER, NONE, ADMIN, GAME_SERVER),
            route(Operation.CLAIM_GAME_SERVER, "POST", GROUP + "/claim", NONE, ADMIN, MATCHMAKER));

    /**
     * A game server's process as its agent last reported it (its PlayFab state, players, crashes):
     * an ADMIN's view of what the fleet's processes do, which FleetIQ has no operation for.
     */
    public static final ExtensionRoute DESCRIBE_GAME_SERVER_PROCESS =
            new ExtensionRoute("DescribeGameServerProcess", "GET", SERVER + "/process", Set.of(ADMIN));

    /**
     * A session (PlayFab's RequestMultiplayerServer): a matchmaker's claim of a server that it may
     * retry with its SessionId and get the same server, with the cookie and initial players the
     * server's agent hands the game ({@link SessionLimits}).
     */
    public static final ExtensionRoute CREATE_SESSION =
            new ExtensionRoute("CreateSession", "POST", SESSIONS, Set.of(ADMIN, MATCHMAKER));

    /** A session's state, server and players. Its {@code SessionId} is held to {@link SessionLimits#SESSION_ID}. */
    public static final ExtensionRoute DESCRIBE_SESSION =
            new ExtensionRoute("DescribeSession", "GET", SESSIONS + "/{SessionId}", Set.of(ADMIN, MATCHMAKER));

    /**
     * A game server's own server's session (its id, cookie and initial players) while the server's
     * claim is the session's: what the claimed notice hands the game, read by the server's agent
     * when that notice was lost. The process on the server's own instance, or an ADMIN, reads it.
     */
    public static final ExtensionRoute DESCRIBE_GAME_SERVER_SESSION =
            new ExtensionRoute("DescribeGameServerSession", "GET", SERVER + "/session", Set.of(ADMIN, GAME_SERVER));

    /**
     * A group's standby buffer (PlayFab's standby servers, Agones' buffer): the StandingBy servers
     * the balancer keeps ready beside those in use, with dynamic tiers and a schedule.
     */
    public static final ExtensionRoute PUT_STANDBY_POLICY =
            new ExtensionRoute("PutStandbyPolicy", "PUT", GROUP + "/standby", Set.of(ADMIN));

    /** A group's standby buffer and its last evaluation. */
    public static final ExtensionRoute DESCRIBE_STANDBY_POLICY =
            new ExtensionRoute("DescribeStandbyPolicy", "GET", GROUP + "/standby", Set.of(ADMIN, MATCHMAKER));

    /**
     * The order in which the group's claims take its servers (FleetIQ's, packed onto the fullest
     * instances, or spread over them), kept on the group: {@code {"ClaimStrategy": ...}}.
     */
    public static final ExtensionRoute PUT_CLAIM_STRATEGY =
            new ExtensionRoute("PutClaimStrategy", "PUT", CLAIM_STRATEGY, Set.of(ADMIN));

    /** The group's claim strategy, FLEETIQ unless one was put. */
    public static final ExtensionRoute DESCRIBE_CLAIM_STRATEGY =
            new ExtensionRoute("DescribeClaimStrategy", "GET", CLAIM_STRATEGY, Set.of(ADMIN, MATCHMAKER));

    /**
     * A group's sessions, newest first, each as DescribeSession answers it: pages of {@code Limit}
     * (1 to 100) with {@code NextToken}, as the operations' listings.
     */
    public static final ExtensionRoute LIST_SESSIONS =
            new ExtensionRoute("ListSessions", "GET", SESSIONS, Set.of(ADMIN, MATCHMAKER), Set.of("Limit", "NextToken"));

    /**
     * Addresses to ping for latency (PlayFab's ListQosServersForTitle): per region, a few ACTIVE
     * instances whose agent is connected with a QoS beacon ({@link PushChannel#QOS_PORT_PARAMETER}),
     * chosen at random per request, {@code {"QosServers": [{"Region", "ServerUrl", "Port"}]}}: this
     * stage's, and each peer's as the peer answers it within the peer budget ({@code Region}: only
     * that region's, which is what a stage asks its peers).
     */
    public static final ExtensionRoute LIST_QOS_SERVERS =
            new ExtensionRoute("ListQosServers", "GET", "/qos-servers", Set.of(ADMIN, MATCHMAKER, GAME_SERVER),
                    Set.of("Region"));

    /**
     * The regions a session may be placed in: this stage's (first, {@code "Home": true}) and its
     * peers' ({@link Settings#PEERS}) with their API URLs, {@code {"Regions": [{"Region", "ApiUrl"?,
     * "Home"?}]}}: what a console or a client that measures latency reads first.
     */
    public static final ExtensionRoute LIST_REGIONS =
            new ExtensionRoute("ListRegions", "GET", "/regions", Set.of(ADMIN, MATCHMAKER, GAME_SERVER));

    /**
     * A group as DescribeGameServerGroup answers it and its counts as the balancer's last run
     * counted them, with that run's time, {@code {"GameServerGroup", "Summary"?: {"AsOf",
     * "GameServers", "Available", "Utilized", "Claimed", "Claimable", "OnSpotTerminating",
     * "PercentUtilized", ...}}}: what a console shows of a group without listing its servers.
     */
    public static final ExtensionRoute DESCRIBE_GROUP_SUMMARY =
            new ExtensionRoute("DescribeGameServerGroupSummary", "GET", GROUP + "/summary", Set.of(ADMIN, MATCHMAKER));

    /**
     * A group's counts over the last hour, as the balancer's runs gave the metrics (CloudWatch's
     * {@link Catalog#METRICS_NAMESPACE} in AWS, the profile's series locally), oldest first,
     * {@code {"Period", "GameServers": [{"Time", "Available", "Utilized", "PercentUtilized"}]}}:
     * what a console's charts start from.
     */
    public static final ExtensionRoute DESCRIBE_GROUP_METRICS =
            new ExtensionRoute("DescribeGameServerGroupMetrics", "GET", GROUP + "/metrics", Set.of(ADMIN, MATCHMAKER));

    /**
     * A container group (issue 32): a game server group whose compute is an ECS service of the
     * stack's cluster running the studio's task definition with the Gamefleet agent as a sidecar,
     * answered as CreateGameServerGroup is ({@code {"GameServerGroup": ...}}, no InstanceDefinitions);
     * every FleetIQ operation then takes it by name, a task being an instance.
     */
    public static final ExtensionRoute CREATE_CONTAINER_GROUP =
            new ExtensionRoute("CreateContainerGroup", "POST", "/container-groups", Set.of(ADMIN));

    /** Gamefleet's own routes, beside the operations'. */
    public static final List<ExtensionRoute> EXTENSIONS = List.of(DESCRIBE_GAME_SERVER_PROCESS, CREATE_SESSION,
            DESCRIBE_SESSION, DESCRIBE_GAME_SERVER_SESSION,
            PUT_STANDBY_POLICY, DESCRIBE_STANDBY_POLICY,
            PUT_CLAIM_STRATEGY, DESCRIBE_CLAIM_STRATEGY,
            LIST_SESSIONS, LIST_QOS_SERVERS, LIST_REGIONS, DESCRIBE_GROUP_SUMMARY,
            DESCRIBE_GROUP_METRICS, CREATE_CONTAINER_GROUP);

    /** AWS JSON 1.1, where boto3, the AWS CLI and the JavaScript SDK send every operation. */
    public static final JsonDoor JSON_DOOR =
            new JsonDoor("GameLiftJson", "POST", "/", "io.gamefleet.functions.GameLiftJsonHandler");

    private Routes() {}

    private static Route route(Operation operation, String method, String path, Set<String> query, Role... roles) {
        return new Route(operation, method, path, query, Set.of(roles));
    }

    public static Route of(Operation operation) {
        return ALL.stream().filter(r -> r.operation() == operation).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no route for " + operation));
    }
}

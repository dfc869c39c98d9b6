package io.gamefleet.catalog;

import java.util.EnumMap;
import java.util.Map;

/**
 * The stage's throttles, sized from the fleet a deployer describes ({@link Settings#EXPECTED_GAME_SERVERS},
 * {@link Settings#HEARTBEAT_SECONDS}, {@link Settings#CLAIMS_PER_SECOND}): API Gateway's per route
 * (the CDK app sets them on the stages), the local edge's (it applies the same), and each instance's
 * fair share of them (the functions hold it, {@link #instanceRegistrations()}, {@link #instanceMessages()}).
 * The game server operations are sized from that fleet; the administrative ones keep FleetIQ's
 * published quotas, which no fleet size changes.
 *
 * <p>Every game server heartbeats (UpdateGameServer) once per period, and a claimed server is
 * updated twice more (players in, data); a match also means a registration and a deregistration,
 * about one of each per claim. Rates get 20% headroom; bursts are twice the rate, as FleetIQ's are.
 * The push channel's WebSocket stage is sized from the same fleet ({@link #pushConnects()},
 * {@link #pushMessages()}).
 */
public record Throttles(int expectedGameServers, int heartbeatSeconds, int claimsPerSecond,
        int maxGameServersPerInstance) {
    static final double HEADROOM = 1.2;
    /** The agent's longest reconnect backoff's step (agent PushConnection.RECONNECT_MAX). */
    static final double RECONNECT_SPREAD_SECONDS = 60;
    /**
     * How many times its even part of a route one instance may take: claims pack games onto a
     * fleet's oldest instances, which therefore register (and so report) more often than the
     * average one; a quarter of the instances at their share would still take the whole route.
     */
    public static final double FAIR_SHARE_FACTOR = 4;
    /** An instance's burst of push messages is at least this: a reconnect's report and a ping or two. */
    static final int MIN_MESSAGE_BURST = 4;

    public Throttles {
        if (expectedGameServers < 1 || heartbeatSeconds < 1 || claimsPerSecond < 0 || maxGameServersPerInstance < 1) {
            throw new IllegalArgumentException("the throttles need at least 1 expected game server, a heartbeat of at"
                    + " least 1 s, no negative claim rate and at least 1 game server per instance");
        }
    }

    /** The stage's throttles as its settings size them: each setting's value, or its default. */
    public static Throttles of(java.util.function.Function<Settings.Setting, String> settings) {
        return new Throttles(whole(settings, Settings.EXPECTED_GAME_SERVERS), whole(settings, Settings.HEARTBEAT_SECONDS),
                whole(settings, Settings.CLAIMS_PER_SECOND), whole(settings, Settings.MAX_GAME_SERVERS_PER_INSTANCE));
    }

    private static int whole(java.util.function.Function<Settings.Setting, String> settings, Settings.Setting setting) {
        String value = settings.apply(setting);
        try {
            return Integer.parseInt(value == null || value.isBlank() ? setting.defaultValue() : value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(setting.environmentVariable() + " must be a whole number, not " + value, e);
        }
    }

    /** Steady requests per second and burst, as API Gateway takes them (a token bucket). */
    public record Limit(double rate, int burst) {
        public static Limit of(double rate) {
            return new Limit(rate, (int) Math.ceil(2 * rate));
        }
    }

    /** Per operation, for its REST route and its CBOR path alike. */
    public Map<Operation, Limit> perOperation() {
        Map<Operation, Limit> limits = new EnumMap<>(Operation.class);
        double heartbeats = (double) expectedGameServers / heartbeatSeconds;
        double claims = Math.max(claimsPerSecond, 1);
        limits.put(Operation.UPDATE_GAME_SERVER, Limit.of(Math.ceil(HEADROOM * (heartbeats + 2 * claims))));
        limits.put(Operation.CLAIM_GAME_SERVER, Limit.of(Math.ceil(HEADROOM * claims)));
        limits.put(Operation.REGISTER_GAME_SERVER, Limit.of(Math.ceil(HEADROOM * Math.max(claims, 20))));
        limits.put(Operation.DEREGISTER_GAME_SERVER, Limit.of(Math.ceil(HEADROOM * Math.max(claims, 20))));
        limits.put(Operation.DESCRIBE_GAME_SERVER, Limit.of(Math.ceil(HEADROOM * Math.max(claims, 20))));
        // FleetIQ's quotas (requests per second, burst).
        limits.put(Operation.DESCRIBE_GAME_SERVER_GROUP, new Limit(30, 30));
        limits.put(Operation.DESCRIBE_GAME_SERVER_INSTANCES, new Limit(30, 30));
        limits.put(Operation.LIST_GAME_SERVER_GROUPS, new Limit(30, 30));
        limits.put(Operation.LIST_GAME_SERVERS, new Limit(30, 30));
        limits.put(Operation.UPDATE_GAME_SERVER_GROUP, new Limit(20, 20));
        limits.put(Operation.SUSPEND_GAME_SERVER_GROUP, new Limit(0.1, 1));
        limits.put(Operation.RESUME_GAME_SERVER_GROUP, new Limit(0.1, 1));
        limits.put(Operation.CREATE_GAME_SERVER_GROUP, new Limit(0.1, 5));
        limits.put(Operation.DELETE_GAME_SERVER_GROUP, new Limit(0.1, 5));
        return limits;
    }

    /**
     * Gamefleet's own routes: the reads at FleetIQ's quota for its Describe operations; a session,
     * a claim, at ClaimGameServer's; a group's setting (its standby policy, its claim strategy) at
     * UpdateGameServerGroup's; a container group's creation at CreateGameServerGroup's.
     */
    public Map<ExtensionRoute, Limit> perExtension() {
        return Map.ofEntries(Map.entry(Routes.DESCRIBE_GAME_SERVER_PROCESS, new Limit(30, 30)),
                Map.entry(Routes.CREATE_SESSION, perOperation().get(Operation.CLAIM_GAME_SERVER)),
                Map.entry(Routes.DESCRIBE_SESSION, new Limit(30, 30)),
                Map.entry(Routes.DESCRIBE_GAME_SERVER_SESSION, new Limit(30, 30)),
                Map.entry(Routes.PUT_STANDBY_POLICY, perOperation().get(Operation.UPDATE_GAME_SERVER_GROUP)),
                Map.entry(Routes.DESCRIBE_STANDBY_POLICY, new Limit(30, 30)),
                Map.entry(Routes.PUT_CLAIM_STRATEGY, perOperation().get(Operation.UPDATE_GAME_SERVER_GROUP)),
                Map.entry(Routes.DESCRIBE_CLAIM_STRATEGY, new Limit(30, 30)),
                Map.entry(Routes.LIST_SESSIONS, new Limit(30, 30)),
                Map.entry(Routes.LIST_QOS_SERVERS, new Limit(30, 30)),
                Map.entry(Routes.LIST_REGIONS, new Limit(30, 30)),
                // A console's read every 2 s per open group view: one GetItem each, far below this.
                Map.entry(Routes.DESCRIBE_GROUP_SUMMARY, new Limit(30, 30)),
                // Once per group view opened: each call is a GetMetricData of three metrics.
                Map.entry(Routes.DESCRIBE_GROUP_METRICS, new Limit(10, 10)),
                Map.entry(Routes.CREATE_CONTAINER_GROUP, perOperation().get(Operation.CREATE_GAME_SERVER_GROUP)));
    }

    /**
     * The push channel's {@code $connect}: every agent reconnects at least every 2 hours (API
     * Gateway's connection lifetime), and after the API drops them all, within the agent's longest
     * reconnect backoff ({@link #RECONNECT_SPREAD_SECONDS}). Sized as if every game server had its
     * own agent, the most a fleet of that size can open.
     */
    public Limit pushConnects() {
        return Limit.of(Math.ceil(HEADROOM * Math.max(expectedGameServers / RECONNECT_SPREAD_SECONDS, 1)));
    }

    /**
     * The push channel's messages ({@code $default}): the agents' health reports, one per
     * instance per health period, and their pings (every {@link PushChannel#PING_SECONDS}). Sized
     * as {@link #pushConnects()} is, as if every game server had its own agent. A report refused
     * here sends its agent back to UpdateGameServer, which costs more than the throttle saves.
     */
    public Limit pushMessages() {
        double reports = (double) expectedGameServers / heartbeatSeconds;
        return Limit.of(Math.ceil(HEADROOM * Math.max(reports + expectedGameServers / PushChannel.PING_SECONDS, 1)));
    }

    /** The push channel's stage (its other routes, {@code $disconnect}): both routes together. */
    public Limit pushStage() {
        return new Limit(pushConnects().rate() + pushMessages().rate(), pushConnects().burst() + pushMessages().burst());
    }

    /** The JSON door carries every operation, so it takes them all together. */
    public Limit jsonDoor() {
        double rate = perOperation().values().stream().mapToDouble(Limit::rate).sum();
        return new Limit(rate, perOperation().values().stream().mapToInt(Limit::burst).sum());
    }

    /**
     * Every route of the HTTP API with its limits, keyed as API Gateway keys its route settings
     * ({@code <method> <path>}): each operation's REST route and its CBOR path, Gamefleet's own
     * routes, and the JSON door.
     */
    public Map<String, Limit> httpRoutes() {
        Map<String, Limit> routes = new java.util.LinkedHashMap<>();
        perOperation().forEach((operation, limit) -> {
            Route route = Routes.of(operation);
            routes.put(route.method() + " " + route.path(), limit);
            routes.put("POST " + operation.cborPath(), limit);
        });
        perExtension().forEach((extension, limit) -> routes.put(extension.routeKey(), limit));
        routes.put(Routes.JSON_DOOR.method() + " " + Routes.JSON_DOOR.path(), jsonDoor());
        return routes;
    }

    /** The push channel's routes with limits of their own, by route key; the others take {@link #pushStage()}. */
    public Map<String, Limit> pushRoutes() {
        return Map.of(PushChannel.CONNECT.routeKey(), pushConnects(), PushChannel.MESSAGE.routeKey(), pushMessages());
    }

    /** The instances the stage is sized for: its game servers, each instance holding the most it may. */
    public int sizedInstances() {
        return Math.max(1, (expectedGameServers + maxGameServersPerInstance - 1) / maxGameServersPerInstance);
    }

    /**
     * One instance's fair share of RegisterGameServer (its route's limits, {@link #instanceShare});
     * its burst is at least {@link #maxGameServersPerInstance}, an agent registering all of its
     * processes at once.
     */
    public Limit instanceRegistrations() {
        return instanceShare(perOperation().get(Operation.REGISTER_GAME_SERVER), maxGameServersPerInstance);
    }

    /** One instance's fair share of the push channel's messages ({@link #pushMessages()}). */
    public Limit instanceMessages() {
        return instanceShare(pushMessages(), MIN_MESSAGE_BURST);
    }

    /** {@link #FAIR_SHARE_FACTOR} times the route's rate and burst divided among {@link #sizedInstances()}. */
    private Limit instanceShare(Limit route, int minimumBurst) {
        double instances = sizedInstances();
        return new Limit(FAIR_SHARE_FACTOR * route.rate() / instances,
                Math.max(minimumBurst, (int) Math.ceil(FAIR_SHARE_FACTOR * route.burst() / instances)));
    }
}

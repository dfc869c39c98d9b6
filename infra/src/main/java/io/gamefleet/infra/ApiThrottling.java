package io.gamefleet.infra;

import io.gamefleet.catalog.Operation;
import java.util.EnumMap;
import java.util.Map;

/**
 * API Gateway's per-route throttles, sized from the fleet a deployer describes: how many game
 * servers, how often each reports health, how many claims per second. The game server operations
 * are sized from that fleet; the administrative ones keep FleetIQ's published quotas, which no
 * fleet size changes.
 *
 * <p>Every game server heartbeats (UpdateGameServer) once per period, and a claimed server is
 * updated twice more (players in, data); a match also means a registration and a deregistration,
 * about one of each per claim. Rates get 20% headroom; bursts are twice the rate, as FleetIQ's are.
 * The push channel's WebSocket stage is sized from the same fleet ({@link #pushConnects()},
 * {@link #pushMessages()}).
 */
record ApiThrottling(int expectedGameServers, int heartbeatSeconds, int claimsPerSecond) {
    static final double HEADROOM = 1.2;
    /** The agent's longest reconnect backoff (agent PushChannel.RECONNECT_MAX). */
    static final double RECONNECT_SPREAD_SECONDS = 60;
    /** The agent's ping period (API Gateway drops a connection idle for 10 minutes). */
    static final double PING_SECONDS = 300;

    /** Steady requests per second and burst, as API Gateway takes them. */
    record Limit(double rate, int burst) {
        static Limit of(double rate) {
            return new Limit(rate, (int) Math.ceil(2 * rate));
        }
    }

    /** Per operation, for its REST route and its CBOR path alike. */
    Map<Operation, Limit> perOperation() {
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
     * The push channel's {@code $connect}: every agent reconnects at least every 2 hours (API
     * Gateway's connection lifetime), and after the API drops them all, within the agent's longest
     * reconnect backoff ({@link #RECONNECT_SPREAD_SECONDS}). Sized as if every game server had its
     * own agent, the most a fleet of that size can open.
     */
    Limit pushConnects() {
        return Limit.of(Math.ceil(HEADROOM * Math.max(expectedGameServers / RECONNECT_SPREAD_SECONDS, 1)));
    }

    /**
     * The push channel's messages ({@code $default}): the agents' health reports, one per
     * instance per health period, and their pings (every {@link #PING_SECONDS} of silence). Sized
     * as {@link #pushConnects()} is, as if every game server had its own agent. A report refused
     * here sends its agent back to UpdateGameServer, which costs more than the throttle saves.
     */
    Limit pushMessages() {
        double reports = (double) expectedGameServers / heartbeatSeconds;
        return Limit.of(Math.ceil(HEADROOM * Math.max(reports + expectedGameServers / PING_SECONDS, 1)));
    }

    /** The push channel's stage (its other routes, {@code $disconnect}): both routes together. */
    Limit pushStage() {
        return new Limit(pushConnects().rate() + pushMessages().rate(), pushConnects().burst() + pushMessages().burst());
    }

    /** The JSON door carries every operation, so it takes them all together. */
    Limit jsonDoor() {
        double rate = perOperation().values().stream().mapToDouble(Limit::rate).sum();
        return new Limit(rate, perOperation().values().stream().mapToInt(Limit::burst).sum());
    }
}

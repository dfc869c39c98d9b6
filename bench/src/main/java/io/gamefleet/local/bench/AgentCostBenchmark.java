package io.gamefleet.local.bench;

import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.GameServerService;
import io.gamefleet.domain.GameServerService.Claim;
import io.gamefleet.domain.GameServerService.Registration;
import io.gamefleet.domain.GameServerService.Update;
import io.gamefleet.domain.HealthReports;
import io.gamefleet.domain.ProcessEvents;
import io.gamefleet.domain.UtilizationStatus;
import io.gamefleet.domain.fakes.MutableClock;
import io.gamefleet.local.LocalProfile;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a game-server-hour costs with the agent and without, on the real domain and DynamoDB
 * adapters against the emulator, on a clock the benchmark moves (so a simulated hour takes minutes): N
 * instances of 4 game servers, health every 30 s, games of 10 minutes back to back (each a
 * ClaimGameServer, UpdateGameServer UTILIZED, DeregisterGameServer and the next process's
 * RegisterGameServer). Either every server heartbeats through the API (UpdateGameServer HEALTHY), or
 * each instance's agent sends one health report over its push connection ({@link HealthReports}).
 * It counts API requests and WebSocket messages, and the DynamoDB write and read units from the
 * ConsumedCapacity of every call ({@link Benchmarks.DynamoDbCalls}), and prices them as
 * docs/capacity.md does. Run from the repository's top folder:
 * {@code AgentCostBenchmark [instances, default 50] [hours, 1]}.
 */
public final class AgentCostBenchmark {
    private static final int PER_INSTANCE = 4;
    private static final Duration PERIOD = Duration.ofSeconds(30);
    private static final Duration GAME = Duration.ofMinutes(10);
    // docs/capacity.md's prices, per million, and the warm durations it assumes (1 GB arm64).
    private static final double API = 1.00;
    private static final double MESSAGE = 1.00;
    private static final double CONNECTION_MINUTE = 0.25;
    private static final double LAMBDA_REQUEST = 0.20;
    private static final double LAMBDA_MS = 0.0000133334 * 1e6 / 1000;
    private static final double WRU = 0.625;
    private static final double RRU = 0.125;
    private static final double HEARTBEAT_MS = 8;
    private static final double REPORT_MS = 10;
    private static final double GAME_MS = 50;

    private AgentCostBenchmark() {}

    /** What a run counted; {@code gameWriteUnits} and {@code gameReadUnits} are the games' share of the units. */
    private record Counts(long apiRequests, long messages, double writeUnits, double readUnits, double gameServerHours,
            long games, long heartbeats, double gameWriteUnits, double gameReadUnits) {}

    public static void main(String[] args) throws Exception {
        int instances = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        double hours = args.length > 1 ? Double.parseDouble(args[1]) : 1;
        Benchmarks.DynamoDbCalls calls = new Benchmarks.DynamoDbCalls();
        MutableClock clock = MutableClock.startingNow();
        LocalProfile.Options d = LocalProfile.Options.defaults();
        try (LocalProfile profile = LocalProfile.start(new LocalProfile.Options(0, d.claimTtl(), d.healthTimeout(),
                Duration.ZERO, Duration.ZERO, Optional.empty(), Optional.empty(), Optional.empty(), d.principals(),
                clock, Duration.ofMillis(20), d.home(), List.of(calls)))) {
            Benchmarks.createActive(profile, "api", instances, instances, List.of("c5.large", "m5.large"));
            Benchmarks.createActive(profile, "agent", instances, instances, List.of("c5.large", "m5.large"));
            Counts api = run(profile, clock, calls, "api", false, hours);
            Counts agent = run(profile, clock, calls, "agent", true, hours);
            System.out.printf("%d instances x %d game servers, %.1f simulated hour(s) each, health every %d s, games of %d"
                    + " min back to back; DynamoDB units from each call's ConsumedCapacity (dynoxide)%n",
                    instances, PER_INSTANCE, hours, PERIOD.toSeconds(), GAME.toMinutes());
            System.out.printf("%-34s %12s %12s %12s %12s %12s%n", "per game-server-hour", "API req.", "WS messages",
                    "heartbeats", "WRU", "RRU");
            row("game servers calling the API", api);
            row("the agent, health over the channel", agent);
            System.out.printf("%-34s %12s%n", "per 1,000 game-server-hours", "cost");
            System.out.printf("%-34s %12s%n", "game servers calling the API", dollars(cost(api, false)));
            System.out.printf("%-34s %12s%n", "the agent, health over the channel", dollars(cost(agent, true)));
        }
    }

    private static void row(String what, Counts c) {
        double h = c.gameServerHours();
        System.out.printf("%-34s %12.1f %12.1f %12.1f %12.1f %12.1f%n", what, c.apiRequests() / h, c.messages() / h,
                c.heartbeats() / h, c.writeUnits() / h, c.readUnits() / h);
    }

    private static String dollars(double[] parts) {
        return String.format("$%.3f (health $%.3f, games $%.3f)", parts[0] + parts[1], parts[0], parts[1]);
    }

    /**
     * Per 1,000 game-server-hours: [health, games]. API requests and messages at $1/M, each with a
     * Lambda invocation of the duration assumed; connection minutes at $0.25/M (one connection per
     * instance); the DynamoDB units counted.
     */
    private static double[] cost(Counts c, boolean agent) {
        double scale = 1000 / c.gameServerHours() / 1e6;
        double gameRequests = c.games() * 4.0;
        double healthRequests = c.apiRequests() - gameRequests;
        double health = healthRequests * (API + LAMBDA_REQUEST + HEARTBEAT_MS * LAMBDA_MS)
                + c.messages() * (MESSAGE + LAMBDA_REQUEST + REPORT_MS * LAMBDA_MS)
                + (agent ? c.gameServerHours() / PER_INSTANCE * 60 * CONNECTION_MINUTE : 0);
        double games = gameRequests * (API + LAMBDA_REQUEST) + c.games() * GAME_MS * LAMBDA_MS;
        double units = c.writeUnits() * WRU + c.readUnits() * RRU;
        double gameUnits = c.gameWriteUnits() * WRU + c.gameReadUnits() * RRU;
        return new double[] {(health + units - gameUnits) * scale, (games + gameUnits) * scale};
    }

    private record Slot(String instanceId, int index) {}

    private static Counts run(LocalProfile profile, MutableClock clock, Benchmarks.DynamoDbCalls calls, String group,
            boolean agent, double hours) {
        GameServerService servers = profile.services().gameServers();
        List<String> instanceIds = profile.services().groups().describeInstances(group, Optional.empty(), 1000,
                Optional.empty()).items().stream().map(GameServerInstance::instanceId).toList();
        if (agent) {
            for (String i : instanceIds) {
                profile.services().pushConnections().connect(Caller.onInstance(i), group, i, "bench-" + i,
                        OptionalInt.empty());
            }
        }
        Map<Slot, String> running = new HashMap<>();
        Map<String, Instant> gameEnds = new HashMap<>();
        int[] serial = {0};
        // Every slot's first game starts now, its end staggered over the game's length: ends spread evenly.
        int n = 0;
        for (String i : instanceIds) {
            for (int k = 0; k < PER_INSTANCE; k++) {
                Slot slot = new Slot(i, k);
                String id = startGame(servers, group, slot, agent, serial);
                running.put(slot, id);
                long steps = GAME.dividedBy(PERIOD);
                gameEnds.put(id, clock.instant().plus(PERIOD.multipliedBy(1 + (n++ % steps))));
            }
        }
        report(profile, servers, group, instanceIds, running, agent);
        calls.reset();
        long apiRequests = 0;
        long messages = 0;
        long games = 0;
        long heartbeats = 0;
        double gameWrites = 0;
        double gameReads = 0;
        long steps = Math.round(hours * 3600 / PERIOD.toSeconds());
        for (long step = 0; step < steps; step++) {
            clock.advance(PERIOD);
            for (Map.Entry<Slot, String> e : new ArrayList<>(running.entrySet())) {
                if (!clock.instant().isBefore(gameEnds.get(e.getValue()))) {
                    double w = calls.writeUnits();
                    double r = calls.readUnits();
                    Benchmarks.DynamoDbCalls.as("game");
                    servers.deregister(group, e.getValue(), Caller.onInstance(e.getKey().instanceId()));
                    String next = startGame(servers, group, e.getKey(), agent, serial);
                    gameWrites += calls.writeUnits() - w;
                    gameReads += calls.readUnits() - r;
                    running.put(e.getKey(), next);
                    gameEnds.put(next, clock.instant().plus(GAME));
                    games++;
                    apiRequests += 4;
                }
            }
            Benchmarks.DynamoDbCalls.as("health");
            int[] sent = report(profile, servers, group, instanceIds, running, agent);
            apiRequests += sent[0];
            messages += sent[1];
            heartbeats += running.size();
        }
        double gameServerHours = running.size() * hours;
        return new Counts(apiRequests, messages, calls.writeUnits(), calls.readUnits(), gameServerHours, games, heartbeats,
                gameWrites, gameReads);
    }

    /** Registration of a new process's server in the slot, a matchmaker's claim, and UTILIZED: one game's start. */
    private static String startGame(GameServerService servers, String group, Slot slot, boolean agent, int[] serial) {
        String id = "gs-" + group + "-" + (serial[0]++);
        Caller onInstance = Caller.onInstance(slot.instanceId());
        servers.register(new Registration(group, id, slot.instanceId(), Optional.of("127.0.0.1:" + (7000 + slot.index())),
                Optional.empty()), onInstance);
        GameServer claimed = servers.claim(new Claim(group, Optional.empty(), Optional.empty(), Optional.empty()));
        if (!claimed.gameServerId().equals(id)) { // every other server is in a game
            throw new IllegalStateException("claimed " + claimed.gameServerId() + ", not the new " + id);
        }
        // The agent marks UTILIZED without a HealthCheck (its lease holds the health); a game server with one.
        servers.update(new Update(group, claimed.gameServerId(), Optional.empty(), Optional.of(UtilizationStatus.UTILIZED),
                !agent), Caller.onInstance(claimed.instanceId()));
        return id;
    }

    /** One health period: [API requests, WebSocket messages]. */
    private static int[] report(LocalProfile profile, GameServerService servers, String group, List<String> instanceIds,
            Map<Slot, String> running, boolean agent) {
        if (!agent) {
            running.forEach((slot, id) -> servers.update(new Update(group, id, Optional.empty(), Optional.empty(), true),
                    Caller.onInstance(slot.instanceId())));
            return new int[] {running.size(), 0};
        }
        Map<String, List<HealthReports.Report>> byInstance = new HashMap<>();
        running.forEach((slot, id) -> byInstance.computeIfAbsent(slot.instanceId(), i -> new ArrayList<>())
                .add(new HealthReports.Report(id, true)));
        for (String i : instanceIds) {
            profile.services().healthReports().report("bench-" + i, group, byInstance.get(i), ProcessEvents.NONE);
        }
        return new int[] {0, instanceIds.size()};
    }
}

package io.gamefleet.local.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.local.demo.ApiClient.Reply;
import io.gamefleet.local.edge.Principal;
import io.gamefleet.local.fleet.SimulatedFleet;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * {@code local/run --demo}: a game server group {@value #GROUP} whose simulated instances run game
 * server processes, and a matchmaker that claims them, all calling the API over HTTP, signed, as
 * real ones do. Each in-service instance runs {@value #SLOTS_PER_INSTANCE} game servers: each
 * registers, reports health every 30 s and, when the matchmaker's claim sends it players, becomes
 * UTILIZED, plays a match of 2 to 6 minutes, deregisters and starts again 5 s later. The matchmaker
 * claims every 10 s, so the group fills up; it tracks 70 % utilization, so the simulated fleet
 * scales it out (up to {@value #MAX_SIZE} instances), and FULL_PROTECTION keeps instances with
 * matches from being scaled in.
 *
 * <p>Everything follows the profile's clock: {@link #tick()} does what is due, once a second on
 * {@code local/run}, or when a test has moved the clock.
 */
public final class DemoGame implements AutoCloseable {
    public static final String GROUP = "demo";
    public static final int SLOTS_PER_INSTANCE = 4;
    public static final int MIN_SIZE = 2;
    public static final int MAX_SIZE = 6;
    public static final Duration HEARTBEAT = Duration.ofSeconds(30);
    static final Duration MATCHMAKING = Duration.ofSeconds(10);
    static final Duration RESTART = Duration.ofSeconds(5);
    static final Duration SHORTEST_MATCH = Duration.ofMinutes(2);
    static final Duration LONGEST_MATCH = Duration.ofMinutes(6);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String GROUP_PATH = "/game-server-groups/" + GROUP;

    private enum Phase { CREATE, ACTIVATING, RUNNING, STOPPED }

    private enum State { STOPPED, AVAILABLE, PLAYING }

    private final ApiClient api;
    private final SimulatedFleet fleet;
    private final Clock clock;
    private final Random random;
    private final Consumer<String> log;
    /** By game server id, so the output and the order of work are stable. */
    private final Map<String, Agent> agents = new TreeMap<>();
    private Phase phase = Phase.CREATE;
    private Instant nextClaim = Instant.MIN;
    private int matches;
    private boolean full;
    private ScheduledExecutorService ticker;

    private DemoGame(ApiClient api, SimulatedFleet fleet, Clock clock, Random random, Consumer<String> log) {
        this.api = api;
        this.fleet = fleet;
        this.clock = clock;
        this.random = random;
        this.log = log;
    }

    /** A demo that calls the API at {@code endpoint} as {@code caller}, signing by {@code clock}. */
    public static DemoGame calling(URI endpoint, Principal caller, SimulatedFleet fleet, Clock clock, Random random,
            Consumer<String> log) {
        return new DemoGame(new ApiClient(endpoint, LocalAccount.REGION,
                AwsCredentialsIdentity.create(caller.accessKeyId(), caller.secretAccessKey()), clock),
                fleet, clock, random, log);
    }

    /** Ticks once a second until closed; a failed tick is reported and the next one tries again. */
    public void runEverySecond() {
        ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "demo-game");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleWithFixedDelay(() -> {
            try {
                tick();
            } catch (RuntimeException e) {
                log.accept("tick failed: " + e.getMessage());
            }
        }, 0, 1, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        if (ticker != null) {
            ticker.shutdownNow();
        }
    }

    /** Does what is due at the clock's instant. */
    public void tick() {
        Instant now = clock.instant();
        switch (phase) {
            case CREATE -> create();
            case ACTIVATING -> awaitActive();
            case RUNNING -> run(now);
            case STOPPED -> { }
        }
    }

    public int matchesStarted() {
        return matches;
    }

    private void create() {
        Reply r = api.call("POST", "/game-server-groups", groupDefinition());
        if (r.ok()) {
            log.accept("created game server group " + GROUP + ": " + MIN_SIZE + " to " + MAX_SIZE
                    + " instances of c5.large, m5.large or r5.large, tracking 70% utilization, FULL_PROTECTION");
            phase = Phase.ACTIVATING;
        } else if (r.error().equals("ConflictException")) {
            adopt();
        } else {
            stop("could not create the game server group " + GROUP + ": " + r);
        }
    }

    /**
     * The group exists: this demo created it (a tick whose reply was lost), or an earlier run did
     * and --data-dir kept it, but the simulated fleet keeps no instances across restarts.
     */
    private void adopt() {
        String status = api.call("GET", GROUP_PATH, null).body().path("GameServerGroup").path("Status").asText("");
        boolean hasFleet = fleet.hasScalingGroup(GROUP);
        if (Set.of("NEW", "ACTIVATING").contains(status) || (status.equals("ACTIVE") && hasFleet)) {
            phase = Phase.ACTIVATING;
        } else {
            stop("a game server group named " + GROUP + " exists already (" + status + "), from an earlier run kept by "
                    + "--data-dir, and the simulated fleet keeps no instances across restarts; delete it "
                    + "(DeleteGameServerGroup with DeleteOption FORCE_DELETE) and start again to see the demo");
        }
    }

    private void awaitActive() {
        Reply r = api.call("GET", GROUP_PATH, null);
        String status = r.body().path("GameServerGroup").path("Status").asText("");
        if (status.equals("ACTIVE")) {
            log.accept("game server group " + GROUP + " is ACTIVE; its game servers start, the matchmaker claims one "
                    + "every " + MATCHMAKING.toSeconds() + " s");
            phase = Phase.RUNNING;
        } else if (!r.ok() || !Set.of("NEW", "ACTIVATING").contains(status)) {
            stop("game server group " + GROUP + " did not become ACTIVE: " + r);
        }
    }

    private void run(Instant now) {
        startAndStopAgents(now);
        for (Agent agent : agents.values()) {
            agent.tick(now);
        }
        if (!now.isBefore(nextClaim)) {
            nextClaim = now.plus(MATCHMAKING);
            matchmake(now);
        }
    }

    /** One agent per slot of each in-service instance; an instance that left takes its agents with it. */
    private void startAndStopAgents(Instant now) {
        Map<String, String> inService = new TreeMap<>(); // instance id -> type
        fleet.instancesOf(GROUP).stream().filter(ComputeInstance::inService)
                .forEach(i -> inService.put(i.instanceId(), i.instanceType()));
        Set<String> running = agents.values().stream().map(a -> a.instanceId).collect(Collectors.toSet());
        for (Iterator<Agent> it = agents.values().iterator(); it.hasNext(); ) {
            Agent agent = it.next();
            if (!inService.containsKey(agent.instanceId)) {
                it.remove();
            }
        }
        running.stream().filter(i -> !inService.containsKey(i)).sorted().forEach(i ->
                log.accept("instance " + i + " left service: its game servers stopped"));
        for (String instance : inService.keySet()) {
            if (!running.contains(instance)) {
                log.accept("instance " + instance + " (" + inService.get(instance) + ") is in service: game servers demo-"
                        + instance + "-1 to -" + SLOTS_PER_INSTANCE + " start");
                for (int slot = 1; slot <= SLOTS_PER_INSTANCE; slot++) {
                    Agent agent = new Agent(instance, slot, now);
                    agents.put(agent.id, agent);
                }
            }
        }
    }

    private void matchmake(Instant now) {
        String match = "match-" + (matches + 1);
        Reply r = api.call("POST", GROUP_PATH + "/claim", JSON.createObjectNode().put("GameServerData", match));
        if (r.ok()) {
            matches++;
            full = false;
            Agent agent = agents.get(r.body().path("GameServer").path("GameServerId").asText());
            if (agent != null && agent.state == State.AVAILABLE) {
                agent.play(match, now);
            } else {
                log.accept(match + ": the claimed game server's process has stopped; the claim will lapse");
            }
        } else if (r.error().equals("OutOfCapacityException")) {
            if (!full) {
                long playing = agents.values().stream().filter(a -> a.state == State.PLAYING).count();
                log.accept("matchmaker: no game server free (" + playing + " playing); it keeps trying");
                full = true;
            }
        } else {
            stop("the matchmaker's claim failed, so the demo stops: " + r);
        }
    }

    private void stop(String why) {
        log.accept(why);
        phase = Phase.STOPPED;
    }

    private static ObjectNode groupDefinition() {
        ObjectNode g = JSON.createObjectNode();
        g.put("GameServerGroupName", GROUP);
        g.put("RoleArn", "arn:aws:iam::" + LocalAccount.ACCOUNT_ID + ":role/GameServerGroupRole");
        g.put("MinSize", MIN_SIZE);
        g.put("MaxSize", MAX_SIZE);
        g.putObject("LaunchTemplate").put("LaunchTemplateName", "demo-game-server").put("Version", "1");
        for (String type : new String[] {"c5.large", "m5.large", "r5.large"}) {
            g.withArray("InstanceDefinitions").addObject().put("InstanceType", type);
        }
        g.putObject("AutoScalingPolicy").putObject("TargetTrackingConfiguration").put("TargetValue", 70);
        g.put("GameServerProtectionPolicy", "FULL_PROTECTION");
        return g;
    }

    /** One game server process: registers, beats, plays what it is claimed for, deregisters, starts again. */
    private final class Agent {
        final String id;
        final String instanceId;
        final String connectionInfo;
        State state = State.STOPPED;
        /** STOPPED: when it starts; PLAYING: when its match ends. */
        Instant due;
        Instant nextHeartbeat;
        String match;

        Agent(String instanceId, int slot, Instant now) {
            this.id = "demo-" + instanceId + "-" + slot;
            this.instanceId = instanceId;
            this.connectionInfo = "10.0." + Math.floorMod(instanceId.hashCode(), 250) + "." + slot + ":7777";
            this.due = now;
        }

        String path() {
            return GROUP_PATH + "/game-servers/" + id;
        }

        void tick(Instant now) {
            if (state == State.STOPPED) {
                if (!now.isBefore(due)) {
                    register(now);
                }
            } else if (state == State.PLAYING && !now.isBefore(due)) {
                endMatch(now);
            } else if (!now.isBefore(nextHeartbeat)) {
                heartbeat(now);
            }
        }

        void register(Instant now) {
            ObjectNode body = JSON.createObjectNode().put("GameServerId", id).put("InstanceId", instanceId)
                    .put("ConnectionInfo", connectionInfo);
            Reply r = api.call("POST", GROUP_PATH + "/game-servers", body);
            if (r.ok()) {
                state = State.AVAILABLE;
                nextHeartbeat = now.plus(HEARTBEAT);
            } else {
                log.accept("game server " + id + " could not register, and tries again in " + RESTART.toSeconds()
                        + " s: " + r);
                due = now.plus(RESTART);
            }
        }

        void heartbeat(Instant now) {
            Reply r = api.call("PATCH", path(), JSON.createObjectNode().put("HealthCheck", "HEALTHY"));
            if (r.ok()) {
                nextHeartbeat = now.plus(HEARTBEAT);
            } else {
                restart(now, "its heartbeat was refused (" + r + ")");
            }
        }

        void play(String claimedFor, Instant now) {
            Reply r = api.call("PATCH", path(), JSON.createObjectNode().put("UtilizationStatus", "UTILIZED")
                    .put("HealthCheck", "HEALTHY"));
            if (!r.ok()) {
                restart(now, "it could not become UTILIZED for " + claimedFor + " (" + r + ")");
                return;
            }
            long spread = LONGEST_MATCH.minus(SHORTEST_MATCH).toSeconds();
            Duration length = SHORTEST_MATCH.plusSeconds((long) (random.nextDouble() * spread));
            state = State.PLAYING;
            match = claimedFor;
            due = now.plus(length);
            nextHeartbeat = now.plus(HEARTBEAT);
            log.accept(claimedFor + ": players joined game server " + id + " for " + length.toMinutesPart() + " min "
                    + length.toSecondsPart() + " s");
        }

        void endMatch(Instant now) {
            Reply r = api.call("DELETE", path(), null);
            log.accept(match + " ended: game server " + id + (r.ok() ? " deregistered" : " could not deregister (" + r + ")")
                    + " and starts again in " + RESTART.toSeconds() + " s");
            state = State.STOPPED;
            due = now.plus(RESTART);
        }

        private void restart(Instant now, String why) {
            log.accept("game server " + id + " restarts: " + why);
            if (state != State.STOPPED) {
                api.call("DELETE", path(), null); // a fresh process registers afresh
            }
            state = State.STOPPED;
            due = now.plus(RESTART);
        }
    }
}

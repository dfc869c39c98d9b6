package io.gamefleet.local.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.local.agents.AgentTemplate;
import io.gamefleet.local.agents.ReadableClasspath;
import io.gamefleet.local.demo.ApiClient.Reply;
import io.gamefleet.local.edge.Principal;
import io.gamefleet.local.fleet.SimulatedFleet;
import java.io.File;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * {@code local/run --demo}: a game server group {@value #GROUP} whose simulated instances each run
 * {@value #SERVERS_PER_INSTANCE} processes of the demo game server ({@link DemoGameServer}) under the
 * agent, through PlayFab's GSDK protocol ({@link #agentTemplate}), and a matchmaker that claims one
 * of them every 10 s, calling the API over HTTP, signed, as a real one does. The agent registers each
 * StandingBy server, tells the claimed one Active over the push channel, marks it UTILIZED, and
 * deregisters it and starts a new one when its match is over and it exits. The group tracks 70 %
 * utilization, so the simulated fleet scales it out (up to {@value #MAX_SIZE} instances) when the
 * matches fill it, and FULL_PROTECTION keeps instances with matches from being scaled in.
 *
 * <p>{@link #tick()} does what is due at the profile's clock: once a second on {@code local/run}.
 */
public final class DemoGame implements AutoCloseable {
    public static final String GROUP = "demo";
    public static final int SERVERS_PER_INSTANCE = 2;
    public static final int MIN_SIZE = 2;
    public static final int MAX_SIZE = 6;
    static final Duration MATCHMAKING = Duration.ofSeconds(10);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String GROUP_PATH = "/game-server-groups/" + GROUP;

    private enum Phase { CREATE, ACTIVATING, RUNNING, STOPPED }

    private final ApiClient api;
    private final SimulatedFleet fleet;
    private final Clock clock;
    private final Consumer<String> log;
    private Phase phase = Phase.CREATE;
    private Instant nextClaim = Instant.MIN;
    private int matches;
    private boolean full;
    private ScheduledExecutorService ticker;

    private DemoGame(ApiClient api, SimulatedFleet fleet, Clock clock, Consumer<String> log) {
        this.api = api;
        this.fleet = fleet;
        this.clock = clock;
        this.log = log;
    }

    /** A demo that calls the API of {@code region} at {@code endpoint} as {@code caller}, signing by {@code clock}. */
    public static DemoGame calling(URI endpoint, String region, Principal caller, SimulatedFleet fleet, Clock clock,
            Consumer<String> log) {
        return new DemoGame(new ApiClient(endpoint, region,
                AwsCredentialsIdentity.create(caller.accessKeyId(), caller.secretAccessKey()), clock),
                fleet, clock, log);
    }

    /**
     * What the demo group's agents run: {@link DemoGameServer} in a small JVM of this JVM's Java and
     * classpath (the local profile's jar on {@code local/run}), its arguments {@code matchArgs}.
     */
    public static AgentTemplate agentTemplate(String... matchArgs) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx32m", "-Xss512k",
                "-cp", absoluteClasspath(), DemoGameServer.class.getName()));
        command.addAll(List.of(matchArgs));
        return AgentTemplate.command(command, SERVERS_PER_INSTANCE).onlyOn(GROUP);
    }

    /**
     * Each process starts in a folder of its own ({@code java -jar local/target/...} gives a relative
     * path), and, the profile run as root, as a uid of its own, which must be able to read it.
     */
    private static String absoluteClasspath() {
        return ReadableClasspath.of(Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Path.of(entry).toAbsolutePath().toString()).collect(Collectors.joining(File.pathSeparator)));
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
            log.accept("game server group " + GROUP + " is ACTIVE; on each of its instances the agent starts "
                    + SERVERS_PER_INSTANCE + " demo game servers, and the matchmaker claims one every "
                    + MATCHMAKING.toSeconds() + " s");
            phase = Phase.RUNNING;
        } else if (!r.ok() || !Set.of("NEW", "ACTIVATING").contains(status)) {
            stop("game server group " + GROUP + " did not become ACTIVE: " + r);
        }
    }

    private void run(Instant now) {
        if (!now.isBefore(nextClaim)) {
            nextClaim = now.plus(MATCHMAKING);
            matchmake();
        }
    }

    private void matchmake() {
        String match = "match-" + (matches + 1);
        Reply r = api.call("POST", GROUP_PATH + "/claim", JSON.createObjectNode().put("GameServerData", match));
        if (r.ok()) {
            matches++;
            full = false;
            JsonNode server = r.body().path("GameServer");
            log.accept(match + ": claimed game server " + server.path("GameServerId").asText() + " on "
                    + server.path("InstanceId").asText() + " (" + server.path("ConnectionInfo").asText()
                    + "); its agent tells it Active");
        } else if (r.error().equals("OutOfCapacityException")) {
            if (!full) {
                log.accept("matchmaker: no game server free; it keeps trying");
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
}

package io.gamefleet.local;

import io.gamefleet.catalog.Lifetimes;
import io.gamefleet.catalog.Settings;
import io.gamefleet.local.agents.AgentTemplate;
import io.gamefleet.local.agents.InstanceAgents;
import io.gamefleet.local.demo.DemoGame;
import io.gamefleet.local.demo.DemoGameServer;
import io.gamefleet.local.edge.Principal;
import io.gamefleet.local.edge.Principals;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/** {@code local/run}: starts the local profile in the foreground until Ctrl-C or SIGTERM. */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws InterruptedException {
        long started = System.nanoTime();
        Launch launch;
        try {
            launch = parse(List.of(args));
        } catch (IllegalArgumentException e) {
            System.err.println("local/run: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        LocalProfile.Options options = launch.options();
        Principal admin = options.principals().get(0);
        List<String> regions = launch.regions();
        LocalRegions run;
        try {
            run = LocalRegions.start(options, regions);
            for (LocalProfile profile : run.profiles()) {
                launch.spotInterruptionsPerHour().forEach(profile.fleet()::setInterruptionRate);
            }
        } catch (LocalRegions.NotStarted e) {
            System.err.println("local/run: could not start" + (regions.size() > 1 ? " region " + e.region() : "") + ": "
                    + whyNotStarted(e.port(), e.getCause()));
            System.exit(1);
            return;
        } catch (RuntimeException e) {
            System.err.println("local/run: could not start: " + whyNotStarted(options.port(), e));
            System.exit(1);
            return;
        }
        // The agents and the demo run in the first region: one agent host per run, as ports and uids are the machine's.
        LocalProfile first = run.profiles().get(0);
        Optional<InstanceAgents> agents;
        try {
            agents = launch.agents().map(first::runAgents);
        } catch (RuntimeException e) {
            System.err.println("local/run: could not start the agents: " + e.getMessage());
            run.close();
            System.exit(1);
            return;
        }
        Optional<DemoGame> demo = Optional.empty();
        if (launch.demo()) {
            demo = Optional.of(DemoGame.calling(first.endpoint(), first.region(), admin, first.fleet(), options.clock(),
                    line -> System.out.println("demo: " + line)));
        }
        // A child process a profile needs ended and cannot be started again without loss.
        for (LocalProfile profile : run.profiles()) {
            profile.failure().thenAccept(reason -> {
                System.err.println("local/run: stopping: " + (regions.size() > 1 ? profile.region() + ": " : "") + reason);
                new Thread(() -> System.exit(1), "local-exit").start();
            });
        }
        Optional<DemoGame> demoToStop = demo;
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("Gamefleet local profile stopping");
            demoToStop.ifPresent(DemoGame::close);
            run.close();
            stopped.countDown();
        }));
        long readyMillis = (System.nanoTime() - started) / 1_000_000;
        if (regions.size() == 1) {
            System.out.println("Gamefleet local profile ready in " + readyMillis + " ms");
            System.out.println("  API:         " + first.endpoint());
            System.out.println("  console:     " + first.consoleEndpoint());
        } else {
            System.out.println("Gamefleet local profile ready in " + readyMillis + " ms: " + regions.size()
                    + " regions, peered (GET /regions lists them)");
            for (LocalProfile profile : run.profiles()) {
                System.out.println("  " + String.format("%-13s", profile.region() + ":") + "API " + profile.endpoint()
                        + ", console " + profile.consoleEndpoint());
            }
        }
        System.out.println("  credentials: " + admin.accessKeyId() + " / " + admin.secretAccessKey()
                + (regions.size() == 1 ? " (region " + first.region() + ", SigV4 service execute-api)"
                        : " (in every region; sign for the region you call, SigV4 service execute-api)"));
        System.out.println("  try:         curl --aws-sigv4 \"aws:amz:" + first.region() + ":execute-api\" --user "
                + admin.accessKeyId() + ":" + admin.secretAccessKey() + " " + first.endpoint()
                + (regions.size() == 1 ? "/game-server-groups" : "/regions"));
        System.out.println("  local token: " + first.localToken() + (regions.size() == 1 ? "" : " (every region's)"));
        System.out.println("               (header X-Gamefleet-Local-Token of POST /_local/* and the Lambda Invoke path)");
        if (regions.size() > 1) {
            System.out.println("  outages:     POST /_local/regions/<region>/outage and .../recover, on any region's port");
        }
        for (LocalProfile profile : run.profiles()) {
            String region = regions.size() == 1 ? "" : " of " + profile.region();
            System.out.println("  logs:        " + profile.logsDirectory() + region + " (the emulators' output"
                    + (agents.isPresent() && profile == first ? ", the agents' folders and archive" : "") + "; "
                    + (options.keepTemp() ? "kept" : "removed at exit, unless --keep-temp") + ")");
            System.out.println("  metrics:     " + profile.logsDirectory().resolve("metrics.log")
                    + " (CloudWatch embedded metric format)");
        }
        System.out.println("  requests:    one line each on standard error" + (regions.size() == 1 ? ""
                : ", after their region") + "; the functions' logs too");
        launch.agents().ifPresent(a -> System.out.println("  agents:      " + agentsLine(a, launch.demo())
                + (regions.size() == 1 ? "" : ", in " + first.region())));
        agents.ifPresent(a -> {
            System.out.println("               the agent jar " + a.jar() + " in one JVM; its lines on standard error (\"agent: \")");
            System.out.println("               running servers' output: " + a.serversFolder()
                    + "/<instanceId>/<gameServerId>/logs/PF_ConsoleLogs.txt");
            System.out.println("               ended servers' logs:     " + a.archive() + "/<group>/<instanceId>/<gameServerId>/");
        });
        System.out.println("  Ctrl-C stops it.");
        demo.ifPresent(DemoGame::runEverySecond);
        stopped.await();
    }

    /** What the agents run, and where. */
    static String agentsLine(AgentTemplate agents, boolean demo) {
        String where = agents.onlyGroup().map(g -> "on every instance of group " + g).orElse("on every instance of every group");
        String what = demo ? "the demo game server (" + DemoGameServer.class.getName() + ", GSDK protocol)" : "your game server";
        return where + ", " + agents.processes() + " process(es) of " + what + " each";
    }

    static final String USAGE = """
            usage: local/run [--regions R1,R2,...] [--port N] [--claim-ttl-seconds S] [--health-timeout-seconds S]
                             [--balancer-rate-seconds S] [--instance-launch-seconds S] [--data-dir DIR]
                             [--dynamodb-endpoint URL] [--stepfunctions-endpoint URL] [--principals FILE]
                             [--spot-interruption-rate TYPE=PER_HOUR]... [--demo] [--local-token TOKEN]
                             [--game-server 'COMMAND ARGS' [--servers-per-instance N] | --agent-config FILE]
                             [--max-game-servers-per-instance N] [--connection-info-check on|off]
                             [--expected-game-servers N] [--heartbeat-seconds S] [--claims-per-second N]
                             [--max-instance-lifetime DURATION] [--guaranteed-server-lifetime DURATION]
                             [--allow-unsigned-payload] [--strict-signing] [--keep-temp] [--quiet]
                             [--localstack]   (local/run only: LocalStack's DynamoDB in Docker)""";

    /** What a failed start says: a port in use (a BindException, wrapped or not) names the port and --port. */
    static String whyNotStarted(int port, Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.BindException) {
                return "port " + port + " is in use (" + e.getMessage() + "); stop what uses it, or pick another"
                        + " with --port N (--port 0: any free port)";
            }
        }
        return e.getMessage();
    }

    /**
     * What the command line asks for: the profiles' options (the first region's), the simulated Spot
     * interruption rates, whether to run the demo game ({@link DemoGame}), the agents, and the regions.
     */
    record Launch(LocalProfile.Options options, Map<String, Double> spotInterruptionsPerHour, boolean demo,
            Optional<AgentTemplate> agents, List<String> regions) {}

    static Launch parse(List<String> args) {
        Map<String, Double> interruptions = new LinkedHashMap<>();
        LocalProfile.Options o = LocalProfile.Options.defaults();
        int port = o.port();
        Duration claimTtl = o.claimTtl();
        Duration health = o.healthTimeout();
        Duration balancer = o.balancerRate();
        Duration launch = o.instanceLaunch();
        Optional<Path> dataDir = Optional.empty();
        Optional<URI> dynamo = Optional.empty();
        Optional<URI> sfn = Optional.empty();
        List<Principal> principals = new ArrayList<>(o.principals());
        List<String> regions = List.of(o.region());
        boolean demo = false;
        String localToken = o.localToken();
        boolean allowUnsignedPayload = false;
        boolean strictSigning = false;
        boolean keepTemp = false;
        boolean accessLog = true;
        Optional<String> gameServer = Optional.empty();
        Optional<Integer> serversPerInstance = Optional.empty();
        Optional<Path> agentConfig = Optional.empty();
        LocalProfile.Limits limits = o.limits();
        int maxPerInstance = limits.maxGameServersPerInstance();
        boolean connectionInfoCheck = limits.connectionInfoCheck();
        int expectedGameServers = limits.expectedGameServers();
        int heartbeatSeconds = limits.heartbeatSeconds();
        int claimsPerSecond = limits.claimsPerSecond();
        Duration maxLifetime = limits.lifetime().maxInstance();
        Duration guaranteedLifetime = limits.lifetime().guaranteedServer();
        Iterator<String> it = args.iterator();
        while (it.hasNext()) {
            String flag = it.next();
            if (flag.equals("--help") || flag.equals("-h")) {
                System.out.println(USAGE);
                System.exit(0);
            }
            if (flag.equals("--demo")) {
                demo = true;
                continue;
            }
            if (flag.equals("--allow-unsigned-payload")) {
                allowUnsignedPayload = true;
                continue;
            }
            if (flag.equals("--strict-signing")) {
                strictSigning = true;
                continue;
            }
            if (flag.equals("--keep-temp")) {
                keepTemp = true;
                continue;
            }
            if (flag.equals("--quiet")) {
                accessLog = false;
                continue;
            }
            if (flag.equals("--localstack")) {
                throw new IllegalArgumentException("--localstack is a flag of local/run, which starts LocalStack in Docker"
                        + " and passes --dynamodb-endpoint; with java -jar, start LocalStack yourself and pass"
                        + " --dynamodb-endpoint http://127.0.0.1:4566");
            }
            if (!it.hasNext()) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = it.next();
            switch (flag) {
                case "--regions" -> regions = LocalRegions.parse(value);
                case "--port" -> port = integer(flag, value, 0, 65535);
                case "--claim-ttl-seconds" -> claimTtl = Duration.ofSeconds(integer(flag, value, 1, 86400));
                case "--health-timeout-seconds" -> health = Duration.ofSeconds(integer(flag, value, 1, 86400));
                case "--balancer-rate-seconds" -> balancer = Duration.ofSeconds(integer(flag, value, 1, 86400));
                case "--instance-launch-seconds" -> launch = Duration.ofSeconds(integer(flag, value, 0, 3600));
                case "--data-dir" -> {
                    Path dir = Path.of(value);
                    try {
                        Files.createDirectories(dir);
                    } catch (java.io.IOException e) {
                        throw new IllegalArgumentException("--data-dir " + value + " cannot be created: " + e.getMessage());
                    }
                    dataDir = Optional.of(dir.toAbsolutePath());
                }
                case "--dynamodb-endpoint" -> dynamo = Optional.of(url(flag, value));
                case "--stepfunctions-endpoint" -> sfn = Optional.of(url(flag, value));
                case "--principals" -> principals.addAll(Principals.read(Path.of(value)));
                case "--game-server" -> gameServer = Optional.of(value);
                case "--servers-per-instance" -> serversPerInstance = Optional.of(integer(flag, value, 1, 1000));
                case "--agent-config" -> agentConfig = Optional.of(Path.of(value));
                case "--max-game-servers-per-instance" -> maxPerInstance = integer(flag, value, 1, 10_000);
                case "--connection-info-check" -> {
                    if (!value.equals("on") && !value.equals("off")) {
                        throw new IllegalArgumentException("--connection-info-check must be on or off, not " + value);
                    }
                    connectionInfoCheck = value.equals("on");
                }
                case "--expected-game-servers" -> expectedGameServers = integer(flag, value, 1, 10_000_000);
                case "--heartbeat-seconds" -> heartbeatSeconds = integer(flag, value, 1, 86400);
                case "--claims-per-second" -> claimsPerSecond = integer(flag, value, 0, 1_000_000);
                case MAX_LIFETIME_FLAG -> maxLifetime = duration(flag, value);
                case GUARANTEED_LIFETIME_FLAG -> guaranteedLifetime = duration(flag, value);
                case "--local-token" -> {
                    if (value.length() < 16 || !value.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
                        throw new IllegalArgumentException("--local-token must be at least 16 printable ASCII"
                                + " characters without spaces");
                    }
                    localToken = value;
                }
                case "--spot-interruption-rate" -> {
                    int eq = value.indexOf('=');
                    double perHour = -1;
                    try {
                        perHour = eq > 0 ? Double.parseDouble(value.substring(eq + 1)) : -1;
                    } catch (NumberFormatException e) {
                        // reported below
                    }
                    if (perHour < 0 || !Double.isFinite(perHour)) {
                        throw new IllegalArgumentException("--spot-interruption-rate takes TYPE=PER_HOUR, such as "
                                + "c4.large=0.5 (interruption warnings per instance-hour), not " + value);
                    }
                    interruptions.put(value.substring(0, eq), perHour);
                }
                default -> throw new IllegalArgumentException("unknown flag " + flag);
            }
        }
        if (gameServer.isPresent() && agentConfig.isPresent()) {
            throw new IllegalArgumentException("--game-server and --agent-config exclude each other: the agent"
                    + " configuration's command and args say what to run");
        }
        if (serversPerInstance.isPresent() && gameServer.isEmpty()) {
            throw new IllegalArgumentException("--servers-per-instance goes with --game-server (with --agent-config,"
                    + " set \"processes\" in the file)");
        }
        if (demo && (gameServer.isPresent() || agentConfig.isPresent())) {
            throw new IllegalArgumentException("--demo runs its own demo game server under the agent; --game-server and"
                    + " --agent-config run yours: give one or the other");
        }
        if (regions.size() > 1 && (dynamo.isPresent() || sfn.isPresent())) {
            throw new IllegalArgumentException("--regions with more than one region runs each region's own emulators:"
                    + " --dynamodb-endpoint and --stepfunctions-endpoint (and --localstack) would be shared by all, and"
                    + " their tables and state machines have the same names");
        }
        if (port != 0 && port + regions.size() - 1 > 65535) {
            throw new IllegalArgumentException("--port " + port + " leaves no port for each of the " + regions.size()
                    + " regions (they take --port, --port + 1, ...)");
        }
        Optional<AgentTemplate> agents = gameServer.isPresent()
                ? Optional.of(AgentTemplate.gameServer(gameServer.get(), serversPerInstance.orElse(1)))
                : demo ? Optional.of(DemoGame.agentTemplate()) : agentConfig.map(AgentTemplate::read);
        if (agents.isPresent() && agents.get().processes() > maxPerInstance) {
            int processes = agents.get().processes();
            throw new IllegalArgumentException((gameServer.isPresent() ? "--servers-per-instance " + processes
                    : demo ? "the demo's " + processes + " game servers per instance"
                    : "the agent configuration's \"processes\": " + processes)
                    + " is more than --max-game-servers-per-instance " + maxPerInstance + ", the most game servers one"
                    + " instance may have registered: the processes past it would be refused LimitExceededException;"
                    + " run fewer, or raise --max-game-servers-per-instance");
        }
        return new Launch(new LocalProfile.Options(port, claimTtl, health, balancer, launch, dataDir, dynamo, sfn,
                List.copyOf(principals), o.clock(), o.workflowWait(), o.home(), o.interceptors(), localToken,
                allowUnsignedPayload, keepTemp, accessLog, new LocalProfile.Limits(maxPerInstance, connectionInfoCheck,
                        expectedGameServers, heartbeatSeconds, claimsPerSecond, true,
                        lifetimes(maxLifetime, guaranteedLifetime)), strictSigning, regions.get(0)), interruptions, demo,
                agents, regions);
    }

    static final String MAX_LIFETIME_FLAG = "--max-instance-lifetime";
    static final String GUARANTEED_LIFETIME_FLAG = "--guaranteed-server-lifetime";

    /** The two lifetimes as the stage's settings take them, refused (a guarantee not below the maximum) by their flags. */
    private static Lifetimes lifetimes(Duration max, Duration guaranteed) {
        Map<Settings.Setting, String> hours = Map.of(Settings.MAX_INSTANCE_LIFETIME_HOURS, Lifetimes.hours(max),
                Settings.GUARANTEED_SERVER_LIFETIME_HOURS, Lifetimes.hours(guaranteed));
        return Lifetimes.of(hours::get, s -> s.equals(Settings.MAX_INSTANCE_LIFETIME_HOURS) ? MAX_LIFETIME_FLAG
                : GUARANTEED_LIFETIME_FLAG);
    }

    /** A duration such as {@code 10m}: a whole number of seconds, minutes, hours or days ({@code 0}: none). */
    private static Duration duration(String flag, String value) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,9})([smhd])").matcher(value);
        if (value.equals("0")) {
            return Duration.ZERO;
        }
        if (!m.matches()) {
            throw new IllegalArgumentException(flag + " takes a duration such as 30s, 10m, 240h or 10d (0: none), not "
                    + value);
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }

    private static int integer(String flag, String value, int min, int max) {
        try {
            int v = Integer.parseInt(value);
            if (v >= min && v <= max) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(flag + " must be a whole number from " + min + " to " + max + ", not " + value);
    }

    private static URI url(String flag, String value) {
        try {
            URI uri = URI.create(value);
            if (uri.getScheme() != null && uri.getHost() != null) {
                return uri;
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        throw new IllegalArgumentException(flag + " must be a URL such as http://127.0.0.1:4566, not " + value);
    }
}

package io.gamefleet.local;

import io.gamefleet.catalog.Lifetimes;
import io.gamefleet.catalog.Settings;
import io.gamefleet.local.agents.AgentTemplate;
import io.gamefleet.local.demo.DemoGame;
import io.gamefleet.local.edge.LogLevel;
import io.gamefleet.local.edge.Principal;
import io.gamefleet.local.edge.Principals;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code local/run}'s flags, parsed by picocli: each flag's name, value, help line and check are
 * written once, here; picocli reads the command line and writes the help ({@code --help}).
 * docs/local-profile.md's table says more of each (MainTest keeps the two naming the same flags).
 * A bad value is refused with the check's own sentence, as an {@link IllegalArgumentException}.
 */
final class RunFlags {
    static final String MAX_LIFETIME_FLAG = "--max-instance-lifetime";
    static final String GUARANTEED_LIFETIME_FLAG = "--guaranteed-server-lifetime";
    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})([smhd])");

    private final LocalProfile.Options o = LocalProfile.Options.defaults();
    private final LocalProfile.Limits limits = o.limits();
    private final Map<String, Double> interruptions = new LinkedHashMap<>();
    private int port = o.port();
    private Duration claimTtl = o.claimTtl();
    private Duration health = o.healthTimeout();
    private Duration balancer = o.balancerRate();
    private Duration launch = o.instanceLaunch();
    private Optional<Path> dataDir = Optional.empty();
    private Optional<URI> dynamo = Optional.empty();
    private Optional<URI> sfn = Optional.empty();
    private final List<Principal> principals = new ArrayList<>(o.principals());
    private List<String> regions = List.of(o.region());
    private boolean demo;
    private String localToken = o.localToken();
    private boolean allowUnsignedPayload;
    private boolean strictSigning;
    private boolean keepTemp;
    private LogLevel log = LogLevel.REQUESTS;
    private Optional<String> gameServer = Optional.empty();
    private Optional<Integer> serversPerInstance = Optional.empty();
    private Optional<Path> agentConfig = Optional.empty();
    private int maxPerInstance = limits.maxGameServersPerInstance();
    private boolean connectionInfoCheck = limits.connectionInfoCheck();
    private int expectedGameServers = limits.expectedGameServers();
    private int heartbeatSeconds = limits.heartbeatSeconds();
    private int claimsPerSecond = limits.claimsPerSecond();
    private Duration maxLifetime = limits.lifetime().maxInstance();
    private Duration guaranteedLifetime = limits.lifetime().guaranteedServer();

    private final CommandLine commandLine = new CommandLine(spec());

    private RunFlags() {}

    /** The help text {@code --help} prints. */
    static String help() {
        return new RunFlags().commandLine.getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    /** Every flag's name, as the help lists them ({@code --help} too). */
    static List<String> names() {
        return new RunFlags().commandLine.getCommandSpec().options().stream().map(OptionSpec::longestName).toList();
    }

    /** What the command line asks for: empty for {@code --help}. */
    static Optional<Main.Launch> parse(List<String> args) {
        RunFlags flags = new RunFlags();
        try {
            if (flags.commandLine.parseArgs(args.toArray(String[]::new)).isUsageHelpRequested()) {
                return Optional.empty();
            }
        } catch (CommandLine.UnmatchedArgumentException e) {
            String first = e.getUnmatched().get(0);
            List<String> like = e.getSuggestions();
            throw new IllegalArgumentException((first.startsWith("-") ? "unknown flag " + first
                    : "unexpected argument " + first + " (local/run takes flags only)")
                    + (like.isEmpty() ? "" : "; did you mean " + String.join(" or ", like) + "?"));
        } catch (CommandLine.MissingParameterException e) {
            throw new IllegalArgumentException(e.getMissing().stream().map(a -> a instanceof OptionSpec option
                    ? option.longestName() : a.paramLabel()).findFirst().orElse("a flag") + " needs a value");
        } catch (CommandLine.PicocliException e) {
            // A flag's own check refused its value: its sentence, without picocli's wrapping.
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof IllegalArgumentException refusal) {
                    throw refusal;
                }
            }
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return Optional.of(flags.launch());
    }

    private CommandSpec spec() {
        CommandSpec spec = CommandSpec.create().name("local/run");
        spec.usageMessage()
                .description("Starts the Gamefleet local profile in the foreground; Ctrl-C stops it.",
                        "docs/local-profile.md#flags says more of each flag.")
                .abbreviateSynopsis(true)
                .sortOptions(false) // as docs/local-profile.md's table has them
                .width(100)
                .footer("", "A bad flag or value exits with code 2 and says why.");
        spec.parser().overwrittenOptionsAllowed(true); // the last of a flag given twice, as before; some repeat
        value(spec, "--regions", "R1,R2,...", "The AWS regions, one peered profile each; the first on --port, the next on"
                + " --port + 1... (default " + o.region() + ").", v -> regions = LocalRegions.parse(v));
        value(spec, "--port", "N", "The edge port, 0: any free port (default " + o.port() + ").",
                v -> port = integer("--port", v, 0, 65535));
        value(spec, "--claim-ttl-seconds", "S", "Claim duration, 1-86400 (default " + o.claimTtl().toSeconds() + ").",
                v -> claimTtl = Duration.ofSeconds(integer("--claim-ttl-seconds", v, 1, 86400)));
        value(spec, "--health-timeout-seconds", "S", "The heartbeat window, 1-86400 (default "
                + o.healthTimeout().toSeconds() + ").",
                v -> health = Duration.ofSeconds(integer("--health-timeout-seconds", v, 1, 86400)));
        value(spec, "--balancer-rate-seconds", "S", "How often the balancer runs, 1-86400 (default "
                + o.balancerRate().toSeconds() + ").",
                v -> balancer = Duration.ofSeconds(integer("--balancer-rate-seconds", v, 1, 86400)));
        value(spec, "--instance-launch-seconds", "S", "Simulated launch to InService, 0-3600 (default "
                + o.instanceLaunch().toSeconds() + ").",
                v -> launch = Duration.ofSeconds(integer("--instance-launch-seconds", v, 0, 3600)));
        value(spec, "--spot-interruption-rate", "TYPE=PER_HOUR", "Simulated Spot interruption warnings per"
                + " instance-hour of one instance type, such as c5.large=0.5. Repeatable.", this::interruptionRate);
        value(spec, "--data-dir", "DIR", "Keep DynamoDB's data between runs in DIR (default: in memory).",
                this::dataDir);
        value(spec, "--dynamodb-endpoint", "URL", "Another DynamoDB emulator (default: dynoxide, embedded).",
                v -> dynamo = Optional.of(url("--dynamodb-endpoint", v)));
        value(spec, "--stepfunctions-endpoint", "URL", "Another Step Functions emulator (default: the sidecar).",
                v -> sfn = Optional.of(url("--stepfunctions-endpoint", v)));
        value(spec, "--principals", "FILE", "More callers, a JSON file (default: the built-in admin only). Repeatable.",
                v -> principals.addAll(Principals.read(Path.of(v))));
        flag(spec, "--demo", "A demo group whose instances run the demo game server under the agent.", () -> demo = true);
        value(spec, "--game-server", "'COMMAND ARGS'", "Run the agent on every instance, launching this game server"
                + " (through sh -c, with the agent's placeholders such as {port:game}).",
                v -> gameServer = Optional.of(v));
        value(spec, "--servers-per-instance", "N", "With --game-server: processes per instance, 1-1000 (default 1).",
                v -> serversPerInstance = Optional.of(integer("--servers-per-instance", v, 1, 1000)));
        value(spec, "--agent-config", "FILE", "Instead of --game-server: a whole agent configuration for every"
                + " instance.", v -> agentConfig = Optional.of(Path.of(v)));
        value(spec, "--max-game-servers-per-instance", "N", "The most game servers one instance may have registered,"
                + " 1-10000 (default " + limits.maxGameServersPerInstance() + ").",
                v -> maxPerInstance = integer("--max-game-servers-per-instance", v, 1, 10_000));
        value(spec, "--connection-info-check", "on|off", "Whether a ConnectionInfo must name one of the instance's own"
                + " addresses (default " + (limits.connectionInfoCheck() ? "on" : "off") + ").", this::connectionInfoCheck);
        value(spec, "--expected-game-servers", "N", "The fleet the throttles are sized for, 1-10000000 (default "
                + limits.expectedGameServers() + ").",
                v -> expectedGameServers = integer("--expected-game-servers", v, 1, 10_000_000));
        value(spec, "--heartbeat-seconds", "S", "How often each game server reports health, for that sizing, 1-86400"
                + " (default " + limits.heartbeatSeconds() + ").",
                v -> heartbeatSeconds = integer("--heartbeat-seconds", v, 1, 86400));
        value(spec, "--claims-per-second", "N", "The claims per second the throttles admit, 0-1000000 (default "
                + limits.claimsPerSecond() + ").", v -> claimsPerSecond = integer("--claims-per-second", v, 0, 1_000_000));
        value(spec, MAX_LIFETIME_FLAG, "DURATION", "How long an instance lives: 30s, 10m, 240h, 10d; 0: no limit"
                + " (default " + Lifetimes.hours(limits.lifetime().maxInstance()) + "h).",
                v -> maxLifetime = duration(MAX_LIFETIME_FLAG, v));
        value(spec, GUARANTEED_LIFETIME_FLAG, "DURATION", "From an instance's end minus this it takes no claim; below"
                + " " + MAX_LIFETIME_FLAG + " (default " + Lifetimes.hours(limits.lifetime().guaranteedServer()) + "h).",
                v -> guaranteedLifetime = duration(GUARANTEED_LIFETIME_FLAG, v));
        value(spec, "--local-token", "TOKEN", "The token of the local paths that change state, 16 or more printable"
                + " ASCII characters (default: a new random one each run).", this::localToken);
        flag(spec, "--allow-unsigned-payload", "Take SigV4 requests signed with UNSIGNED-PAYLOAD.",
                () -> allowUnsignedPayload = true);
        flag(spec, "--strict-signing", "Take only signatures for execute-api, as API Gateway does.",
                () -> strictSigning = true);
        flag(spec, "--keep-temp", "Keep the run's temporary folder (the emulators' logs, metrics.log) at exit.",
                () -> keepTemp = true);
        value(spec, "--log", LogLevel.choices(), "What standard error shows: all: every request; requests: every"
                + " request but the agents' metadata reads and heartbeats; quiet: no request; errors: only requests"
                + " refused or failed, warnings and errors (default " + log.flagValue() + ").",
                v -> log = LogLevel.of("--log", v));
        flag(spec, "--quiet", "The same as --log quiet: no request's line.", () -> log = LogLevel.QUIET);
        flag(spec, "--localstack", "local/run only: LocalStack's DynamoDB, in Docker, started and removed by"
                + " local/run.", () -> {
                    throw new IllegalArgumentException("--localstack is a flag of local/run, which starts LocalStack in"
                            + " Docker and passes --dynamodb-endpoint; with java -jar, start LocalStack yourself and pass"
                            + " --dynamodb-endpoint http://127.0.0.1:4566");
                });
        spec.addOption(OptionSpec.builder("--help", "-h").usageHelp(true).description("This text.").build());
        return spec;
    }

    private static void value(CommandSpec spec, String name, String label, String description, Consumer<String> set) {
        spec.addOption(OptionSpec.builder(name).paramLabel(label).arity("1").type(String.class).hasInitialValue(false)
                .description(description).setter(new ISetter() {
                    @Override
                    public <T> T set(T value) {
                        if (value != null) {
                            set.accept((String) value);
                        }
                        return null;
                    }
                }).build());
    }

    private static void flag(CommandSpec spec, String name, String description, Runnable set) {
        spec.addOption(OptionSpec.builder(name).arity("0").type(boolean.class).hasInitialValue(false)
                .description(description).setter(new ISetter() {
                    @Override
                    public <T> T set(T value) {
                        if (Boolean.TRUE.equals(value)) {
                            set.run();
                        }
                        return null;
                    }
                }).build());
    }

    private void interruptionRate(String value) {
        int eq = value.indexOf('=');
        double perHour = -1;
        try {
            perHour = eq > 0 ? Double.parseDouble(value.substring(eq + 1)) : -1;
        } catch (NumberFormatException e) {
            // reported below
        }
        if (perHour < 0 || !Double.isFinite(perHour)) {
            throw new IllegalArgumentException("--spot-interruption-rate takes TYPE=PER_HOUR, such as c4.large=0.5"
                    + " (interruption warnings per instance-hour), not " + value);
        }
        interruptions.put(value.substring(0, eq), perHour);
    }

    private void dataDir(String value) {
        Path dir = Path.of(value);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IllegalArgumentException("--data-dir " + value + " cannot be created: " + e.getMessage());
        }
        dataDir = Optional.of(dir.toAbsolutePath());
    }

    private void connectionInfoCheck(String value) {
        if (!value.equals("on") && !value.equals("off")) {
            throw new IllegalArgumentException("--connection-info-check must be on or off, not " + value);
        }
        connectionInfoCheck = value.equals("on");
    }

    private void localToken(String value) {
        if (value.length() < 16 || !value.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new IllegalArgumentException("--local-token must be at least 16 printable ASCII characters without"
                    + " spaces");
        }
        localToken = value;
    }

    /** The flags together: what one flag alone cannot refuse. */
    private Main.Launch launch() {
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
        return new Main.Launch(new LocalProfile.Options(port, claimTtl, health, balancer, launch, dataDir, dynamo, sfn,
                List.copyOf(principals), o.clock(), o.workflowWait(), o.home(), o.interceptors(), localToken,
                allowUnsignedPayload, keepTemp, log, new LocalProfile.Limits(maxPerInstance, connectionInfoCheck,
                        expectedGameServers, heartbeatSeconds, claimsPerSecond, true,
                        lifetimes(maxLifetime, guaranteedLifetime)), strictSigning, regions.get(0)), interruptions, demo,
                agents, regions);
    }

    /** The two lifetimes as the stage's settings take them, refused (a guarantee not below the maximum) by their flags. */
    private static Lifetimes lifetimes(Duration max, Duration guaranteed) {
        Map<Settings.Setting, String> hours = Map.of(Settings.MAX_INSTANCE_LIFETIME_HOURS, Lifetimes.hours(max),
                Settings.GUARANTEED_SERVER_LIFETIME_HOURS, Lifetimes.hours(guaranteed));
        return Lifetimes.of(hours::get, s -> s.equals(Settings.MAX_INSTANCE_LIFETIME_HOURS) ? MAX_LIFETIME_FLAG
                : GUARANTEED_LIFETIME_FLAG);
    }

    /** A duration such as {@code 10m}: a whole number of seconds, minutes, hours or days ({@code 0}: none). */
    private static Duration duration(String flag, String value) {
        Matcher m = DURATION.matcher(value);
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

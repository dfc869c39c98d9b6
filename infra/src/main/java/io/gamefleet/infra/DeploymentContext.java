package io.gamefleet.infra;

import io.gamefleet.catalog.Lifetimes;
import io.gamefleet.catalog.Schedule;
import io.gamefleet.catalog.Throttles;
import io.gamefleet.catalog.Settings;
import io.gamefleet.catalog.Settings.Setting;
import io.gamefleet.catalog.Triggers;
import io.gamefleet.catalog.Workflows;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.constructs.Node;

/**
 * The deployer's choices, read once from CDK context ({@code cdk.json} or {@code -c key=value})
 * and checked before any resource is built: a bad value fails synthesis with the key's name.
 *
 * <p>The function settings come from {@link Settings#ALL} (name, default, meaning): every setting
 * except those the stack derives itself ({@link #DERIVED}) is a context key named by
 * {@link #contextKey(Setting)}, so a setting added to the catalog is tunable at once.
 */
public final class DeploymentContext {
    public static final String LAMBDA_JAR = "lambdaJar";
    /** The agent's shaded jar, published as an S3 asset that instances install. */
    public static final String AGENT_JAR = "agentJar";
    /** Days the agents' log archive keeps an object (S3 lifecycle expiry). */
    public static final String AGENT_LOG_RETENTION_DAYS = "agentLogRetentionDays";
    public static final String REMOVAL_POLICY = "removalPolicy";
    public static final String LOG_RETENTION_DAYS = "logRetentionDays";
    /** The fleet the throttles are sized for: context keys of the catalog's settings ({@link Throttles}). */
    public static final String EXPECTED_GAME_SERVERS = contextKey(Settings.EXPECTED_GAME_SERVERS);
    public static final String HEARTBEAT_SECONDS = contextKey(Settings.HEARTBEAT_SECONDS);
    public static final String CLAIMS_PER_SECOND = contextKey(Settings.CLAIMS_PER_SECOND);
    public static final String ALARM_EMAIL = "alarmEmail";
    public static final String STAGE = "stage";
    public static final String SNAP_START = "snapStart";
    public static final String TRACING = "tracing";
    /** Comma-separated origins (scheme://host[:port]) whose pages may call the API: the console's. */
    public static final String CONSOLE_ORIGINS = "consoleOrigins";
    /** The stack serves the console itself, behind CloudFront, with Cognito sign-in ({@link ConsoleSite}). */
    public static final String CONSOLE = "console";
    /** The console's built files (Vite's dist/) that the stack serves. */
    public static final String CONSOLE_DIST = "consoleDist";
    /** The hosted sign-in's domain prefix (<prefix>.auth.<region>.amazoncognito.com), unique in the region. */
    public static final String CONSOLE_DOMAIN_PREFIX = "consoleDomainPrefix";
    /** Instance profiles, besides the stack's own, that a group's launch template may name (ARNs, comma-separated). */
    public static final String INSTANCE_PROFILE_ARNS = "instanceProfileArns";
    /** The roles of those profiles, which the scaling functions may pass (iam:PassRole; ARNs, comma-separated). */
    public static final String INSTANCE_ROLE_ARNS = "instanceRoleArns";
    /** The crash-loop alarm: this many crashed processes (the agents' reports, the stage over) ... */
    public static final String CRASH_LOOP_CRASHES = "crashLoopCrashes";
    /** ... within this many minutes. */
    public static final String CRASH_LOOP_MINUTES = "crashLoopMinutes";
    /** The stage's peers in other regions, which CreateSession and ListQosServers reach ({@link PeerRegion}). */
    public static final String PEER_REGIONS = "peerRegions";
    /** Container groups: the stack adds an ECS cluster and what its tasks and functions need ({@link GameServerContainers}). */
    public static final String CONTAINERS = "containers";
    /** The agent's image in ECR, the sidecar of every task; required with containers=true. */
    public static final String AGENT_IMAGE = "agentImage";
    /** The VPC of the tasks' security group; required with containers=true. */
    public static final String CONTAINER_VPC_ID = "containerVpcId";
    /** The subnets tasks run in unless a group names its own (comma-separated); required with containers=true. */
    public static final String CONTAINER_SUBNETS = "containerSubnets";
    /** The game servers' ports in the tasks' security group (a port or a range, TCP and UDP). */
    public static final String CONTAINER_GAME_PORTS = "containerGamePorts";
    /** EC2 capacity for container groups: the instance types of its Auto Scaling group ({@link ContainerInstances}). */
    public static final String CONTAINER_INSTANCE_TYPES = "containerInstanceTypes";
    /** The instances kept running with no task to place. */
    public static final String CONTAINER_INSTANCES_MIN = "containerInstancesMin";
    /** The most instances ECS's managed scaling may run. */
    public static final String CONTAINER_INSTANCES_MAX = "containerInstancesMax";
    /** The first instances launched on-demand, every one above them Spot. */
    public static final String CONTAINER_INSTANCES_ON_DEMAND_BASE = "containerInstancesOnDemandBase";

    private static final java.util.regex.Pattern PROFILE_ARN =
            java.util.regex.Pattern.compile("^arn:aws[a-z-]*:iam::\\d{12}:instance-profile/[\\w+=,.@/-]+$");
    static final java.util.regex.Pattern ROLE_ARN =
            java.util.regex.Pattern.compile("^arn:aws[a-z-]*:iam::\\d{12}:role/[\\w+=,.@/-]+$");

    static final String DEFAULT_STAGE = "prod";

    /** The agent's example game port range (docs/agent.md's {@code ports}). */
    static final String DEFAULT_CONTAINER_GAME_PORTS = "7777-7780";
    /** Nothing runs, and nothing is paid for, while no task needs an instance. */
    static final int DEFAULT_CONTAINER_INSTANCES_MIN = 0;
    static final int DEFAULT_CONTAINER_INSTANCES_MAX = 10;
    /** The first instance on-demand: a small fleet's games are not all on Spot. */
    static final int DEFAULT_CONTAINER_INSTANCES_ON_DEMAND_BASE = 1;

    static final String DEFAULT_REMOVAL_POLICY = "retain";
    static final int DEFAULT_LOG_RETENTION_DAYS = 30;
    static final int DEFAULT_AGENT_LOG_RETENTION_DAYS = 30;
    /**
     * One process slot crash-looping at the agent's backoff (1 s doubling to 60 s) crashes about 15
     * times in its first 10 minutes; occasional crashes across a fleet stay well below.
     */
    static final int DEFAULT_CRASH_LOOP_CRASHES = 20;
    static final int DEFAULT_CRASH_LOOP_MINUTES = 10;

    /**
     * Settings the stack sets itself: the account (from the stack), the workflow ARNs (from the
     * state machines), the caller roles' ARNs (from the roles it creates), the Auto Scaling groups'
     * prefix (from the stage) and the page-token HMAC key (a generated secret, never a context value).
     */
    static final Set<Setting> DERIVED = derived();

    /** The settings a deployer tunes through context, in catalog order. */
    public static final List<Setting> CONTEXT_SETTINGS = Settings.ALL.stream()
            .filter(s -> !DERIVED.contains(s)).toList();

    /** Settings that are on or off. */
    static final Set<Setting> SWITCHES = Set.of(Settings.CONNECTION_INFO_CHECK);

    /** Settings in hours, a fraction allowed, whose defaults are whole ({@link Lifetimes}). */
    static final Set<Setting> HOURS = Set.of(Settings.MAX_INSTANCE_LIFETIME_HOURS, Settings.GUARANTEED_SERVER_LIFETIME_HOURS);

    /** CloudWatch Logs' retention periods in days, in the order of CDK's {@link RetentionDays}. */
    private static final int[] RETENTION_PERIODS = {1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731,
            1096, 1827, 2192, 2557, 2922, 3288, 3653};

    private final Node node;

    DeploymentContext(Node node) {
        this.node = node;
    }

    /** SnapStart: where Lambda has it (auto), everywhere (on: fails in regions without), or nowhere (off). */
    enum SnapStart { AUTO, ON, OFF }

    SnapStart snapStart() {
        String value = string(SNAP_START, "auto");
        try {
            return SnapStart.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("context " + SNAP_START + " must be auto, on or off, not " + value);
        }
    }

    /** X-Ray tracing of the functions and the state machines. */
    boolean tracing() {
        return bool(TRACING, true);
    }

    /** The deployer's instance profiles and their roles, beside the stack's own (see {@link LaunchAllowance}). */
    LaunchAllowance launchAllowance() {
        return new LaunchAllowance(arns(INSTANCE_PROFILE_ARNS, PROFILE_ARN, "instance profile"),
                arns(INSTANCE_ROLE_ARNS, ROLE_ARN, "role"));
    }

    /** A list of ARNs: a JSON array in cdk.json, or a comma-separated string (-c key=a,b). */
    private List<String> arns(String key, java.util.regex.Pattern shape, String what) {
        Object value = node.tryGetContext(key);
        List<String> arns = new java.util.ArrayList<>();
        if (value instanceof List<?> list) {
            list.forEach(v -> arns.add(String.valueOf(v).trim()));
        } else if (value != null) {
            for (String v : String.valueOf(value).split(",")) {
                if (!v.isBlank()) {
                    arns.add(v.trim());
                }
            }
        }
        for (String arn : arns) {
            if (!shape.matcher(arn).matches()) {
                throw new IllegalArgumentException("context " + key + " must list IAM " + what + " ARNs, not " + arn);
            }
        }
        return List.copyOf(arns);
    }

    /**
     * The peer stages ({@link PeerRegion#parse}), none by default. A CreateSession may try each in
     * turn, each within {@link Settings#PEER_TIMEOUT_MILLIS}: all of them together must leave the
     * API functions' timeout room for the home's own work, so they get at most half of it.
     */
    List<PeerRegion> peerRegions() {
        List<PeerRegion> peers = PeerRegion.parse(node.tryGetContext(PEER_REGIONS));
        if (peers.isEmpty()) {
            return peers;
        }
        long budget = Long.parseLong(settings().get(Settings.PEER_TIMEOUT_MILLIS));
        long room = Functions.API_TIMEOUT.toMilliseconds().longValue() / 2;
        if (budget < 1 || peers.size() * budget > room) {
            throw new IllegalArgumentException("context " + contextKey(Settings.PEER_TIMEOUT_MILLIS) + " must be 1 to "
                    + room / peers.size() + " (ms) with " + peers.size() + " peers: together they get at most half the API"
                    + " functions' " + Functions.API_TIMEOUT.toSeconds().intValue() + " s timeout, not " + budget);
        }
        return peers;
    }

    /** The stage every physical name carries (see {@link StageNames}). */
    StageNames names() {
        return new StageNames(string(STAGE, DEFAULT_STAGE));
    }

    /** The context key of a setting: its variable without GAMEFLEET_, in lower camel case. */
    public static String contextKey(Setting setting) {
        String[] words = setting.environmentVariable().replaceFirst("^GAMEFLEET_", "")
                .toLowerCase(Locale.ROOT).split("_");
        StringBuilder key = new StringBuilder(words[0]);
        for (int i = 1; i < words.length; i++) {
            key.append(Character.toUpperCase(words[i].charAt(0))).append(words[i].substring(1));
        }
        return key.toString();
    }

    /**
     * What the functions read from their environment: every context setting, a schedule's period
     * as EventBridge Scheduler runs it (whole minutes; the balancer sends its retiring notices a
     * period ahead).
     */
    Map<Setting, String> functionSettings() {
        Map<Setting, String> values = settings();
        for (Schedule schedule : Triggers.SCHEDULES) {
            values.put(schedule.rate(), Long.toString(60 * scheduleMinutes(schedule)));
        }
        return values;
    }

    /** How often a schedule runs: its period rounded up to whole minutes, EventBridge Scheduler's finest rate. */
    long scheduleMinutes(Schedule schedule) {
        return scheduleMinutes(settings().get(schedule.rate()));
    }

    /**
     * Every context setting's value, checked against the type of its default (a whole number for
     * whole-number defaults such as seconds, a number for decimal ones).
     */
    private Map<Setting, String> settings() {
        Map<Setting, String> values = new LinkedHashMap<>();
        for (Setting setting : CONTEXT_SETTINGS) {
            String key = contextKey(setting);
            String value = string(key, setting.defaultValue());
            if (HOURS.contains(setting)) {
                if (!isNumber(value) || Double.parseDouble(value) < 0) {
                    throw new IllegalArgumentException("context " + key + " must be a non-negative number of hours, not "
                            + value);
                }
            } else if (isWholeNumber(setting.defaultValue())) {
                if (!isWholeNumber(value) || Long.parseLong(value) < 0) {
                    throw new IllegalArgumentException("context " + key + " must be a non-negative whole number, not " + value);
                }
            } else if (isNumber(setting.defaultValue()) && (!isNumber(value) || Double.parseDouble(value) < 0)) {
                throw new IllegalArgumentException("context " + key + " must be a non-negative number, not " + value);
            } else if (SWITCHES.contains(setting) && !value.equals("on") && !value.equals("off")) {
                throw new IllegalArgumentException("context " + key + " must be on or off, not " + value);
            }
            values.put(setting, value);
        }
        // A guaranteed lifetime not below the maximum would leave no instance taking claims.
        Lifetimes.of(values::get, s -> "context " + contextKey(s));
        return values;
    }

    /** A rate in seconds as EventBridge Scheduler's whole minutes: rounded up, at least one. */
    static long scheduleMinutes(String seconds) {
        long s = Long.parseLong(seconds);
        return Math.max(1, (s + 59) / 60);
    }

    RemovalPolicy removalPolicy() {
        String value = string(REMOVAL_POLICY, DEFAULT_REMOVAL_POLICY).toLowerCase(Locale.ROOT);
        return switch (value) {
            case "retain" -> RemovalPolicy.RETAIN;
            case "destroy" -> RemovalPolicy.DESTROY;
            default -> throw new IllegalArgumentException(
                    "context " + REMOVAL_POLICY + " must be retain or destroy, not " + value);
        };
    }

    RetentionDays logRetention() {
        int days = integer(LOG_RETENTION_DAYS, DEFAULT_LOG_RETENTION_DAYS);
        for (int i = 0; i < RETENTION_PERIODS.length; i++) {
            if (RETENTION_PERIODS[i] == days) {
                return RetentionDays.values()[i];
            }
        }
        throw new IllegalArgumentException("context " + LOG_RETENTION_DAYS + " must be one of CloudWatch Logs' periods "
                + java.util.Arrays.toString(RETENTION_PERIODS) + ", not " + days);
    }

    /** How long the log archive keeps the agents' logs: at least a day (S3 expires objects in whole days). */
    int agentLogRetentionDays() {
        int days = integer(AGENT_LOG_RETENTION_DAYS, DEFAULT_AGENT_LOG_RETENTION_DAYS);
        if (days == 0) {
            throw new IllegalArgumentException("context " + AGENT_LOG_RETENTION_DAYS + " must be at least 1 (days)");
        }
        return days;
    }

    /**
     * The stage's throttles ({@link Throttles}), from the context settings that size them: the
     * functions get the same settings, and hold each instance to its share of these.
     */
    Throttles throttling() {
        Map<Setting, String> values = settings();
        for (Setting setting : List.of(Settings.HEARTBEAT_SECONDS, Settings.EXPECTED_GAME_SERVERS,
                Settings.MAX_GAME_SERVERS_PER_INSTANCE)) {
            if (Long.parseLong(values.get(setting)) < 1) {
                throw new IllegalArgumentException("context " + contextKey(setting) + " must be at least 1");
            }
        }
        return Throttles.of(values::get);
    }

    /** The crash-loop alarm's threshold: {@code crashes} crashed processes within {@code minutes}. */
    record CrashLoop(int crashes, int minutes) {}

    /** At least one crash, within 1 to 1,440 minutes (an alarm's period is at most a day). */
    CrashLoop crashLoop() {
        int crashes = integer(CRASH_LOOP_CRASHES, DEFAULT_CRASH_LOOP_CRASHES);
        int minutes = integer(CRASH_LOOP_MINUTES, DEFAULT_CRASH_LOOP_MINUTES);
        if (crashes < 1) {
            throw new IllegalArgumentException("context " + CRASH_LOOP_CRASHES + " must be at least 1 (crashes)");
        }
        if (minutes < 1 || minutes > 1440) {
            throw new IllegalArgumentException("context " + CRASH_LOOP_MINUTES + " must be 1 to 1440 (minutes), not "
                    + minutes);
        }
        return new CrashLoop(crashes, minutes);
    }

    Optional<String> alarmEmail() {
        Object value = node.tryGetContext(ALARM_EMAIL);
        if (value == null || value.toString().isBlank()) {
            return Optional.empty();
        }
        String email = value.toString().trim();
        if (!email.matches("[^@\\s]+@[^@\\s]+\\.[^@\\s]+")) {
            throw new IllegalArgumentException("context " + ALARM_EMAIL + " must be an email address, not " + email);
        }
        return Optional.of(email);
    }

    /**
     * The origins allowed to call the API from a browser (CORS), such as the console's; none by
     * default. Each is scheme://host[:port], without a path: no wildcard.
     */
    List<String> consoleOrigins() {
        String value = string(CONSOLE_ORIGINS, "");
        List<String> origins = java.util.Arrays.stream(value.split(",")).map(String::trim).filter(o -> !o.isEmpty()).toList();
        for (String origin : origins) {
            if (!origin.matches("https?://[A-Za-z0-9.-]+(:\\d{1,5})?")) {
                throw new IllegalArgumentException("context " + CONSOLE_ORIGINS + " must list origins such as "
                        + "https://console.example.com or http://localhost:5173, comma-separated, not " + origin);
            }
        }
        return origins;
    }

    /** Whether the stack serves the console (context {@code console}, false by default). */
    boolean console() {
        return bool(CONSOLE, false);
    }

    /** The container groups' options where context {@code containers} is true (false by default). */
    Optional<ContainerOptions> containers() {
        if (!bool(CONTAINERS, false)) {
            if (!string(CONTAINER_INSTANCE_TYPES, "").isEmpty()) {
                throw new IllegalArgumentException("context " + CONTAINER_INSTANCE_TYPES + " needs " + CONTAINERS
                        + "=true: the instances are the container groups' capacity");
            }
            return Optional.empty();
        }
        List<String> subnets = java.util.Arrays.stream(string(CONTAINER_SUBNETS, "").split(",")).map(String::trim)
                .filter(s -> !s.isEmpty()).toList();
        return Optional.of(new ContainerOptions(string(AGENT_IMAGE, ""), string(CONTAINER_VPC_ID, ""), subnets,
                ContainerOptions.ports(string(CONTAINER_GAME_PORTS, DEFAULT_CONTAINER_GAME_PORTS))));
    }

    /** The container groups' EC2 capacity where context {@code containerInstanceTypes} names instance types. */
    Optional<ContainerInstanceOptions> containerInstances() {
        List<String> types = java.util.Arrays.stream(string(CONTAINER_INSTANCE_TYPES, "").split(",")).map(String::trim)
                .filter(t -> !t.isEmpty()).toList();
        if (types.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ContainerInstanceOptions(types,
                integer(CONTAINER_INSTANCES_MIN, DEFAULT_CONTAINER_INSTANCES_MIN),
                integer(CONTAINER_INSTANCES_MAX, DEFAULT_CONTAINER_INSTANCES_MAX),
                integer(CONTAINER_INSTANCES_ON_DEMAND_BASE, DEFAULT_CONTAINER_INSTANCES_ON_DEMAND_BASE)));
    }

    /** The console's built files: context {@code consoleDist}, or the folder the console module's build fills. */
    Path consoleDist() {
        return LambdaJar.resolveConsole(string(CONSOLE_DIST, LambdaJar.defaultConsolePath()), CONSOLE_DIST);
    }

    /**
     * The hosted sign-in's domain prefix: context {@code consoleDomainPrefix}, else none, and the
     * stack makes {@code gamefleet-<stage>-<account id>}. Cognito's rules: lower-case letters,
     * digits and hyphens, not starting or ending with a hyphen, without aws, amazon or cognito.
     */
    Optional<String> consoleDomainPrefix() {
        String value = string(CONSOLE_DOMAIN_PREFIX, "");
        if (value.isEmpty()) {
            return Optional.empty();
        }
        if (!value.matches("[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?") || value.matches(".*(aws|amazon|cognito).*")) {
            throw new IllegalArgumentException("context " + CONSOLE_DOMAIN_PREFIX + " must be 1 to 63 lower-case letters,"
                    + " digits or inner hyphens, without aws, amazon or cognito, not " + value);
        }
        return Optional.of(value);
    }

    /** The shaded functions jar: context {@code lambdaJar}, or the one {@code mvn install} builds. */
    Path lambdaJar() {
        return LambdaJar.resolve(string(LAMBDA_JAR, LambdaJar.defaultPath()), LAMBDA_JAR);
    }

    /** The agent's shaded jar: context {@code agentJar}, or the one the agent module's build makes. */
    Path agentJar() {
        return LambdaJar.resolveAgent(string(AGENT_JAR, LambdaJar.defaultAgentPath()), AGENT_JAR);
    }

    private String string(String key, String defaultValue) {
        Object value = node.tryGetContext(key);
        return value == null || String.valueOf(value).isBlank() ? defaultValue : String.valueOf(value).trim();
    }

    private boolean bool(String key, boolean defaultValue) {
        String value = string(key, Boolean.toString(defaultValue));
        if (!value.equals("true") && !value.equals("false")) {
            throw new IllegalArgumentException("context " + key + " must be true or false, not " + value);
        }
        return Boolean.parseBoolean(value);
    }

    private int integer(String key, int defaultValue) {
        String value = string(key, Integer.toString(defaultValue));
        try {
            int parsed = Integer.parseInt(value);
            if (parsed < 0) {
                throw new NumberFormatException();
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("context " + key + " must be a non-negative whole number, not " + value, e);
        }
    }

    private static boolean isWholeNumber(String value) {
        return value.matches("-?\\d{1,18}");
    }

    private static boolean isNumber(String value) {
        try {
            return Double.isFinite(Double.parseDouble(value));
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static Set<Setting> derived() {
        Set<Setting> derived = Workflows.ALL.stream().map(w -> w.arnSetting()).collect(Collectors.toSet());
        derived.add(Settings.ACCOUNT_ID);
        derived.add(Settings.PAGE_TOKEN_KEY);
        derived.add(Settings.PAGE_TOKEN_SECRET_ARN);
        derived.add(Settings.SCALING_GROUP_PREFIX);
        derived.add(Settings.STAGE);
        derived.add(Settings.INSTANCE_PROFILE_ARNS);
        for (io.gamefleet.catalog.Role role : io.gamefleet.catalog.Role.values()) {
            derived.add(Settings.roleArn(role));
            derived.add(Settings.roleId(role));
        }
        derived.add(Settings.VIEWER_ROLE_ARN);
        derived.add(Settings.VIEWER_ROLE_ID);
        return Set.copyOf(derived);
    }
}

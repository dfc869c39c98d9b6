package io.gamefleet.local;

import static io.gamefleet.catalog.LocalAccount.ACCOUNT_ID;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.adapters.dynamodb.TableSetup;
import io.gamefleet.adapters.ecs.EcsServiceCompute;
import io.gamefleet.catalog.AgentSidecar;
import io.gamefleet.catalog.FunctionAccess;
import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.catalog.Lifetimes;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Settings;
import io.gamefleet.catalog.TableDefinition;
import io.gamefleet.catalog.Tables;
import io.gamefleet.catalog.Throttles;
import io.gamefleet.catalog.Triggers;
import io.gamefleet.catalog.WorkflowDefinition;
import io.gamefleet.catalog.Workflows;
import io.gamefleet.domain.LaunchTemplates;
import io.gamefleet.domain.WorkflowReconciler;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.local.agents.AgentTemplate;
import io.gamefleet.local.agents.InstanceAgents;
import io.gamefleet.local.ecs.ProcessTaskLauncher;
import io.gamefleet.local.ecs.SimulatedEcs;
import io.gamefleet.local.ecs.TaskKeys;
import io.gamefleet.local.edge.EdgeServer;
import io.gamefleet.local.edge.Functions;
import io.gamefleet.local.edge.LogLevel;
import io.gamefleet.local.edge.Outage;
import io.gamefleet.local.edge.Principal;
import io.gamefleet.local.edge.Principals;
import io.gamefleet.local.edge.TableGrants;
import io.gamefleet.local.fleet.EventRouter;
import io.gamefleet.local.fleet.FleetMetrics;
import io.gamefleet.local.fleet.Scheduler;
import io.gamefleet.local.fleet.SimulatedFleet;
import io.gamefleet.local.fleet.Timeline;
import io.gamefleet.local.process.ChildProcess;
import io.gamefleet.local.process.Emulators;
import io.gamefleet.local.process.LocalTokenHeader;
import io.gamefleet.local.process.Supervisor;
import io.gamefleet.wiring.AwsServices;
import io.gamefleet.wiring.Services;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The whole system on one machine: dynoxide (or a given DynamoDB endpoint), the Step Functions
 * sidecar (or a given endpoint), the edge server with every handler in-process, the simulated
 * fleet and the scheduler. The handlers get an environment exactly like the one CDK gives them in AWS.
 * It is one region's; {@link LocalRegions} runs several, peered.
 */
public final class LocalProfile implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * What to run; see docs/local-profile.md's table of {@code local/run} flags. {@code localToken}
     * opens the edge's unsigned paths that change state; {@code keepTemp} keeps the run's folder
     * of logs; {@code log} says how much of the log goes to standard error ({@link LogLevel}); {@code strictSigning}
     * takes on the API only signatures for {@code execute-api}, as API Gateway does (off: also
     * {@code gamelift}, what the SDKs' GameLift clients sign for with only their endpoint changed);
     * {@code region} is the AWS region the profile is (its functions' AWS_REGION, what its edge
     * checks signatures for, its ARNs and zones).
     */
    public record Options(int port, Duration claimTtl, Duration healthTimeout, Duration balancerRate,
            Duration instanceLaunch, Optional<Path> dataDir, Optional<URI> dynamoDbEndpoint,
            Optional<URI> stepFunctionsEndpoint, List<Principal> principals, Clock clock,
            Duration workflowWait, Path home, List<ExecutionInterceptor> interceptors, String localToken,
            boolean allowUnsignedPayload, boolean keepTemp, LogLevel log, Limits limits,
            boolean strictSigning, String region) {

        /**
         * A new token, UNSIGNED-PAYLOAD refused, the folder removed at the end, no access log, the
         * stage's default limits without the edge's route throttles (their buckets would never
         * fill again on a clock that stands still), and the region {@link LocalAccount#REGION}.
         */
        public Options(int port, Duration claimTtl, Duration healthTimeout, Duration balancerRate,
                Duration instanceLaunch, Optional<Path> dataDir, Optional<URI> dynamoDbEndpoint,
                Optional<URI> stepFunctionsEndpoint, List<Principal> principals, Clock clock,
                Duration workflowWait, Path home, List<ExecutionInterceptor> interceptors) {
            this(port, claimTtl, healthTimeout, balancerRate, instanceLaunch, dataDir, dynamoDbEndpoint,
                    stepFunctionsEndpoint, principals, clock, workflowWait, home, interceptors,
                    EdgeServer.newLocalToken(), false, false, LogLevel.QUIET, Limits.defaults().withEdgeThrottles(false),
                    false, LocalAccount.REGION);
        }

        public Options withLimits(Limits given) {
            return new Options(port, claimTtl, healthTimeout, balancerRate, instanceLaunch, dataDir, dynamoDbEndpoint,
                    stepFunctionsEndpoint, principals, clock, workflowWait, home, interceptors, localToken,
                    allowUnsignedPayload, keepTemp, log, given, strictSigning, region);
        }

        /** The same, for the profile of {@code region} of a run, on {@code port}, its tables kept in {@code dataDir} if any. */
        public Options forRegion(String region, int port, Optional<Path> dataDir) {
            return new Options(port, claimTtl, healthTimeout, balancerRate, instanceLaunch, dataDir, dynamoDbEndpoint,
                    stepFunctionsEndpoint, principals, clock, workflowWait, home, interceptors, localToken,
                    allowUnsignedPayload, keepTemp, log, limits, strictSigning, region);
        }

        /** local/run's: the stage's default limits, the edge throttling as API Gateway does. */
        public static Options defaults() {
            return new Options(4590, Duration.ofSeconds(60), Duration.ofSeconds(180), Duration.ofSeconds(60),
                    Duration.ofSeconds(2), Optional.empty(), Optional.empty(), Optional.empty(),
                    List.of(Principals.builtInAdmin()), Clock.systemUTC(), Duration.ofSeconds(1), Emulators.home(),
                    List.of()).withLimits(Limits.defaults());
        }
    }

    /**
     * What the stage lets one instance do, and the fleet its throttles are sized for: the settings
     * of the same names in AWS (docs/deploy.md), locally flags (docs/local-profile.md).
     * {@code edgeThrottles}: whether the edge applies the stage's route throttles as API Gateway
     * does ({@code local/run} does). {@code lifetime}: how long an instance lives, and how long a
     * claimed game server is guaranteed.
     */
    public record Limits(int maxGameServersPerInstance, boolean connectionInfoCheck, int expectedGameServers,
            int heartbeatSeconds, int claimsPerSecond, boolean edgeThrottles, Lifetimes lifetime) {
        public Limits {
            throttles(maxGameServersPerInstance, expectedGameServers, heartbeatSeconds, claimsPerSecond); // refused if bad
        }

        /** The catalog's defaults, and the edge throttling. */
        public static Limits defaults() {
            Throttles d = Throttles.of(Settings.Setting::defaultValue);
            return new Limits(d.maxGameServersPerInstance(),
                    Settings.isOn(Settings.CONNECTION_INFO_CHECK, Settings.CONNECTION_INFO_CHECK.defaultValue()),
                    d.expectedGameServers(), d.heartbeatSeconds(), d.claimsPerSecond(), true, Lifetimes.defaults());
        }

        public Limits withEdgeThrottles(boolean on) {
            return new Limits(maxGameServersPerInstance, connectionInfoCheck, expectedGameServers, heartbeatSeconds,
                    claimsPerSecond, on, lifetime);
        }

        public Limits withMaxGameServersPerInstance(int max) {
            return new Limits(max, connectionInfoCheck, expectedGameServers, heartbeatSeconds, claimsPerSecond,
                    edgeThrottles, lifetime);
        }

        public Limits withLifetime(Lifetimes given) {
            return new Limits(maxGameServersPerInstance, connectionInfoCheck, expectedGameServers, heartbeatSeconds,
                    claimsPerSecond, edgeThrottles, given);
        }

        /** The stage's throttles these size. */
        public Throttles throttles() {
            return throttles(maxGameServersPerInstance, expectedGameServers, heartbeatSeconds, claimsPerSecond);
        }

        private static Throttles throttles(int max, int expected, int heartbeat, int claims) {
            return new Throttles(expected, heartbeat, claims, max);
        }

        /** As the CDK app gives them to the functions (the lifetimes in hours, a fraction for minutes). */
        Map<Settings.Setting, String> settings() {
            return Map.of(Settings.MAX_GAME_SERVERS_PER_INSTANCE, Integer.toString(maxGameServersPerInstance),
                    Settings.CONNECTION_INFO_CHECK, connectionInfoCheck ? "on" : "off",
                    Settings.EXPECTED_GAME_SERVERS, Integer.toString(expectedGameServers),
                    Settings.HEARTBEAT_SECONDS, Integer.toString(heartbeatSeconds),
                    Settings.CLAIMS_PER_SECOND, Integer.toString(claimsPerSecond),
                    Settings.MAX_INSTANCE_LIFETIME_HOURS, Lifetimes.hours(lifetime.maxInstance()),
                    Settings.GUARANTEED_SERVER_LIFETIME_HOURS, Lifetimes.hours(lifetime.guaranteedServer()));
        }
    }

    /** The simulated ECS's clusters: ECS's default one, and the one the stack's container groups run in. */
    public static final String DEFAULT_CLUSTER = "default";
    public static final String CONTAINER_CLUSTER = "gamefleet-local";
    /** The agent image container groups' tasks get here, which runs the repository's agent jar ({@link #agentStandIn}). */
    public static final String AGENT_IMAGE = "gamefleet/agent:local";

    /** What an emulator takes and AWS refuses: nothing here can reach an AWS account. */
    private static final AwsCredentialsProvider CREDENTIALS =
            StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"));

    private final List<AutoCloseable> resources = new ArrayList<>();
    private Options options;
    private Path logs;
    private String linePrefix = "";
    private Optional<ChildProcess> dynoxide = Optional.empty();
    private EdgeServer edge;
    private SimulatedFleet fleet;
    private SimulatedEcs ecs;
    private InstanceAgents agents;
    private Services services;
    private Services balancerServices;
    private final List<String> deniedCalls = new CopyOnWriteArrayList<>();
    private Scheduler scheduler;
    private Supervisor supervisor;
    private List<ChildProcess> children = List.of();

    private LocalProfile() {}

    /**
     * What a profile knows of the other regions of its run ({@link LocalRegions}): each one's
     * region and API, the MATCHMAKER principal that signs the calls to them (which every region's
     * edge admits), and every region's outage (this one's included), which its edge's
     * {@code /_local/regions/} paths start and end.
     */
    record Run(List<Peer> peers, Optional<Principal> matchmaker, Map<String, Outage> outages) {
        /** A profile on its own. */
        static Run alone(LocalProfile profile) {
            return new Run(List.of(), Optional.empty(), Map.of(profile.region(), profile.edge.outage()));
        }
    }

    /** Another region of the run: its region, and its edge's URL, its API. */
    record Peer(String region, URI apiUrl) {}

    public static LocalProfile start(Options options) {
        LocalProfile profile = bind(options, "");
        profile.serve(Run.alone(profile));
        return profile;
    }

    /**
     * The first half of a start: dynoxide runs and the edge listens (serving nothing but
     * "starting" yet), so that its URL is known to the run's other regions before any of them
     * serves. {@code linePrefix} starts each line the profile prints of its own (its access log,
     * its supervision): the region, in a run of several.
     */
    static LocalProfile bind(Options options, String linePrefix) {
        LocalProfile profile = new LocalProfile();
        profile.linePrefix = linePrefix;
        try {
            profile.bindAll(options);
            return profile;
        } catch (IOException e) {
            profile.close();
            throw new IllegalStateException(e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            profile.close();
            throw e;
        }
    }

    /** The second half: everything else, peered with {@code run}'s other regions. Closed if it fails. */
    void serve(Run run) {
        try {
            serveAll(run);
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    private void bindAll(Options o) throws IOException {
        options = o;
        ReadableLog.install(o.clock(), System.err, o.log());
        this.logs = Files.createTempDirectory("gamefleet-local-");
        dynoxide = o.dynamoDbEndpoint().isPresent() ? Optional.empty()
                : Optional.of(closing(Emulators.dynamoDb(o.home(), o.dataDir(), logs.toFile())));
        Optional<Consumer<String>> requestLines = o.log().logsRequests()
                ? Optional.of(line -> System.err.println(linePrefix + line)) : Optional.empty();
        edge = closing(new EdgeServer(new EdgeServer.Settings(o.region(), o.port(), o.localToken(),
                o.allowUnsignedPayload(), requestLines, o.log(),
                o.limits().edgeThrottles() ? Optional.of(o.limits().throttles()) : Optional.empty(),
                o.strictSigning()), o.principals(),
                o.clock()));
    }

    private void serveAll(Run run) {
        Options o = options;
        File logs = this.logs.toFile();
        URI dynamoDb = o.dynamoDbEndpoint().orElseGet(() -> dynoxide.orElseThrow().endpoint());
        Optional<ChildProcess> sidecar = o.stepFunctionsEndpoint().isPresent() ? Optional.empty()
                : Optional.of(closing(Emulators.stepFunctions(o.home(), logs, endpoint(), o.localToken(),
                        o.workflowWait(), o.region())));
        URI stepFunctions = o.stepFunctionsEndpoint().orElseGet(() -> sidecar.orElseThrow().endpoint());
        // The profile's own sidecar takes calls only with this run's token.
        List<ExecutionInterceptor> sidecarToken = sidecar.<ExecutionInterceptor>map(s -> new LocalTokenHeader(s.endpoint(),
                o.localToken())).stream().toList();
        List<ExecutionInterceptor> interceptors = new ArrayList<>(o.interceptors());
        interceptors.addAll(sidecarToken);
        interceptors.add(new LocalTokenHeader(endpoint(), o.localToken()));

        fleet = new SimulatedFleet(o.clock(), o.instanceLaunch(), o.region(), ACCOUNT_ID,
                o.limits().lifetime().maxInstance());
        // Its tasks' processes are ended with the profile, before what they call.
        ecs = closing(new SimulatedEcs(o.clock(), o.instanceLaunch(), o.region(), ACCOUNT_ID,
                Set.of(DEFAULT_CLUSTER, CONTAINER_CLUSTER), new ProcessTaskLauncher(this.logs.resolve("tasks"),
                        taskKeys(), Map.of(AGENT_IMAGE, this::agentStandIn)), endpoint()));
        Map<String, String> environment = environment(o, dynamoDb);
        // Container groups' services, as a stack deployed with containers=true names them, in the simulated ECS.
        environment.put("AWS_ENDPOINT_URL_ECS", endpoint().toString());
        environment.put(Settings.CONTAINER_CLUSTER.environmentVariable(), CONTAINER_CLUSTER);
        environment.put(Settings.CONTAINER_SUBNETS.environmentVariable(), "subnet-local");
        environment.put(Settings.CONTAINER_SECURITY_GROUP.environmentVariable(), "sg-local");
        environment.put(Settings.AGENT_IMAGE.environmentVariable(), AGENT_IMAGE);
        environment.put(Settings.TASK_ROLE_ARN.environmentVariable(), LocalAccount.roleArn(Role.GAME_SERVER));
        environment.put(Settings.TASK_EXECUTION_ROLE_ARN.environmentVariable(),
                "arn:aws:iam::" + ACCOUNT_ID + ":role/gamefleet-local-task-execution");
        environment.put(Settings.CONTAINER_LOG_GROUP.environmentVariable(), "/gamefleet-local/containers");
        // The functions post the push channel's notices to the edge, signed as a Lambda role would sign them.
        environment.put(Settings.PUSH_ENDPOINT.environmentVariable(), endpoint().toString());
        // Their standby requests go to the edge's Lambda Invoke path, as they go to Lambda in AWS.
        environment.put(Settings.STANDBY_FUNCTION.environmentVariable(), Triggers.BALANCER.functionName());
        environment.put("AWS_ENDPOINT_URL_LAMBDA", endpoint().toString());
        Principal functionsPrincipal = Principals.functions();
        createTables(dynamoDb, o.region());
        environment.putAll(deployStateMachines(stepFunctions, sidecarToken, o.region()));
        // The peers, as the CDK app gives them to the functions that call them: no role to assume here,
        // their calls are signed with the run's MATCHMAKER principal, which every region's edge admits.
        Map<String, String> peeredEnvironment = new HashMap<>(environment);
        Optional<AwsCredentialsProvider> peerCredentials = run.matchmaker().map(m -> {
            edge.principals().add(m);
            return StaticCredentialsProvider.create(AwsBasicCredentials.create(m.accessKeyId(), m.secretAccessKey()));
        });
        if (!run.peers().isEmpty()) {
            peeredEnvironment.put(Settings.PEERS.environmentVariable(), peersSetting(run.peers()));
        }
        Timeline timeline = new Timeline(o.clock());
        FleetMetrics metrics = new FleetMetrics(logs.toPath().resolve("metrics.log"), o.clock(), fleet, timeline);
        AwsCredentialsProvider functionsCredentials = StaticCredentialsProvider.create(AwsBasicCredentials.create(
                functionsPrincipal.accessKeyId(), functionsPrincipal.secretAccessKey()));
        // The profile's own services, for its callers in this process; unrestricted.
        services = services(peeredEnvironment, metrics, functionsCredentials, interceptors, peerCredentials);
        // Each function on services of its own, as each is its own Lambda function, whose
        // DynamoDB calls are held to the grants its role has in AWS.
        Map<String, Services> byFunction = new ConcurrentHashMap<>();
        Functions functions = Functions.of(new FunctionRegistry(name -> byFunction.computeIfAbsent(name, n -> {
            List<ExecutionInterceptor> own = new ArrayList<>();
            own.add(new TableGrants(n, environment, this::denied));
            own.addAll(interceptors);
            boolean callsPeers = FunctionAccess.callsPeers(n);
            return services(callsPeers ? peeredEnvironment : environment, metrics, functionsCredentials, own,
                    callsPeers ? peerCredentials : Optional.empty());
        })));
        balancerServices = byFunction.get(Triggers.BALANCER.functionName());
        EventRouter events = new EventRouter(functions.eventRules(), timeline);
        fleet.sendEventsTo(events::deliver);
        ecs.sendEventsTo(events::deliver);
        scheduler = closing(new Scheduler(functions.schedulesByName(),
                Map.of("the simulated fleet", fleet::tick, "the simulated ECS", ecs::tick), timeline));

        List<Supervisor.Watched> watched = new ArrayList<>();
        // dynoxide keeps its tables in --data-dir, if given: then it can start again without loss.
        dynoxide.ifPresent(d -> watched.add(new Supervisor.Watched(d, o.dataDir().isPresent() ? Optional.empty()
                : Optional.of("Its tables were in memory and are lost, so the profile stops; with --data-dir it"
                        + " would have been started again with nothing lost"), () -> {})));
        // The sidecar's executions are lost with it: its state machines are created again, and
        // the workflows of the groups that were in the middle of one started again.
        sidecar.ifPresent(s -> watched.add(new Supervisor.Watched(s, Optional.empty(), () -> {
            deployStateMachines(stepFunctions, sidecarToken, o.region());
            reconcile(Duration.ZERO);
        })));
        Map<String, String> external = new LinkedHashMap<>();
        o.dynamoDbEndpoint().ifPresent(e -> external.put("dynamodb", e.toString()));
        o.stepFunctionsEndpoint().ifPresent(e -> external.put("stepfunctions", e.toString()));
        supervisor = closing(new Supervisor(watched, external, line -> System.err.println(linePrefix + line)));
        children = List.copyOf(watched.stream().map(Supervisor.Watched::child).toList());
        edge.serve(functions, events, scheduler, timeline, new EdgeServer.Instances(fleet, ecs, functionsPrincipal),
                supervisor::states, consoleDir(o.home()), run.outages());
        // Jetty endpoints of their own (the push channel is the edge's) register here, with
        // edge.addHandler(...), given what they need of this profile (services, the local token).
        // Groups kept in --data-dir (or in a given DynamoDB) whose workflow did not finish: a sidecar
        // of this run's own has no execution yet, so every one of them is started again now.
        reconcile(sidecar.isPresent() ? Duration.ZERO : WorkflowReconciler.GRACE);
        scheduler.start(o.balancerRate());
    }

    /** {@link Settings#PEERS}: each peer's Region and ApiUrl, no role (its calls are signed with the run's principal). */
    private static String peersSetting(List<Peer> peers) {
        ArrayNode list = new ObjectMapper().createArrayNode();
        peers.forEach(p -> list.addObject().put("Region", p.region()).put("ApiUrl", p.apiUrl().toString()));
        return list.toString();
    }

    /**
     * The simulated fleet has no launch templates: a group's is taken as given, with no instance
     * profile. {@code peerCredentials}: what the calls to the peers are signed with, if it calls them.
     */
    private Services services(Map<String, String> environment, FleetMetrics metrics,
            AwsCredentialsProvider credentials, List<ExecutionInterceptor> interceptors,
            Optional<AwsCredentialsProvider> peerCredentials) {
        AwsServices built = AwsServices.fromEnvironment(environment).clock(options.clock()).compute(fleet)
                .taskPublicAddresses(EcsServiceCompute.PublicAddresses.NONE)
                .launchTemplates(template -> new LaunchTemplates.Resolved(template, Optional.empty()))
                .metrics(metrics).metricsHistory(metrics).credentials(credentials).interceptors(interceptors);
        peerCredentials.ifPresent(built::peerCredentials);
        return built.build();
    }

    /** A DynamoDB call a function's role would not be allowed in AWS: said at once, and kept. */
    private void denied(String call) {
        deniedCalls.add(call);
        System.err.println(call);
    }

    /** As the balancer's schedule runs it in AWS, with that function's grants. */
    private void reconcile(Duration grace) {
        WorkflowReconciler.Report report = balancerServices.reconciler().reconcile(grace);
        if (!report.restarted().isEmpty() || !report.failed().isEmpty()) {
            System.out.println(linePrefix + "local profile: workflows started again for " + report.restarted()
                    + (report.failed().isEmpty() ? "" : "; put in ERROR: " + report.failed()));
        }
    }

    /** What {@code cdk deploy} gives the functions: their environment, but for the state machines' ARNs. */
    private static Map<String, String> environment(Options o, URI dynamoDb) {
        Map<String, String> environment = new HashMap<>();
        environment.put("AWS_REGION", o.region());
        environment.put("AWS_ENDPOINT_URL_DYNAMODB", dynamoDb.toString());
        environment.put(Settings.ACCOUNT_ID.environmentVariable(), ACCOUNT_ID);
        for (Role role : Role.values()) {
            environment.put(Settings.roleArn(role).environmentVariable(), LocalAccount.roleArn(role));
            environment.put(Settings.roleId(role).environmentVariable(), LocalAccount.roleId(role));
        }
        environment.put(Settings.CLAIM_TTL_SECONDS.environmentVariable(), Long.toString(o.claimTtl().toSeconds()));
        environment.put(Settings.HEALTH_TIMEOUT_SECONDS.environmentVariable(), Long.toString(o.healthTimeout().toSeconds()));
        environment.put(Settings.BALANCER_RATE_SECONDS.environmentVariable(), Long.toString(o.balancerRate().toSeconds()));
        // The pagination tokens' HMAC key, new each run (a deployment's is its stack's secret): a page token does not
        // outlive the run.
        environment.put(Settings.PAGE_TOKEN_KEY.environmentVariable(), EdgeServer.newLocalToken());
        o.limits().settings().forEach((setting, value) -> environment.put(setting.environmentVariable(), value));
        for (TableDefinition t : Tables.ALL) {
            environment.put(t.environmentVariable(), t.logicalName());
        }
        return environment;
    }

    /** The tables, as {@code cdk deploy} makes them (those there already are kept). */
    private static void createTables(URI dynamoDb, String region) {
        try (DynamoDbClient client = DynamoDbClient.builder().region(Region.of(region)).credentialsProvider(CREDENTIALS)
                .endpointOverride(dynamoDb).build()) {
            TableSetup.createAll(client, Tables.ALL, TableDefinition::logicalName);
        }
    }

    /** The state machines, as {@code cdk deploy} makes them; the variables that give their ARNs. */
    private static Map<String, String> deployStateMachines(URI stepFunctions, List<ExecutionInterceptor> interceptors,
            String region) {
        Map<String, String> environment = new HashMap<>();
        environment.put("AWS_ENDPOINT_URL_SFN", stepFunctions.toString());
        try (SfnClient sfn = SfnClient.builder().region(Region.of(region)).credentialsProvider(CREDENTIALS)
                .endpointOverride(stepFunctions).overrideConfiguration(c -> c.executionInterceptors(interceptors))
                .build()) {
            for (WorkflowDefinition w : Workflows.ALL) {
                Map<String, String> arns = new LinkedHashMap<>();
                w.steps().forEach(s -> arns.put(s.placeholder(),
                        "arn:aws:lambda:" + region + ":" + ACCOUNT_ID + ":function:" + s.functionName()));
                String arn = sfn.createStateMachine(c -> c.name(w.stateMachineName()).definition(w.aslWith(arns))
                        .roleArn("arn:aws:iam::" + ACCOUNT_ID + ":role/gamefleet-workflows")).stateMachineArn();
                environment.put(w.arnSetting().environmentVariable(), arn);
            }
        }
        return environment;
    }

    /** The console's built files: {@code console/dist} beside {@code local/}. */
    static Path consoleDir(Path home) {
        return home.toAbsolutePath().normalize().resolveSibling("console").resolve("dist");
    }

    /** The console's address. */
    public URI consoleEndpoint() {
        return endpoint().resolve("/console/");
    }

    /**
     * What runs here for a task's agent sidecar container (its image is not run): the agent jar in
     * a JVM of its own, with the agent image's one file (in the container's {@code folder}), which
     * the task's environment makes a sidecar's of its group ({@code docs/agent.md}); its folders are
     * its container's own. In ECS each task has an address of its own; here every task is on
     * 127.0.0.1, so each task's ports are remapped to free ones of this machine: its GSDK endpoint
     * takes a free port, and each of the game server container's ports the task definition names
     * ({@link AgentSidecar#GAME_PORTS_VARIABLE}) is told as a free one, under its name.
     */
    private List<String> agentStandIn(Path folder, Map<String, String> environment) {
        ObjectNode config = JSON.createObjectNode()
                .put("region", options.region())
                .put("apiEndpoint", endpoint().toString())
                .put("pushEndpoint", edge.pushEndpoint().toString())
                .put("workDirectory", "work")
                .put("gsdkPort", 0);
        Path file = folder.resolve("agent-sidecar.json");
        try {
            Files.writeString(file, config.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("the agent sidecar's file " + file + " could not be written", e);
        }
        return List.of("env", "AWS_EC2_METADATA_DISABLED=true",
                AgentSidecar.GAME_PORTS_VARIABLE + "=" + freePorts(environment.get(AgentSidecar.GAME_PORTS_VARIABLE)),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Dorg.eclipse.jetty.LEVEL=WARN",
                "-cp", agentJar().toString(), "io.gamefleet.agent.AgentMain", file.toString());
    }

    /** The task's ports (the agent's {@code ports}, as JSON), each name's given a free port of this machine. */
    private static String freePorts(String ports) {
        ObjectNode remapped = JSON.createObjectNode();
        try {
            JSON.readTree(ports == null ? "{}" : ports).fieldNames().forEachRemaining(name -> {
                int port = Emulators.freePort();
                remapped.putObject(name).put("from", port).put("to", port);
            });
        } catch (IOException e) {
            throw new UncheckedIOException("the task's " + AgentSidecar.GAME_PORTS_VARIABLE + " is not JSON", e);
        }
        return remapped.toString();
    }

    /** A task's keys: a GAME_SERVER principal bound to its instance id, which the edge admits until the task ends. */
    private TaskKeys taskKeys() {
        return new TaskKeys() {
            @Override
            public Keys issue(String instanceId) {
                Principal keys = Principals.instance(instanceId);
                edge.principals().add(keys);
                return new Keys(keys.accessKeyId(), keys.secretAccessKey());
            }

            @Override
            public void revoke(Keys keys) {
                edge.principals().remove(keys.accessKeyId());
            }
        };
    }

    private Path agentJar() {
        return Optional.ofNullable(System.getenv("GAMEFLEET_AGENT_JAR")).map(Path::of)
                .orElse(options.home().resolve("../agent/target/gamefleet-agent.jar").normalize());
    }

    /** Closed with the profile, in the reverse order of starting. */
    private <T extends AutoCloseable> T closing(T resource) {
        resources.add(resource);
        return resource;
    }

    /**
     * Runs the agent on every simulated instance of every group from now on, with real game server
     * processes ({@link InstanceAgents}); stopped with the profile, before what the agents call.
     * Their folders and the archive of ended game servers' logs are in {@link #logsDirectory}'s {@code agents/}.
     */
    public InstanceAgents runAgents(AgentTemplate template) {
        return runAgents(template, System.err::println);
    }

    /** {@link #runAgents(AgentTemplate)}, each of the agents' log lines (prefixed {@code agent: }) to {@code agentLines}. */
    public InstanceAgents runAgents(AgentTemplate template, Consumer<String> agentLines) {
        agents = closing(InstanceAgents.start(template, fleet, edge, logs.resolve("agents"), agentJar(),
                new AgentTemplate.Stage(options.region(), options.claimTtl(), options.limits().maxGameServersPerInstance()), options.keepTemp(),
                agentLines));
        return agents;
    }

    /** The instances' agents, once {@link #runAgents} started them. */
    public Optional<InstanceAgents> agents() {
        return Optional.ofNullable(agents);
    }

    /** Runs a catalog schedule's function now (what the scheduler does at each period). */
    public Map<String, Object> runSchedule(String name) {
        return scheduler.run(name);
    }

    public URI endpoint() {
        return edge.endpoint();
    }

    /** The AWS region the profile is. */
    public String region() {
        return options.region();
    }

    /**
     * Waits until the asynchronous invocations the functions made so far (standby requests of claims
     * and deregistrations) have run: for tests, which then see their effect; false past {@code limit}.
     */
    public boolean awaitLambdaEvents(Duration limit) throws InterruptedException {
        return edge.awaitLambdaEvents(limit);
    }

    /** The edge server, where Jetty handlers of their own register ({@link EdgeServer#addHandler}). */
    public EdgeServer edge() {
        return edge;
    }

    /**
     * This run's token for the edge's unsigned paths that change state, for callers in this
     * process (a console served by the edge passes it on to its page).
     */
    public String localToken() {
        return options.localToken();
    }

    /** The run's folder: the child processes' logs and metrics.log; removed at close unless kept. */
    public Path logsDirectory() {
        return logs;
    }

    public SimulatedFleet fleet() {
        return fleet;
    }

    /** The simulated ECS, whose API the edge serves (its clusters: {@value #DEFAULT_CLUSTER} and {@value #CONTAINER_CLUSTER}). */
    public SimulatedEcs ecs() {
        return ecs;
    }

    /** Services on the profile's tables and fleet, not held to any function's grants: for callers in this process. */
    public Services services() {
        return services;
    }

    /**
     * The DynamoDB calls of the functions that their roles' grants (the catalog's FunctionAccess)
     * did not allow, and that failed as they would in AWS: none, unless a grant is missing.
     */
    public List<String> deniedCalls() {
        return List.copyOf(deniedCalls);
    }

    /** The emulators the profile runs (none that was given by its endpoint). */
    public List<ChildProcess> children() {
        return children;
    }

    /**
     * Completes, with the reason, when the profile cannot go on: a child process it needs ended
     * and could not be started again without loss. {@code local/run} then exits with code 1.
     */
    public CompletableFuture<String> failure() {
        return supervisor.failure();
    }

    @Override
    public void close() {
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception e) {
                System.err.println("while stopping: " + e.getMessage());
            }
        }
        resources.clear();
        if (logs != null && !options.keepTemp()) {
            deleteTree(logs);
            logs = null;
        }
    }

    private static void deleteTree(Path root) {
        try (var paths = Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("while stopping: " + root + " could not be removed: " + e.getMessage());
        }
    }
}

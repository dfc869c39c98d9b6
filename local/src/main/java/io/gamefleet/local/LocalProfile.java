package io.gamefleet.local;

import static io.gamefleet.catalog.LocalAccount.ACCOUNT_ID;
import static io.gamefleet.catalog.LocalAccount.REGION;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.adapters.metrics.EmfMetrics;
import io.gamefleet.catalog.EventRule;
import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import io.gamefleet.catalog.Schedule;
import io.gamefleet.catalog.Settings;
import io.gamefleet.catalog.TableDefinition;
import io.gamefleet.catalog.Triggers;
import io.gamefleet.catalog.Tables;
import io.gamefleet.catalog.WorkflowDefinition;
import io.gamefleet.catalog.WorkflowStep;
import io.gamefleet.catalog.Workflows;
import io.gamefleet.domain.Metrics;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.wiring.Services;
import io.gamefleet.adapters.dynamodb.TableSetup;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The whole system on one machine: dynoxide (or a given DynamoDB endpoint), the Step Functions
 * sidecar (or a given endpoint), the edge server with every handler in-process, and the
 * simulated fleet. The handlers get an environment exactly like the one CDK gives them in AWS.
 */
public final class LocalProfile implements AutoCloseable {
    /** What to run; see API.md's table of {@code local/run} flags. */
    public record Options(int port, Duration claimTtl, Duration healthTimeout, Duration balancerRate,
            Duration instanceLaunch, Optional<Path> dataDir, Optional<URI> dynamoDbEndpoint,
            Optional<URI> stepFunctionsEndpoint, List<Principal> principals, Clock clock,
            Duration workflowWait, Path home, List<ExecutionInterceptor> interceptors) {

        public static Options defaults(Path home) {
            return new Options(4590, Duration.ofSeconds(60), Duration.ofSeconds(180), Duration.ofSeconds(60),
                    Duration.ofSeconds(2), Optional.empty(), Optional.empty(), Optional.empty(),
                    List.of(Principals.builtInAdmin()), Clock.systemUTC(), Duration.ofSeconds(1), home, List.of());
        }
    }

    private final List<AutoCloseable> resources = new ArrayList<>();
    private final Map<String, RequestHandler<Map<String, Object>, Map<String, Object>>> schedules = new LinkedHashMap<>();
    private EdgeServer edge;
    private SimulatedFleet fleet;
    private Services services;

    private LocalProfile() {}

    public static LocalProfile start(Options options) {
        LocalProfile profile = new LocalProfile();
        try {
            profile.startAll(options);
            return profile;
        } catch (IOException e) {
            profile.close();
            throw new IllegalStateException(e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            profile.close();
            throw e;
        }
    }

    private void startAll(Options o) throws IOException {
        File logs = Files.createTempDirectory("gamefleet-local-").toFile();
        var credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"));

        URI dynamoDb = o.dynamoDbEndpoint().orElseGet(() -> startDynoxide(o, logs));
        edge = new EdgeServer(o.port(), o.principals(), o.clock(), REGION, ACCOUNT_ID);
        resources.add(edge);
        URI stepFunctions = o.stepFunctionsEndpoint().orElseGet(() -> startSidecar(o, logs));

        Map<String, String> environment = new HashMap<>();
        environment.put("AWS_REGION", REGION);
        environment.put("AWS_ENDPOINT_URL_DYNAMODB", dynamoDb.toString());
        environment.put("AWS_ENDPOINT_URL_SFN", stepFunctions.toString());
        environment.put(Settings.ACCOUNT_ID.environmentVariable(), ACCOUNT_ID);
        environment.put(Settings.CLAIM_TTL_SECONDS.environmentVariable(), Long.toString(o.claimTtl().toSeconds()));
        environment.put(Settings.HEALTH_TIMEOUT_SECONDS.environmentVariable(), Long.toString(o.healthTimeout().toSeconds()));
        for (TableDefinition t : Tables.ALL) {
            environment.put(t.environmentVariable(), t.logicalName());
        }

        try (DynamoDbClient client = DynamoDbClient.builder().region(Region.of(REGION)).credentialsProvider(credentials)
                .endpointOverride(dynamoDb).build()) {
            TableSetup.createAll(client, Tables.ALL, TableDefinition::logicalName);
        }
        try (SfnClient sfn = SfnClient.builder().region(Region.of(REGION)).credentialsProvider(credentials)
                .endpointOverride(stepFunctions).build()) {
            for (WorkflowDefinition w : Workflows.ALL) {
                Map<String, String> arns = new LinkedHashMap<>();
                w.steps().forEach(s -> arns.put(s.placeholder(), functionArn(s.functionName())));
                String arn = sfn.createStateMachine(c -> c.name(w.stateMachineName()).definition(w.aslWith(arns))
                        .roleArn("arn:aws:iam::" + ACCOUNT_ID + ":role/gamefleet-workflows")).stateMachineArn();
                environment.put(w.arnSetting().environmentVariable(), arn);
            }
        }

        environment.put(Settings.BALANCER_RATE_SECONDS.environmentVariable(), Long.toString(o.balancerRate().toSeconds()));
        fleet = new SimulatedFleet(o.clock(), o.instanceLaunch(), ACCOUNT_ID);
        services = new Services(environment, o.clock(), Optional.of(fleet), Optional.of(localMetrics(o, logs)),
                credentials, o.interceptors());

        FunctionRegistry registry = new FunctionRegistry(services);
        List<EdgeServer.ApiRoute> apiRoutes = new ArrayList<>();
        Map<String, RequestHandler<?, ?>> functions = new HashMap<>();
        for (Route r : Routes.ALL) {
            RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler = registry.api(r.operation());
            apiRoutes.add(new EdgeServer.ApiRoute(r, r.path().split("/", -1), handler));
            functions.put(r.functionName(), handler);
        }
        for (WorkflowStep s : Workflows.allSteps()) {
            functions.put(s.functionName(), registry.step(s));
        }
        List<EventRouter.Target> targets = new ArrayList<>();
        for (EventRule rule : Triggers.EVENT_RULES) {
            RequestHandler<Map<String, Object>, Map<String, Object>> handler = registry.eventRule(rule);
            functions.put(rule.functionName(), handler);
            targets.add(new EventRouter.Target(EventRouter.pattern(rule), handler));
        }
        EventRouter events = new EventRouter(targets);
        fleet.sendEventsTo(events::deliver);
        for (Schedule schedule : Triggers.SCHEDULES) {
            RequestHandler<Map<String, Object>, Map<String, Object>> handler = registry.schedule(schedule);
            functions.put(schedule.functionName(), handler);
            schedules.put(schedule.name(), handler);
        }
        edge.serve(apiRoutes, functions, events, this::runSchedule);
        startScheduler(o);
    }

    /**
     * The local EventBridge Scheduler: every schedule at the --balancer-rate-seconds period, and
     * the simulated fleet advanced every second. A zero rate leaves both to the caller (tests
     * move a clock and call {@link #runSchedule}).
     */
    private void startScheduler(Options o) {
        if (o.balancerRate().isZero()) {
            return;
        }
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "local-scheduler");
            t.setDaemon(true);
            return t;
        });
        resources.add(scheduler::shutdownNow);
        scheduler.scheduleAtFixedRate(() -> guarded("the simulated fleet", fleet::tick), 1, 1, TimeUnit.SECONDS);
        long period = o.balancerRate().toMillis();
        for (String name : schedules.keySet()) {
            scheduler.scheduleAtFixedRate(() -> guarded(name, () -> runSchedule(name)), period, period,
                    TimeUnit.MILLISECONDS);
        }
    }

    private static void guarded(String what, Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            System.err.println("local scheduler: " + what + " failed: " + e);
        }
    }

    /** Runs a catalog schedule's function now (what the scheduler does at each period). */
    public Map<String, Object> runSchedule(String name) {
        RequestHandler<Map<String, Object>, Map<String, Object>> handler = schedules.get(name);
        if (handler == null) {
            throw new IllegalArgumentException("no schedule named " + name + "; there are " + schedules.keySet());
        }
        return handler.handleRequest(Map.of("source", "aws.scheduler", "detail-type", "Scheduled Event"), null);
    }

    /** FleetIQ metrics as EMF lines in metrics.log, and the utilization fed to the fleet's target tracking. */
    private Metrics localMetrics(Options o, File logs) {
        File file = new File(logs, "metrics.log");
        EmfMetrics emf = new EmfMetrics(o.clock(), line -> {
            try {
                Files.writeString(file.toPath(), line + System.lineSeparator(), java.nio.charset.StandardCharsets.UTF_8,
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            } catch (IOException e) {
                System.err.println("cannot write " + file + ": " + e.getMessage());
            }
        });
        return new Metrics() {
            @Override
            public void gameServers(String group, GameServerCounts counts) {
                emf.gameServers(group, counts);
                fleet.observe(group, counts.percentUtilized());
            }

            @Override
            public void interruption(String group, String instanceType, int gameServers) {
                emf.interruption(group, instanceType, gameServers);
            }
        };
    }

    private URI startDynoxide(Options o, File logs) {
        Path binary = o.home().resolve("node_modules/@dynoxide/linux-x64/dynoxide");
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException("the DynamoDB emulator is not installed (" + binary
                    + "); run `npm ci` in local/ (local/run does it for you)");
        }
        int port = freePort();
        // Tethered, so that it ends with this JVM even when the JVM is killed (SIGKILL runs no shutdown hook).
        List<String> command = new ArrayList<>(List.of(Principals.node(), o.home().resolve("sidecar/tether.mjs").toString(),
                binary.toString(), "serve", "--host", "127.0.0.1", "--port", Integer.toString(port)));
        o.dataDir().ifPresent(dir -> {
            command.add("--db-path");
            command.add(dir.resolve("gamefleet.db").toString());
        });
        URI endpoint = URI.create("http://127.0.0.1:" + port);
        resources.add(ChildProcess.start("dynoxide", command, o.home().toFile(), logs, endpoint));
        return endpoint;
    }

    private URI startSidecar(Options o, File logs) {
        Path script = o.home().resolve("sidecar/sidecar.mjs");
        if (!Files.isDirectory(o.home().resolve("node_modules/aws-local-stepfunctions"))) {
            throw new IllegalStateException("the Step Functions sidecar's packages are not installed; run `npm ci` in "
                    + "local/ (local/run does it for you)");
        }
        int port = freePort();
        List<String> command = List.of(Principals.node(), o.home().resolve("sidecar/tether.mjs").toString(),
                Principals.node(), script.toString(), "--port", Integer.toString(port),
                "--invoke-endpoint", "http://127.0.0.1:" + edge.port(), "--region", REGION, "--account-id", ACCOUNT_ID,
                "--wait-ms", Long.toString(o.workflowWait().toMillis()));
        URI endpoint = URI.create("http://127.0.0.1:" + port);
        resources.add(ChildProcess.start("stepfunctions-sidecar", command, o.home().toFile(), logs, endpoint));
        return endpoint;
    }

    private static String functionArn(String functionName) {
        return "arn:aws:lambda:" + REGION + ":" + ACCOUNT_ID + ":function:" + functionName;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free loopback port", e);
        }
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + edge.port());
    }

    public SimulatedFleet fleet() {
        return fleet;
    }

    public Services services() {
        return services;
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
    }
}

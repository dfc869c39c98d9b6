package io.gamefleet.local.bench;

import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Settings;
import io.gamefleet.catalog.TableDefinition;
import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.local.LocalProfile;
import io.gamefleet.local.bench.coldstart.FirstRequest;
import io.gamefleet.local.process.ChildProcess;
import io.gamefleet.local.process.Emulators;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Fresh JVM to first request answered: a JVM started for each run (no SnapStart, {@code
 * -XX:TieredStopAtLevel=1}, as Lambda runs Java without SnapStart's snapshot) makes a handler
 * class and hands it one API Gateway event; the time runs from starting the process to its
 * answer. Gamefleet's ClaimGameServer and UpdateGameServer (a heartbeat) handlers, from the
 * Lambda jar, each beside the textbook handler ({@link io.gamefleet.local.bench.coldstart.TextbookHandler}:
 * the Enhanced Client from defaults, a bean schema, one get and one update), runs alternating, on
 * the same emulator. The emulator speaks plain HTTP: in AWS, both handlers' first call also sets
 * up TLS (JSSE and a handshake); with {@code tls}, the handlers reach the emulator through a TLS
 * proxy on the loopback address and pay for that too. Not part of {@code mvn verify}. Run from
 * the repository's root or local/:
 * {@code java -cp bench/target/gamefleet-bench.jar io.gamefleet.local.bench.ColdStartBenchmark [runs] [tls] [traced]}
 * (7; {@code traced}: Gamefleet's handlers with X-Ray's interceptor on, as a traced deployment).
 */
public final class ColdStartBenchmark {
    private static final String[] RUNNER_CLASSES = {"FirstRequest", "TextbookHandler", "TextbookServer"};

    private ColdStartBenchmark() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        List<String> options = List.of(args).subList(Math.min(1, args.length), args.length);
        boolean tls = options.contains("tls");
        boolean traced = options.contains("traced");
        Path lambdaJar = lambdaJar();
        Path runners = runnerClasses();
        File logs = TemporaryFolders.make("gamefleet-coldstart-").toFile();
        try (ChildProcess dynamo = Emulators.dynamoDb(Emulators.home(), Optional.empty(), logs);
                LocalProfile profile = Benchmarks.start(new Benchmarks.DynamoDbCalls(), Optional.of(dynamo.endpoint()))) {
            String group = "cold";
            Benchmarks.createActive(profile, group, 1, 1, List.of("c5.large", "m5.large"));
            GameServerInstance instance = profile.services().groups()
                    .describeInstances(group, Optional.empty(), 1, Optional.empty()).items().get(0);
            for (int i = 0; i < runs + 2; i++) {
                profile.services().gameServers().register(new io.gamefleet.domain.GameServerService.Registration(group,
                        "cold-" + i, instance.instanceId(), Optional.of("127.0.0.1:7777"), Optional.empty()),
                        io.gamefleet.domain.Caller.UNBOUND);
            }
            textbookItem(dynamo.endpoint());
            TlsProxy proxy = tls ? TlsProxy.start(dynamo.endpoint()) : null;
            Map<String, String> env = environment(tls ? proxy.endpoint() : dynamo.endpoint());
            if (traced) {
                traced(env);
            }
            List<String> flags = tls ? proxy.trustFlags() : List.of();
            String classPath = runners + File.pathSeparator + lambdaJar;
            String textbookClassPath = textbookClassPath(runners, lambdaJar);
            String matchmaker = "arn:aws:sts::" + LocalAccount.ACCOUNT_ID + ":assumed-role/"
                    + roleName(Role.MATCHMAKER) + "/matchmaker";
            String gameServer = "arn:aws:sts::" + LocalAccount.ACCOUNT_ID + ":assumed-role/"
                    + roleName(Role.GAME_SERVER) + "/" + instance.instanceId();
            List<String> claim = command(flags, classPath, "io.gamefleet.api.ClaimGameServerHandler",
                    "GameServerGroupName=" + group, "{}", matchmaker);
            List<String> heartbeat = command(flags, classPath, "io.gamefleet.api.UpdateGameServerHandler",
                    "GameServerGroupName=" + group + ",GameServerId=cold-0", "{\"HealthCheck\":\"HEALTHY\"}", gameServer);
            List<String> textbook = command(flags, textbookClassPath, "io.gamefleet.local.bench.coldstart.TextbookHandler",
                    "GameServerId=textbook-0", "{}", gameServer);
            System.out.printf("fresh JVM (-XX:TieredStopAtLevel=1) to first request answered, %d runs each, alternating;"
                    + " Lambda jar %s (%.1f MB); DynamoDB over %s%s; order %s%n", runs, lambdaJar.getFileName(),
                    Files.size(lambdaJar) / 1e6, tls ? "HTTPS (a TLS proxy, RSA 2048)" : "plain HTTP",
                    traced ? "; Gamefleet traced with X-Ray" : "", System.getProperty("coldstart.order", "tch"));
            List<Run> claims = new ArrayList<>();
            List<Run> heartbeats = new ArrayList<>();
            List<Run> textbooks = new ArrayList<>();
            run(textbook, env); // one run of each first, not counted: the files are in the page cache afterwards
            run(claim, env);
            run(heartbeat, env);
            // The order of a round (t textbook, c claim, h heartbeat): each run follows the same kind
            // in every round, so -Dcoldstart.order=thc shows what a run inherits from the one before.
            String order = System.getProperty("coldstart.order", "tch");
            Map<Character, List<String>> commands = Map.of('t', textbook, 'c', claim, 'h', heartbeat);
            Map<Character, List<Run>> results = Map.of('t', textbooks, 'c', claims, 'h', heartbeats);
            for (int i = 0; i < runs; i++) {
                for (char kind : order.toCharArray()) {
                    results.get(kind).add(run(commands.get(kind), env));
                }
            }
            System.out.printf("%-42s %8s %8s %8s %7s %9s %7s%n", "", "median", "min", "max", "ratio", "CPU", "ratio");
            print("textbook (Enhanced Client, bean schema)", textbooks, textbooks);
            print("Gamefleet ClaimGameServer", claims, textbooks);
            print("Gamefleet UpdateGameServer (heartbeat)", heartbeats, textbooks);
            System.out.printf("%-42s %21s %21s%n", "medians, wall / CPU", "handler made", "then the request");
            phases("textbook (Enhanced Client, bean schema)", textbooks);
            phases("Gamefleet ClaimGameServer", claims);
            phases("Gamefleet UpdateGameServer (heartbeat)", heartbeats);
            if (proxy != null) {
                proxy.close();
            }
        }
    }

    /**
     * One run: milliseconds from starting the JVM to its answer, and the CPU time the JVM used by
     * then (all its threads: the JIT's and the GC's too), which a busy machine inflates far less.
     */
    private record Run(double millis, double cpuMillis, double madeMillis, double madeCpuMillis) {}

    private static void print(String what, List<Run> runs, List<Run> baseline) {
        List<Double> millis = runs.stream().map(Run::millis).toList();
        List<Double> cpu = runs.stream().map(Run::cpuMillis).toList();
        double cpuBaseline = median(baseline.stream().map(Run::cpuMillis).toList());
        System.out.printf("%-42s %6.0fms %6.0fms %6.0fms %6.2fx %7.0fms %6.2fx%n", what, median(millis),
                Collections.min(millis), Collections.max(millis), median(millis) / median(baseline.stream()
                        .map(Run::millis).toList()), median(cpu), median(cpu) / cpuBaseline);
    }

    /** Where each run's time went: up to the handler made (JVM start, class loading, init), then its request. */
    private static void phases(String what, List<Run> runs) {
        System.out.printf("%-42s %8.0fms / %6.0fms %8.0fms / %6.0fms%n", what,
                median(runs.stream().map(Run::madeMillis).toList()), median(runs.stream().map(Run::madeCpuMillis).toList()),
                median(runs.stream().map(r -> r.millis() - r.madeMillis()).toList()),
                median(runs.stream().map(r -> r.cpuMillis() - r.madeCpuMillis()).toList()));
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static Run run(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().putAll(env);
        long start = System.nanoTime();
        Process p = pb.start();
        StringBuilder output = new StringBuilder();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith("answered ")) {
                    double millis = (System.nanoTime() - start) / 1e6;
                    double cpuMillis = p.toHandle().info().totalCpuDuration().map(d -> d.toNanos() / 1e6).orElse(Double.NaN);
                    if (!line.startsWith("answered 200 ")) {
                        throw new IllegalStateException(String.join(" ", command.subList(command.size() - 4, command.size()))
                                + " " + line + "\n" + output);
                    }
                    String made = out.readLine();
                    p.waitFor();
                    String[] at = made == null || !made.startsWith("made ") ? new String[] {"", "NaN", "NaN"}
                            : made.split(" ");
                    return new Run(millis, cpuMillis, (Double.parseDouble(at[1]) - start) / 1e6, Double.parseDouble(at[2]) / 1e6);
                }
                output.append(line).append('\n');
            }
        }
        throw new IllegalStateException("no answer from " + command + ":\n" + output);
    }

    private static List<String> command(List<String> flags, String classPath, String handler, String path, String body,
            String caller) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1"));
        command.addAll(flags);
        String extra = System.getProperty("coldstart.jvmFlags", "");
        if (!extra.isBlank()) {
            command.addAll(List.of(extra.trim().split("\\s+")));
        }
        // The caller's userId: its role's unique id and its session, as API Gateway reports it.
        String session = caller.substring(caller.lastIndexOf('/') + 1);
        String roleId = Stream.of(Role.values()).filter(r -> caller.contains("/" + roleName(r) + "/"))
                .map(LocalAccount::roleId).findFirst().orElse("");
        command.addAll(List.of("-cp", classPath, FirstRequest.class.getName(), handler, path, body, caller,
                roleId + ":" + session));
        return command;
    }

    /** The environment a deployed function gets (as the local profile gives its handlers), and the textbook's table. */
    private static Map<String, String> environment(URI dynamoDb) {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("AWS_REGION", LocalAccount.REGION);
        env.put("AWS_ACCESS_KEY_ID", "local");
        env.put("AWS_SECRET_ACCESS_KEY", "local");
        env.put("AWS_ENDPOINT_URL_DYNAMODB", dynamoDb.toString());
        env.put("AWS_EC2_METADATA_DISABLED", "true");
        env.put("AWS_LAMBDA_INITIALIZATION_TYPE", "on-demand"); // as Lambda sets it for a start without SnapStart
        env.put(Settings.ACCOUNT_ID.environmentVariable(), LocalAccount.ACCOUNT_ID);
        for (Role role : Role.values()) {
            env.put(Settings.roleArn(role).environmentVariable(), LocalAccount.roleArn(role));
            env.put(Settings.roleId(role).environmentVariable(), LocalAccount.roleId(role));
        }
        for (TableDefinition t : Tables.ALL) {
            env.put(t.environmentVariable(), t.logicalName());
        }
        env.put("TEXTBOOK_TABLE", Tables.GAME_SERVERS.logicalName());
        return env;
    }

    /**
     * Gamefleet's handlers as a traced deployment runs them: X-Ray's interceptor on, in X-Ray's
     * Lambda mode (a sampled trace header), its segments sent to a port nobody reads.
     */
    private static void traced(Map<String, String> env) {
        env.put(Settings.TRACING.environmentVariable(), "true");
        env.put("LAMBDA_TASK_ROOT", "/var/task");
        env.put("_X_AMZN_TRACE_ID", "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1");
        env.put("AWS_XRAY_DAEMON_ADDRESS", "127.0.0.1:2000");
    }

    private static String roleName(Role role) {
        String arn = LocalAccount.roleArn(role);
        return arn.substring(arn.lastIndexOf('/') + 1);
    }

    private static void textbookItem(URI endpoint) {
        try (DynamoDbClient client = DynamoDbClient.builder().region(Region.of(LocalAccount.REGION))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .endpointOverride(endpoint).build()) {
            client.putItem(p -> p.tableName(Tables.GAME_SERVERS.logicalName()).item(Map.of(
                    "GameServerId", AttributeValue.fromS("textbook-0"),
                    "ConnectionInfo", AttributeValue.fromS("10.0.0.1:7777"),
                    "LastHealthCheckTime", AttributeValue.fromN("0"))));
        }
    }

    /** The runner classes alone, copied out of this jar, so the child JVMs load nothing else of it. */
    private static Path runnerClasses() throws IOException {
        Path dir = TemporaryFolders.make("gamefleet-coldstart-classes-");
        String pkg = FirstRequest.class.getPackageName().replace('.', '/');
        for (String name : RUNNER_CLASSES) {
            Path target = dir.resolve(pkg).resolve(name + ".class");
            Files.createDirectories(target.getParent());
            try (InputStream in = ColdStartBenchmark.class.getResourceAsStream("/" + pkg + "/" + name + ".class")) {
                Files.copy(in, target);
            }
        }
        return dir;
    }

    private static Path lambdaJar() throws IOException {
        for (Path dir : List.of(Path.of("functions", "target"), Path.of("..", "functions", "target"))) {
            if (Files.isDirectory(dir)) {
                try (Stream<Path> files = Files.list(dir)) {
                    Optional<Path> jar = files.filter(f -> f.getFileName().toString().endsWith("-lambda.jar")).findFirst();
                    if (jar.isPresent()) {
                        return jar.get();
                    }
                }
            }
        }
        throw new IllegalStateException("no functions/target/*-lambda.jar: build it first (mvn -DskipTests package -pl local -am)");
    }

    /**
     * The textbook's jars: the SDK of the Lambda jar with the HTTP client a stock
     * {@code dynamodb-enhanced} dependency brings and {@code create()} picks (Apache 5), where the
     * local Maven repository has it; otherwise the Lambda jar's URL connection client.
     */
    private static String textbookClassPath(Path runners, Path lambdaJar) {
        Path m2 = Path.of(System.getProperty("user.home"), ".m2", "repository");
        List<Path> apache = List.of(
                m2.resolve("software/amazon/awssdk/apache5-client/2.59.1/apache5-client-2.59.1.jar"),
                m2.resolve("org/apache/httpcomponents/client5/httpclient5/5.6.4/httpclient5-5.6.4.jar"),
                m2.resolve("org/apache/httpcomponents/core5/httpcore5/5.4.3/httpcore5-5.4.3.jar"),
                m2.resolve("org/apache/httpcomponents/core5/httpcore5-h2/5.4.3/httpcore5-h2-5.4.3.jar"));
        StringBuilder cp = new StringBuilder(runners + File.pathSeparator + lambdaJar);
        if (apache.stream().allMatch(Files::isRegularFile)) {
            apache.forEach(j -> cp.append(File.pathSeparator).append(j));
            System.out.println("textbook HTTP client: Apache 5 (the SDK's default)");
        } else {
            System.out.println("textbook HTTP client: URL connection (Apache 5 is not in the local Maven repository)");
        }
        return cp.toString();
    }
}

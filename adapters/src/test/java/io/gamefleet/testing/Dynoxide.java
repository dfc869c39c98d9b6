package io.gamefleet.testing;

import io.gamefleet.adapters.dynamodb.TableNames;
import io.gamefleet.adapters.dynamodb.TableSetup;
import io.gamefleet.catalog.TableDefinition;
import io.gamefleet.catalog.Tables;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * DynamoDB for one test class, with the catalog's tables under names unique to that class: the
 * DynamoDB emulator (dynoxide, installed by npm in local/) on the default embedded backend, or
 * the DynamoDB of the backend {@link TestBackend} selects (LocalStack, or a given endpoint), where
 * the class's tables are deleted after it. With LocalStack and no Docker the class is skipped,
 * with the reason. Use it as
 * {@code @RegisterExtension static final Dynoxide DYNAMO = new Dynoxide();}: it starts before the
 * class's {@code @BeforeAll} methods and stops after the class.
 */
public final class Dynoxide extends BackendExtension implements BeforeAllCallback, AfterAllCallback {
    /** Relative to the module under test, surefire's (and PIT's) working directory. */
    private static final Path BINARY = Path.of("../local/node_modules/@dynoxide/linux-x64/dynoxide");
    /**
     * The local profile's tether: it ends dynoxide when its stdin closes, which happens when this
     * JVM dies however it dies (a SIGKILL, or PIT ending a minion that ran out of time), so no
     * emulator outlives the test JVM.
     */
    private static final Path TETHER = Path.of("../local/sidecar/tether.mjs");
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(20);


    private Process process;
    private Path log;
    private URI endpoint;
    private DynamoDbClient client;
    private DynamoDbEnhancedClient enhanced;
    private TableNames tableNames;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        URI endpoint = backend().dynamoDb().orElse(null);
        if (endpoint == null) {
            endpoint = startDynoxide(context);
        }
        this.endpoint = endpoint;
        client = client(List.of());
        enhanced = DynamoDbEnhancedClient.builder().dynamoDbClient(client).build();
        String prefix = "t" + UUID.randomUUID().toString().substring(0, 8) + "-";
        Map<String, String> env = new HashMap<>();
        Tables.ALL.forEach(t -> env.put(t.environmentVariable(), prefix + t.logicalName()));
        tableNames = new TableNames(Map.copyOf(env));
        TableSetup.createAll(client, Tables.ALL, tableNames::of);
    }

    private URI startDynoxide(ExtensionContext context) throws Exception {
        if (!Files.isExecutable(BINARY)) {
            throw new IllegalStateException("the DynamoDB emulator is not installed at " + BINARY.toAbsolutePath()
                    + "; run `npm ci` in local/ first");
        }
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        log = Files.createTempFile("dynoxide-" + context.getRequiredTestClass().getSimpleName() + "-", ".log");
        // stdin stays a pipe from this JVM, open until the JVM ends: that is the tether.
        process = new ProcessBuilder("node", TETHER.toAbsolutePath().normalize().toString(),
                BINARY.toAbsolutePath().normalize().toString(), "serve", "--host", "127.0.0.1",
                "--port", Integer.toString(port))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        URI endpoint = URI.create("http://127.0.0.1:" + port);
        awaitReady(endpoint);
        return endpoint;
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (client != null && !backend().embedded() && tableNames != null) {
            for (TableDefinition t : Tables.ALL) { // an emulator or account outlives the class: leave no tables
                try {
                    client.deleteTable(d -> d.tableName(tableNames.of(t)));
                } catch (ResourceNotFoundException gone) {
                    // not created
                }
            }
        }
        if (client != null) {
            client.close();
        }
        if (process != null) {
            stop();
        }
        if (log != null && context.getExecutionException().isEmpty()) {
            Files.deleteIfExists(log); // kept when the class failed
        }
    }

    /** The SDK's client on the URL connection client, as the functions make theirs. */
    public DynamoDbClient client() {
        return client;
    }

    /** Another client of the same kind on the same backend, with SDK interceptors (to count or change calls). */
    public DynamoDbClient client(List<ExecutionInterceptor> interceptors) {
        return DynamoDbClient.builder().endpointOverride(endpoint)
                .region(backend().embedded() ? Region.US_EAST_1 : backend().region())
                .credentialsProvider(backend().credentials()).httpClientBuilder(UrlConnectionHttpClient.builder())
                .overrideConfiguration(o -> o.executionInterceptors(interceptors)).build();
    }

    public DynamoDbEnhancedClient enhanced() {
        return enhanced;
    }

    public TableNames tableNames() {
        return tableNames;
    }

    private void awaitReady(URI endpoint) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("dynoxide exited with code " + process.exitValue() + "; see " + log);
            }
            try {
                var response = http.send(HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(1)).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(20);
        }
        stop();
        throw new IllegalStateException("dynoxide did not answer GET / within " + READY_TIMEOUT + "; see " + log);
    }

    /** SIGTERM to the tether, which passes it on; SIGKILL to both if that does not end them in time. */
    private void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }
}

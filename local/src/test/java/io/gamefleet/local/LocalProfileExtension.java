package io.gamefleet.local;

import io.gamefleet.testing.BackendExtension;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.TableDefinition;
import io.gamefleet.catalog.Tables;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.retry.backoff.FixedDelayBackoffStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.waiters.DynamoDbWaiter;

/**
 * One local profile per test class ({@code @RegisterExtension static final}): dynoxide, the
 * Step Functions sidecar and the edge server on a free port, a {@link MutableClock}, instances
 * in service at once, workflow Wait states of 50 ms, and these principals: the built-in admin,
 * a MATCHMAKER, a GAME_SERVER bound to {@link #BOUND_INSTANCE_ID} (an instance of no group),
 * and an unbound GAME_SERVER.
 *
 * <p>On another {@link TestBackend} the DynamoDB is LocalStack's or the given endpoint's (and
 * the Step Functions endpoint the given one, if any). The profile names its tables after the
 * catalog, so the class deletes the catalog's tables there before it starts (a clean state like
 * the embedded one's) and after it ends. With LocalStack and no Docker the class is skipped,
 * with the reason.
 */
final class LocalProfileExtension extends BackendExtension implements BeforeAllCallback, AfterAllCallback {

    static final Principal ADMIN = Principals.builtInAdmin();
    static final Principal MATCHMAKER =
            new Principal("test-matchmaker", "matchmaker-secret/0123456789", Role.MATCHMAKER, Optional.empty());
    /** EC2-shaped, but never launched by the simulated fleet (its ids are random hex). */
    static final String BOUND_INSTANCE_ID = "i-0boundtoNOgroup00";
    static final Principal BOUND_GAME_SERVER = new Principal("test-game-server-bound",
            "bound-secret/0123456789", Role.GAME_SERVER, Optional.of(BOUND_INSTANCE_ID));
    static final Principal UNBOUND_GAME_SERVER = new Principal("test-game-server-unbound",
            "unbound-secret/0123456789", Role.GAME_SERVER, Optional.empty());

    private final List<ExecutionInterceptor> interceptors = new ArrayList<>();
    private MutableClock clock;
    private LocalProfile profile;
    private Duration startup;

    LocalProfileExtension withInterceptor(ExecutionInterceptor interceptor) {
        interceptors.add(interceptor);
        return this;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        clock = MutableClock.startingNow();
        Optional<URI> dynamoDb = backend().dynamoDb();
        dynamoDb.ifPresent(LocalProfileExtension::deleteCatalogTables);
        LocalProfile.Options d = LocalProfile.Options.defaults(home());
        // No background schedules: tests run the balancer themselves, after moving the clock.
        LocalProfile.Options options = new LocalProfile.Options(0, d.claimTtl(), d.healthTimeout(), Duration.ZERO,
                Duration.ZERO, d.dataDir(), dynamoDb, backend().stepFunctions(),
                List.of(ADMIN, MATCHMAKER, BOUND_GAME_SERVER, UNBOUND_GAME_SERVER), clock, Duration.ofMillis(50),
                d.home(), List.copyOf(interceptors));
        long started = System.nanoTime();
        profile = LocalProfile.start(options);
        startup = Duration.ofNanos(System.nanoTime() - started);
        System.out.println(context.getDisplayName() + ": local profile started in " + startup.toMillis() + " ms at "
                + profile.endpoint() + (backend().embedded() ? "" : " on backend " + backend()));
    }

    /**
     * With the credentials LocalProfile itself uses ("local"), which an emulator takes and AWS
     * refuses: this never deletes a table of an AWS account.
     */
    private static void deleteCatalogTables(URI endpoint) {
        try (DynamoDbClient client = DynamoDbClient.builder().endpointOverride(endpoint)
                .region(Region.of(LocalProfile.REGION))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .httpClient(UrlConnectionHttpClient.create()).build();
                DynamoDbWaiter waiter = DynamoDbWaiter.builder().client(client).overrideConfiguration(w -> w
                        .backoffStrategy(FixedDelayBackoffStrategy.create(Duration.ofMillis(200))).maxAttempts(150))
                        .build()) {
            for (TableDefinition t : Tables.ALL) {
                try {
                    client.deleteTable(r -> r.tableName(t.logicalName()));
                    waiter.waitUntilTableNotExists(r -> r.tableName(t.logicalName()));
                } catch (ResourceNotFoundException absent) {
                    // nothing to delete
                }
            }
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (profile != null) {
            profile.close();
            profile = null;
        }
        if (!backend().embedded()) {
            backend().dynamoDb().ifPresent(LocalProfileExtension::deleteCatalogTables); // leave the endpoint as found
        }
    }

    /** The local module directory (surefire runs in local/; an IDE may run in the repository root). */
    static Path home() {
        Path cwd = Path.of("").toAbsolutePath();
        if (Files.isDirectory(cwd.resolve("node_modules"))) {
            return cwd;
        }
        return cwd.resolve("local");
    }

    LocalProfile profile() {
        return profile;
    }

    MutableClock clock() {
        return clock;
    }

    GamefleetClient client(Principal principal) {
        return new GamefleetClient(profile.endpoint(), principal, clock);
    }

    GamefleetClient admin() {
        return client(ADMIN);
    }

    GamefleetClient matchmaker() {
        return client(MATCHMAKER);
    }
}

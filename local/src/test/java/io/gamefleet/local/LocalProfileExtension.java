package io.gamefleet.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.domain.fakes.MutableClock;
import io.gamefleet.testing.BackendExtension;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.TableDefinition;
import io.gamefleet.catalog.Tables;
import io.gamefleet.local.edge.Principal;
import io.gamefleet.local.edge.Principals;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity;
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
 *
 * <p>With {@code -Dgamefleet.api.endpoint} ({@link DeployedApi}) no profile starts: the class
 * calls that API as its one caller, in real time. What only the in-process profile offers (its
 * simulated fleet, a clock the test moves, principals of one role each, gates on its SDK clients)
 * is not there: a test that needs it is skipped with the reason ({@link #profile()},
 * {@link #clock()}, {@link #client}), a check that needs it is left out and counted
 * ({@link #onLocalProfile}, {@link #asOnly}), a class that is all about it is skipped whole
 * ({@link #localOnly}), and the groups a class created are force-deleted after it.
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
    /** The stage's default limits, without the edge's route throttles unless {@link #withEdgeThrottles}. */
    private LocalProfile.Limits limits = LocalProfile.Limits.defaults().withEdgeThrottles(false);
    private final Optional<DeployedApi> deployed = DeployedApi.selected();
    private final AtomicInteger leftOut = new AtomicInteger();
    private String localOnly;
    private Instant classStarted;
    private MutableClock clock;
    private boolean realTime;
    private LocalProfile profile;
    private Duration startup;

    LocalProfileExtension withInterceptor(ExecutionInterceptor interceptor) {
        interceptors.add(interceptor);
        return this;
    }

    /**
     * The edge applies the stage's route throttles (the defaults), as local/run's does: their
     * buckets fill only as the class moves the clock.
     */
    LocalProfileExtension withEdgeThrottles() {
        limits = limits.withEdgeThrottles(true);
        return this;
    }

    /** One instance may hold {@code max} game servers (a stage that raised maxGameServersPerInstance). */
    LocalProfileExtension withMaxGameServersPerInstance(int max) {
        limits = limits.withMaxGameServersPerInstance(max);
        return this;
    }

    /** Instances live {@code lifetime.maxInstance()}, claimed game servers guaranteed its {@code guaranteedServer()}. */
    LocalProfileExtension withLifetime(io.gamefleet.catalog.Lifetimes lifetime) {
        limits = limits.withLifetime(lifetime);
        return this;
    }

    /**
     * The profile runs on the real clock (no {@link #clock()} to move): for classes with real agents,
     * which sign, expire claims and poll the metadata in real time.
     */
    LocalProfileExtension inRealTime() {
        realTime = true;
        return this;
    }

    /** The whole class needs the in-process profile: against a deployed API it is skipped, with {@code why}. */
    LocalProfileExtension localOnly(String why) {
        localOnly = why;
        return this;
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (deployed.isEmpty()) {
            return super.evaluateExecutionCondition(context);
        }
        return localOnly == null ? ConditionEvaluationResult.enabled("against " + deployed.get().endpoint())
                : ConditionEvaluationResult.disabled("needs the in-process local profile (" + localOnly
                        + "), which the API at " + deployed.get().endpoint() + " does not offer");
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (deployed.isPresent()) {
            classStarted = Instant.now();
            System.out.println(context.getDisplayName() + ": against the API at " + deployed.get().endpoint()
                    + ", in real time");
            return;
        }
        clock = MutableClock.startingNow();
        Optional<URI> dynamoDb = backend().dynamoDb();
        dynamoDb.ifPresent(LocalProfileExtension::deleteCatalogTables);
        LocalProfile.Options d = LocalProfile.Options.defaults();
        // No background schedules: tests run the balancer themselves, after moving the clock.
        LocalProfile.Options options = new LocalProfile.Options(0, d.claimTtl(), d.healthTimeout(), Duration.ZERO,
                Duration.ZERO, d.dataDir(), dynamoDb, backend().stepFunctions(),
                List.of(ADMIN, MATCHMAKER, BOUND_GAME_SERVER, UNBOUND_GAME_SERVER), realTime ? Clock.systemUTC() : clock,
                Duration.ofMillis(50),
                d.home(), List.copyOf(interceptors)).withLimits(limits);
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
                .region(Region.of(LocalAccount.REGION))
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
        if (deployed.isPresent()) {
            // Five minutes' margin: CreationTime is the API's clock, classStarted this machine's.
            deleteGroupsCreatedSince(classStarted.minus(Duration.ofMinutes(5)));
            if (leftOut.get() > 0) {
                System.out.println(context.getDisplayName() + ": " + leftOut.get() + " checks left out: they need "
                        + "the in-process local profile's simulated fleet, or callers of one role each (give them "
                        + "with -Dgamefleet.api.matchmaker.* and -Dgamefleet.api.game-server.*; one bound to an "
                        + "instance exists only on that instance)");
            }
            return;
        }
        List<String> denied = profile == null ? List.of() : profile.deniedCalls();
        if (profile != null) {
            profile.close();
            profile = null;
        }
        if (!backend().embedded()) {
            backend().dynamoDb().ifPresent(LocalProfileExtension::deleteCatalogTables); // leave the endpoint as found
        }
        // Also those a function caught (the balancer's per group, a notice's best effort): each would fail in AWS.
        if (!denied.isEmpty()) {
            throw new AssertionError(context.getDisplayName() + ": DynamoDB calls that the functions' grants do not"
                    + " allow (fix the catalog's FunctionAccess):\n" + String.join("\n", denied));
        }
    }

    /**
     * A deployed API's test deployment is shared by runs: what a class created is force-deleted
     * after it, and awaited, so that the next run can use the same names and no Auto Scaling group
     * keeps instances running. A NEW or ACTIVATING group cannot be deleted: it is awaited first.
     */
    private void deleteGroupsCreatedSince(Instant since) {
        GamefleetClient caller = admin();
        Duration timeout = deployed.orElseThrow().workflowTimeout();
        BigDecimal sinceSeconds = BigDecimal.valueOf(since.toEpochMilli()).movePointLeft(3);
        List<String> deleting = new ArrayList<>();
        for (JsonNode group : caller.listAll("/game-server-groups", "GameServerGroups", 100)) {
            String name = group.get("GameServerGroupName").asText();
            String status = group.get("Status").asText();
            if (group.get("CreationTime").decimalValue().compareTo(sinceSeconds) < 0 || status.equals("DELETED")) {
                continue;
            }
            if (Set.of("NEW", "ACTIVATING").contains(status)) {
                caller.awaitGroup(name, Set.of("ACTIVE", "ERROR"), timeout);
            }
            if (!Set.of("DELETE_SCHEDULED", "DELETING").contains(status)) {
                caller.deleteGroup(name, "FORCE_DELETE").ok();
            }
            deleting.add(name);
        }
        System.out.println("force-deleting the game server groups this class created: " + deleting);
        for (String name : deleting) {
            caller.awaitGroup(name, Set.of("DELETED", "ERROR"), timeout);
        }
    }

    /** Skips the calling test against a deployed API: it needs {@code what} of the in-process profile. */
    void requireLocalProfile(String what) {
        deployed.ifPresent(api -> Assumptions.abort("needs " + what + " of the in-process local profile, which the API at "
                + api.endpoint() + " does not offer"));
    }

    /** The in-process profile; a test that asks for it is skipped against a deployed API. */
    LocalProfile profile() {
        requireLocalProfile("the simulated fleet or the Lambda path");
        return profile;
    }

    /** The profile's clock, for tests that move it; such a test is skipped against a deployed API. */
    MutableClock clock() {
        requireLocalProfile("a clock the test moves");
        if (realTime) {
            throw new IllegalStateException("this class's profile runs in real time (inRealTime): no clock to move");
        }
        return clock;
    }

    /** The clock requests are signed by: the profile's, or the real one for a deployed API. */
    Clock signingClock() {
        return deployed.isPresent() || realTime ? Clock.systemUTC() : clock;
    }

    /**
     * Lets time pass between two requests where the test needs only "later": moves the profile's
     * clock; a deployed API's clock moves by itself between requests.
     */
    void passTime(Duration duration) {
        if (deployed.isEmpty() && !realTime) {
            clock.advance(duration);
        }
    }

    /** A check of the profile's own state (its simulated fleet): left out, and counted, against a deployed API. */
    void onLocalProfile(Consumer<LocalProfile> check) {
        if (deployed.isPresent()) {
            leftOut.incrementAndGet();
        } else {
            check.accept(profile);
        }
    }

    /**
     * A client for exactly this principal's role and instance binding, to check what it is refused.
     * Against a deployed API: the caller of that role if one was given ({@link DeployedApi}), the
     * main caller for ADMIN; else, and always for a caller bound to an instance, empty (and counted).
     */
    Optional<GamefleetClient> asOnly(Principal principal) {
        if (deployed.isEmpty()) {
            return Optional.of(client(principal));
        }
        DeployedApi api = deployed.get();
        Optional<AwsCredentialsIdentity> caller = principal.instanceId().isPresent() ? Optional.empty()
                : principal.role() == Role.ADMIN ? Optional.of(api.caller())
                : Optional.ofNullable(api.roleCallers().get(principal.role()));
        if (caller.isEmpty()) {
            leftOut.incrementAndGet();
        }
        return caller.map(c -> callerOf(api, c));
    }

    /** Whether the tests call a deployed API (whose refusals may word things differently) rather than their own profile. */
    boolean againstDeployedApi() {
        return deployed.isPresent();
    }

    /** A client signing as this principal of the profile; a test that needs one is skipped against a deployed API. */
    GamefleetClient client(Principal principal) {
        requireLocalProfile("principals of one role each");
        return new GamefleetClient(profile.endpoint(), principal, clock);
    }

    /**
     * A client signing with instance {@code instanceId}'s own keys, as its metadata hands them to its
     * agent (read through {@code GET /_local/instances/<id>/credentials}, with this run's token): what a
     * compromised instance can do. A test that needs one is skipped against a deployed API.
     */
    GamefleetClient asInstance(String instanceId) {
        requireLocalProfile("an instance's own keys");
        JsonNode keys = instanceCredentials(instanceId);
        return new GamefleetClient(profile.endpoint(), LocalAccount.REGION, AwsSessionCredentialsIdentity.create(
                keys.get("AccessKeyId").asText(), keys.get("SecretAccessKey").asText(), keys.get("Token").asText()),
                signingClock(), GamefleetClient.Pace.LOCAL_PROFILE);
    }

    /** {@code GET /_local/instances/<id>/credentials}, with this run's token: the instance profile's keys in EC2's shape. */
    JsonNode instanceCredentials(String instanceId) {
        HttpRequest request = HttpRequest.newBuilder(profile.endpoint().resolve("/_local/instances/" + instanceId
                + "/credentials")).header("X-Gamefleet-Local-Token", profile.localToken()).GET().build();
        try {
            HttpResponse<String> answer = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 200) {
                throw new AssertionError("no keys for instance " + instanceId + ": " + answer.statusCode() + " " + answer.body());
            }
            return GamefleetClient.JSON.readTree(answer.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** May do anything: the profile's built-in admin, or a deployed API's caller. */
    GamefleetClient admin() {
        return deployed.map(api -> callerOf(api, api.caller())).orElseGet(() -> client(ADMIN));
    }

    /** May claim and read: the profile's MATCHMAKER, or a deployed API's caller (who may do more). */
    GamefleetClient matchmaker() {
        return deployed.map(api -> callerOf(api, api.caller())).orElseGet(() -> client(MATCHMAKER));
    }

    /** A client of a deployed API: polls every 2 s, waits for workflows as long as configured. */
    private static GamefleetClient callerOf(DeployedApi api, AwsCredentialsIdentity caller) {
        return new GamefleetClient(api.endpoint(), api.region(), caller, Clock.systemUTC(),
                new GamefleetClient.Pace(Duration.ofSeconds(2), api.workflowTimeout(), true));
    }
}

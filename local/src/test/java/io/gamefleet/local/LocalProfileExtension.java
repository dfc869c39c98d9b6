package io.gamefleet.local;

import io.gamefleet.catalog.Role;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * One local profile per test class ({@code @RegisterExtension static final}): dynoxide, the
 * Step Functions sidecar and the edge server on a free port, a {@link MutableClock}, instances
 * in service at once, workflow Wait states of 50 ms, and these principals: the built-in admin,
 * a MATCHMAKER, a GAME_SERVER bound to {@link #BOUND_INSTANCE_ID} (an instance of no group),
 * and an unbound GAME_SERVER.
 */
final class LocalProfileExtension implements BeforeAllCallback, AfterAllCallback {
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
        LocalProfile.Options d = LocalProfile.Options.defaults(home());
        LocalProfile.Options options = new LocalProfile.Options(0, d.claimTtl(), d.healthTimeout(), d.balancerRate(),
                Duration.ZERO, d.dataDir(), d.dynamoDbEndpoint(), d.stepFunctionsEndpoint(),
                List.of(ADMIN, MATCHMAKER, BOUND_GAME_SERVER, UNBOUND_GAME_SERVER), clock, Duration.ofMillis(50),
                d.home(), List.copyOf(interceptors));
        long started = System.nanoTime();
        profile = LocalProfile.start(options);
        startup = Duration.ofNanos(System.nanoTime() - started);
        System.out.println(context.getDisplayName() + ": local profile started in " + startup.toMillis() + " ms at "
                + profile.endpoint());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (profile != null) {
            profile.close();
            profile = null;
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

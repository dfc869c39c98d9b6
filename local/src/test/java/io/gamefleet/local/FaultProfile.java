package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.domain.fakes.MutableClock;
import io.gamefleet.local.process.ChildProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * An in-process local profile that a test may break: its emulators killed or stopped
 * ({@code kill -STOP}) and continued, and started again on the same {@code --data-dir}. Like
 * {@link LocalProfileExtension}'s, but one per test, with the admin as its one principal.
 */
final class FaultProfile implements AutoCloseable {
    static final String DYNOXIDE = "dynoxide";
    static final String SIDECAR = "stepfunctions-sidecar";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    final LocalProfile profile;
    final MutableClock clock;
    final GamefleetClient admin;

    private FaultProfile(LocalProfile profile, MutableClock clock) {
        this.profile = profile;
        this.clock = clock;
        this.admin = new GamefleetClient(profile.endpoint(), LocalProfileExtension.ADMIN, clock);
    }

    static FaultProfile start(Optional<Path> dataDir) {
        return start(dataDir, MutableClock.startingNow());
    }

    static FaultProfile start(Optional<Path> dataDir, MutableClock clock) {
        return start(dataDir, clock, Duration.ZERO);
    }

    /** {@code instanceLaunch}: on the profile's clock, which only the test moves. */
    static FaultProfile start(Optional<Path> dataDir, MutableClock clock, Duration instanceLaunch) {
        LocalProfile.Options d = LocalProfile.Options.defaults();
        return new FaultProfile(LocalProfile.start(new LocalProfile.Options(0, d.claimTtl(), d.healthTimeout(),
                Duration.ZERO, instanceLaunch, dataDir, Optional.empty(), Optional.empty(),
                List.of(LocalProfileExtension.ADMIN), clock, Duration.ofMillis(50), d.home(), List.of())), clock);
    }

    ChildProcess child(String name) {
        return profile.children().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    /** Sends the signal (STOP, CONT, KILL) to the emulator's own process. */
    void signal(String name, String signal) {
        long pid = child(name).serverProcess().pid();
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
            assertThat(kill.waitFor()).as("kill -%s %s", signal, pid).isZero();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** {@code /_local/health}: its status code and body; it must answer within 3 s, whatever else is going on. */
    record Health(int status, JsonNode body) {
        String state(String dependency) {
            return body.path("dependencies").path(dependency).path("state").asText();
        }

        JsonNode dependency(String name) {
            return body.path("dependencies").path(name);
        }
    }

    Health health() {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(profile.endpoint() + "/_local/health"))
                    .timeout(Duration.ofSeconds(3)).build(), HttpResponse.BodyHandlers.ofString());
            return new Health(r.statusCode(), GamefleetClient.JSON.readTree(r.body()));
        } catch (IOException e) {
            throw new AssertionError("/_local/health did not answer within 3 s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Polls health (real time) until the condition holds. */
    Health awaitHealth(Predicate<Health> condition, Duration timeout, String what) {
        Instant deadline = Instant.now().plus(timeout);
        Health last = null;
        while (Instant.now().isBefore(deadline)) {
            last = health();
            if (condition.test(last)) {
                return last;
            }
            GamefleetClient.pause(100);
        }
        throw new AssertionError("health did not show " + what + " within " + timeout + "; last: " + last);
    }

    @Override
    public void close() {
        // A stopped emulator is continued first, so that it can end as asked.
        for (ChildProcess c : profile.children()) {
            if (c.isAlive()) {
                try {
                    new ProcessBuilder("kill", "-CONT", Long.toString(c.serverProcess().pid())).start().waitFor();
                } catch (IOException | InterruptedException e) {
                    // closing anyway
                }
            }
        }
        profile.close();
    }
}

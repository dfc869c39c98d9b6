package io.gamefleet.sdktests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The local profile as a user runs it: {@code java -jar local/target/gamefleet-local.jar} in a process
 * of its own, one for the whole test run, stopped when the run ends. Its claims last
 * {@value #CLAIM_TTL_SECONDS} s, so that a claim can be seen to lapse, and its instances launch in
 * 1 s. Test classes get it as a parameter: {@code @ExtendWith(LocalGamefleet.class)}.
 *
 * <p>The JVM runs under {@code local/sidecar/tether.mjs}, whose stdin is a pipe from this JVM: if
 * this JVM dies without stopping it, the pipe closes and the tether stops the profile, which stops
 * its own children (dynoxide, the Step Functions sidecar) the same way.
 */
public final class LocalGamefleet implements ParameterResolver {
    static final int CLAIM_TTL_SECONDS = 5;
    static final String REGION = "us-east-1";
    static final String ACCOUNT = "000000000000";

    /** The built-in administrator. */
    static final Caller ADMIN = new Caller("local-admin", "local-admin-secret");
    /** A MATCHMAKER caller, from the --principals file. */
    static final Caller MATCHMAKER = new Caller("sdk-matchmaker", "sdk-matchmaker-secret");
    /** A GAME_SERVER caller bound to {@link #BOUND_INSTANCE}, as an instance-profile session is. */
    static final Caller GAME_SERVER = new Caller("sdk-game-server", "sdk-game-server-secret");
    static final String BOUND_INSTANCE = "i-0feedfacefeedface";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    /** SigV4 credentials of a local caller. */
    record Caller(String accessKeyId, String secretAccessKey) {}

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Profile.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        // In the root store: started once, closed by JUnit when the whole run ends.
        return context.getRoot().getStore(ExtensionContext.Namespace.create(LocalGamefleet.class))
                .getOrComputeIfAbsent(Profile.class, k -> Profile.start("local-profile", List.of()), Profile.class);
    }

    /** A running local profile. */
    public static final class Profile implements ExtensionContext.Store.CloseableResource {
        private final Process process;
        private final URI endpoint;
        private final Path log;

        private Profile(Process process, URI endpoint, Path log) {
            this.process = process;
            this.endpoint = endpoint;
            this.log = log;
        }

        /** {@code http://127.0.0.1:<port>}, without a trailing slash. */
        public URI endpoint() {
            return endpoint;
        }

        /** The folder of this module (package.json, the scripts under src/test). */
        static Path moduleDir() {
            return Path.of(System.getProperty("gamefleet.sdk-tests.dir", ".")).toAbsolutePath().normalize();
        }

        /**
         * Another profile beside the shared one, with {@code flags} besides the usual ones; its output
         * in {@code name}.log. The caller closes it.
         */
        static Profile start(String name, List<String> flags) {
            Path jar = Path.of(property("gamefleet.local.jar")).toAbsolutePath().normalize();
            Path home = Path.of(property("gamefleet.local.home")).toAbsolutePath().normalize();
            Path work = Path.of(property("gamefleet.sdk-tests.work")).toAbsolutePath().normalize();
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException(jar + " is missing: build it first (mvn package -pl local -am), "
                        + "or run this module with -am");
            }
            int port = freePort();
            Path log = work.resolve(name + ".log");
            try {
                Files.createDirectories(work);
                Path principals = work.resolve("principals.json");
                Files.writeString(principals, """
                        [{"AccessKeyId": "%s", "SecretAccessKey": "%s", "Role": "MATCHMAKER"},
                         {"AccessKeyId": "%s", "SecretAccessKey": "%s", "Role": "GAME_SERVER", "InstanceId": "%s"}]
                        """.formatted(MATCHMAKER.accessKeyId(), MATCHMAKER.secretAccessKey(),
                        GAME_SERVER.accessKeyId(), GAME_SERVER.secretAccessKey(), BOUND_INSTANCE));
                List<String> command = new ArrayList<>(List.of("node", home.resolve("sidecar/tether.mjs").toString(),
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString(),
                        "--port", Integer.toString(port),
                        "--claim-ttl-seconds", Integer.toString(CLAIM_TTL_SECONDS),
                        "--instance-launch-seconds", "1",
                        "--principals", principals.toString()));
                command.addAll(flags);
                ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile())
                        .redirectErrorStream(true).redirectOutput(log.toFile());
                builder.environment().put("AWS_EC2_METADATA_DISABLED", "true");
                builder.environment().put("GAMEFLEET_LOCAL_HOME", home.toString());
                // The built-in admin is local-admin / local-admin-secret whatever this shell says.
                builder.environment().remove("GAMEFLEET_LOCAL_ACCESS_KEY_ID");
                builder.environment().remove("GAMEFLEET_LOCAL_SECRET_ACCESS_KEY");
                Profile profile = new Profile(builder.start(), URI.create("http://127.0.0.1:" + port), log);
                profile.awaitHealthy();
                return profile;
            } catch (IOException e) {
                throw new UncheckedIOException("could not start the local profile; see " + log, e);
            }
        }

        /** Polls {@code /_local/health} until it answers 200, within {@link #START_TIMEOUT}. */
        private void awaitHealthy() {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
            HttpRequest health = HttpRequest.newBuilder(endpoint.resolve("/_local/health"))
                    .timeout(Duration.ofSeconds(2)).build();
            Instant deadline = Instant.now().plus(START_TIMEOUT);
            while (Instant.now().isBefore(deadline)) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("the local profile exited with " + process.exitValue()
                            + " while starting:\n" + tail());
                }
                try {
                    if (http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                        return;
                    }
                } catch (IOException notYet) {
                    // not listening yet
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    close();
                    throw new IllegalStateException("interrupted while the local profile started", e);
                }
                Polling.pause();
            }
            close();
            throw new IllegalStateException("the local profile was not healthy within " + START_TIMEOUT + ":\n" + tail());
        }

        /**
         * Closes the tether's stdin, which stops the profile as Ctrl-C would (its shutdown hook stops
         * its children), and waits for every process of the tree to end; any still running after
         * {@link #STOP_TIMEOUT} is killed, and reported.
         */
        @Override
        public void close() {
            List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
            tree.add(process.toHandle());
            try {
                process.getOutputStream().close();
            } catch (IOException ignored) {
                // already closed: the tether is stopping anyway
            }
            List<String> killed = new ArrayList<>();
            Instant deadline = Instant.now().plus(STOP_TIMEOUT);
            for (ProcessHandle handle : tree) {
                try {
                    long left = Math.max(1, Duration.between(Instant.now(), deadline).toMillis());
                    handle.onExit().get(left, TimeUnit.MILLISECONDS);
                } catch (Exception stillRunning) {
                    if (handle.isAlive()) {
                        killed.add(handle.pid() + " " + handle.info().commandLine().orElse("?"));
                        handle.destroyForcibly();
                    }
                }
            }
            if (!killed.isEmpty()) {
                throw new IllegalStateException("processes of the local profile outlived it and were killed: " + killed);
            }
        }

        /** The last lines of the profile's output, for a failure message. */
        String tail() {
            try {
                List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
                return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
            } catch (IOException e) {
                return "(no output in " + log + ")";
            }
        }
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        if (value == null) {
            throw new IllegalStateException("system property " + name + " is not set (the module's pom sets it)");
        }
        return value;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }
}

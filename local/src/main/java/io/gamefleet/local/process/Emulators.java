package io.gamefleet.local.process;

import static io.gamefleet.catalog.LocalAccount.ACCOUNT_ID;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The emulators the local profile runs as child processes: dynoxide (DynamoDB) and the Step
 * Functions sidecar, each tethered so that it ends with this JVM, on a free loopback port, with
 * its output in a log file.
 */
public final class Emulators {
    /** How the sidecar gets the token of the edge's Invoke path. */
    static final String LOCAL_TOKEN_VARIABLE = "GAMEFLEET_LOCAL_TOKEN";

    private Emulators() {}

    /** The local/ folder, where node_modules and the sidecar scripts are. */
    public static Path home() {
        String configured = System.getenv("GAMEFLEET_LOCAL_HOME");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath();
        }
        Path here = Path.of("").toAbsolutePath();
        return Files.exists(here.resolve("sidecar/sidecar.mjs")) ? here : here.resolve("local");
    }

    /** dynoxide, keeping its tables in {@code dataDir} if given, else in memory. */
    public static ChildProcess dynamoDb(Path home, Optional<Path> dataDir, File logs) {
        Path binary = home.resolve("node_modules/@dynoxide/linux-x64/dynoxide");
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException("the DynamoDB emulator is not installed (" + binary
                    + "); run `npm ci` in local/ (local/run does it for you)");
        }
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(binary.toString(), "serve", "--host", "127.0.0.1",
                "--port", Integer.toString(port)));
        dataDir.ifPresent(dir -> {
            command.add("--db-path");
            command.add(dir.resolve("gamefleet.db").toString());
        });
        return ChildProcess.start("dynoxide", Tether.command(home, command), home.toFile(), logs,
                URI.create("http://127.0.0.1:" + port));
    }

    /**
     * The Step Functions sidecar: its Task states invoke the functions at {@code invokeEndpoint}
     * (Lambda's Invoke API) with {@code localToken} (in its environment, not its command line), which
     * its own callers must send too ({@link LocalTokenHeader}), its Wait states last
     * {@code workflowWait}, whatever the ASL says, and its state machines' ARNs name {@code region}.
     */
    public static ChildProcess stepFunctions(Path home, File logs, URI invokeEndpoint, String localToken,
            Duration workflowWait, String region) {
        if (!Files.isDirectory(home.resolve("node_modules/aws-local-stepfunctions"))) {
            throw new IllegalStateException("the Step Functions sidecar's packages are not installed; run `npm ci` in "
                    + "local/ (local/run does it for you)");
        }
        int port = freePort();
        List<String> command = List.of(Tether.node(), home.resolve("sidecar/sidecar.mjs").toString(),
                "--port", Integer.toString(port), "--invoke-endpoint", invokeEndpoint.toString(),
                "--region", region, "--account-id", ACCOUNT_ID, "--wait-ms", Long.toString(workflowWait.toMillis()));
        return ChildProcess.start("stepfunctions-sidecar", Tether.command(home, command),
                Map.of(LOCAL_TOKEN_VARIABLE, localToken), home.toFile(), logs, URI.create("http://127.0.0.1:" + port));
    }

    /** A loopback port free now (the system's pick), for a process to listen on next. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free loopback port", e);
        }
    }
}

package io.gamefleet.local.process;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code sidecar/tether.mjs}: runs a command that ends when the script's stdin closes, which is
 * what happens when the JVM holding it dies, however it dies (SIGKILL runs no shutdown hook).
 */
final class Tether {
    private static volatile String node;

    private Tether() {}

    /** The command line that runs {@code command} tethered to this JVM; {@code home} is the local/ folder. */
    static List<String> command(Path home, List<String> command) {
        List<String> line = new ArrayList<>(List.of(node(), home.resolve("sidecar/tether.mjs").toString()));
        line.addAll(command);
        return line;
    }

    /** The Node.js executable, checked once per JVM, with a message that says what to install. */
    static String node() {
        if (node == null) {
            node = findNode();
        }
        return node;
    }

    private static String findNode() {
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            String version = new String(p.getInputStream().readAllBytes()).trim();
            if (p.waitFor() == 0 && version.startsWith("v")) {
                return "node";
            }
        } catch (IOException | InterruptedException e) {
            // reported below
        }
        throw new IllegalStateException("Node.js (20 or newer) is needed for the Step Functions sidecar and to run "
                + "the DynamoDB emulator, and was not found on PATH; install it (for example `apt-get install nodejs npm`)"
                + " or pass --dynamodb-endpoint and --stepfunctions-endpoint");
    }
}

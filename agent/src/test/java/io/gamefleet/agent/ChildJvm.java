package io.gamefleet.agent;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/** What the real-process tests share: a child JVM's command line, free ports, waiting for a process. */
final class ChildJvm {
    /** Under load a child JVM takes a few seconds to start; nothing here waits for time to pass. */
    static final Duration PATIENCE = Duration.ofSeconds(30);

    private ChildJvm() {}

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The JVM options and classpath of a small test main (args follow the class name). */
    static List<String> args(Class<?> main, String... args) {
        List<String> list = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx64m",
                "-cp", System.getProperty("java.class.path"), main.getName()));
        list.addAll(List.of(args));
        return list;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Polls until the condition holds (a real process's doing), failing with {@code what} after PATIENCE. */
    static void await(String what, BooleanSupplier condition) {
        Instant deadline = Instant.now().plus(PATIENCE);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("not within " + PATIENCE.toSeconds() + " s: " + what);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }

    static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            return "";
        }
    }

    /** SIGKILL to a process group the test left behind. */
    static void killGroup(long pgid) {
        try {
            new ProcessBuilder("kill", "-s", "KILL", "--", "-" + pgid).start().waitFor();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

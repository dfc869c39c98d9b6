package io.gamefleet.agent;

import java.io.File;
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
                "-cp", readableClasspath(), main.getName()));
        list.addAll(List.of(args));
        return list;
    }

    private static String readableClasspath;

    /**
     * A classpath for the test mains that every uid may read, as a game server of its own uid must:
     * the module's class folders, and copies of the Jackson jars (the one library they use) in a
     * folder anyone may read, since the local Maven repository is in root's 0700 home.
     */
    static synchronized String readableClasspath() {
        if (readableClasspath == null) {
            try {
                Path copies = Files.createTempDirectory("gamefleet-test-classpath-");
                Files.setPosixFilePermissions(copies, ServerFolders.READABLE);
                copies.toFile().deleteOnExit();
                List<String> entries = new ArrayList<>();
                for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
                    Path path = Path.of(entry).toAbsolutePath();
                    if (Files.isDirectory(path)) {
                        entries.add(path.toString());
                    } else if (path.getFileName().toString().startsWith("jackson-")) {
                        Path copy = Files.copy(path, copies.resolve(path.getFileName()));
                        Files.setPosixFilePermissions(copy, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
                        copy.toFile().deleteOnExit();
                        entries.add(copy.toString());
                    }
                }
                readableClasspath = String.join(File.pathSeparator, entries);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return readableClasspath;
    }

    /** Whether this JVM may give game servers users of their own (root, or CAP_SETUID and CAP_SETGID). */
    static boolean canSwitchUsers() {
        return Privileges.ofThisProcess().canSwitchUsers();
    }

    /** Makes a test's temporary folder traversable (0711), as the path to a serversDirectory must be for its processes. */
    static Path traversable(Path folder) throws IOException {
        return Files.setPosixFilePermissions(folder, ServerFolders.TRAVERSABLE);
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

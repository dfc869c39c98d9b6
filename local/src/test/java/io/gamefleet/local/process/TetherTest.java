package io.gamefleet.local.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code sidecar/tether.mjs}, which runs the local profile's emulators: the command ends when
 * the script's stdin closes, which is what happens when the JVM holding it dies, however it dies.
 */
class TetherTest {
    /** Every process a test started, the tethers and the commands they run: none outlives its test. */
    private final List<ProcessHandle> started = new ArrayList<>();

    @AfterEach
    void destroyWhatTheTestStarted() {
        // Also when an assertion failed before the tether was closed: a sleep 600 would stay behind.
        for (ProcessHandle p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly); // children not yet seen by child()
            p.destroyForcibly();
        }
    }

    private Process tether(String... command) throws IOException {
        Process tether = new ProcessBuilder(Tether.command(Emulators.home(), List.of(command))).redirectErrorStream(true)
                .start();
        started.add(tether.toHandle());
        return tether;
    }

    /** The tethered command, once node has started it. */
    private ProcessHandle child(Process tether) throws InterruptedException {
        for (int tries = 0; tries < 200; tries++) {
            var children = tether.children().toList();
            if (!children.isEmpty()) {
                started.addAll(children);
                return children.get(0);
            }
            Thread.sleep(25); // polling for node to spawn it, not waiting for time to pass
        }
        throw new AssertionError("tether.mjs started no child");
    }

    @Test
    void theCommandEndsWhenStdinCloses() throws Exception {
        Process tether = tether("sleep", "600");
        ProcessHandle sleep = child(tether);
        assertThat(sleep.isAlive()).isTrue();

        tether.getOutputStream().close(); // as when the JVM that started it is killed

        assertThat(sleep.onExit()).succeedsWithin(Duration.ofSeconds(10));
        assertThat(tether.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void theCommandEndsWithTheTetherOnSigterm() throws Exception {
        Process tether = tether("sleep", "600");
        ProcessHandle sleep = child(tether);

        tether.destroy();

        assertThat(sleep.onExit()).succeedsWithin(Duration.ofSeconds(10));
        assertThat(tether.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void theExitCodeIsTheCommands() throws Exception {
        Process tether = tether("sh", "-c", "exit 3");
        assertThat(tether.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(tether.exitValue()).isEqualTo(3);
        Process missing = tether("no-such-command-anywhere");
        assertThat(missing.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(missing.exitValue()).isEqualTo(127);
        assertThat(new String(missing.getInputStream().readAllBytes())).contains("cannot run no-such-command-anywhere");
    }

    /** Ctrl-C in a terminal signals its foreground process group: the JVM's, the tether's. */
    @Test
    void aTerminalsSigintReachesNeitherTheCommandNorTheTetherSoTheProfileStopsItInTurn() throws Exception {
        Process tether = tether("sleep", "600");
        ProcessHandle sleep = child(tether);
        assertThat(processGroup(sleep.pid())).as("a group of its own").isEqualTo(sleep.pid())
                .isNotEqualTo(processGroup(tether.pid()));

        assertThat(new ProcessBuilder("kill", "-INT", Long.toString(tether.pid())).start().waitFor()).isZero();

        assertThat(tether.waitFor(500, TimeUnit.MILLISECONDS)).as("the tether ignores it").isFalse();
        assertThat(sleep.isAlive()).isTrue();
        tether.getOutputStream().close(); // the profile's own stop
        assertThat(sleep.onExit()).succeedsWithin(Duration.ofSeconds(10));
    }

    /** Linux's /proc (its fifth field), else ps (macOS). */
    private static long processGroup(long pid) throws IOException, InterruptedException {
        java.nio.file.Path stat = java.nio.file.Path.of("/proc", Long.toString(pid), "stat");
        if (java.nio.file.Files.exists(stat)) {
            String line = java.nio.file.Files.readString(stat);
            return Long.parseLong(line.substring(line.lastIndexOf(')') + 2).split(" ")[2]);
        }
        Process ps = new ProcessBuilder("ps", "-o", "pgid=", "-p", Long.toString(pid)).start();
        String out = new String(ps.getInputStream().readAllBytes()).trim();
        ps.waitFor();
        return Long.parseLong(out);
    }
}

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
}

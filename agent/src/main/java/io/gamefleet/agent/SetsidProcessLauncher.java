package io.gamefleet.agent;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Starts each game server with {@code setsid}: it leads a new session and process group (its pgid is
 * its pid), so a signal reaches everything it started, and it outlives the agent. Its stdout and
 * stderr go straight to a file, never through a pipe the agent's end would break.
 */
final class SetsidProcessLauncher implements ProcessLauncher {
    /** /proc gives start times in clock ticks; two readings of one process agree far closer than this. */
    private static final Duration SAME_START = Duration.ofSeconds(1);

    @Override
    public GameProcess launch(LaunchSpec spec) throws IOException {
        List<String> command = new ArrayList<>();
        command.add("setsid");
        command.addAll(spec.command());
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(spec.workingDirectory().toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(spec.outputFile().toFile()));
        builder.environment().clear();
        builder.environment().putAll(spec.environment());
        Process process = builder.start();
        return new GroupLeader(process.toHandle(), process);
    }

    @Override
    public Optional<GameProcess> adopt(long pid, Instant startInstant) {
        return ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .filter(h -> h.info().startInstant()
                        .map(s -> Duration.between(s, startInstant).abs().compareTo(SAME_START) < 0).orElse(false))
                .map(h -> new GroupLeader(h, null));
    }

    /** A process group's leader; {@code process} is null for one adopted from an earlier run (no exit code then). */
    private record GroupLeader(ProcessHandle handle, Process process) implements GameProcess {
        @Override
        public long pid() {
            return handle.pid();
        }

        @Override
        public Instant startInstant() {
            return handle.info().startInstant().orElse(Instant.EPOCH);
        }

        @Override
        public boolean isAlive() {
            return process != null ? process.isAlive() : handle.isAlive();
        }

        @Override
        public OptionalInt exitCode() {
            return process == null || process.isAlive() ? OptionalInt.empty() : OptionalInt.of(process.exitValue());
        }

        @Override
        public void terminate() {
            signalGroup("TERM");
        }

        @Override
        public void kill() {
            signalGroup("KILL");
        }

        private void signalGroup(String signal) {
            try {
                new ProcessBuilder("kill", "-s", signal, "--", "-" + handle.pid())
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start().waitFor();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}

package io.gamefleet.agent;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Starts each game server with {@code setsid} (it leads a new session and process group, its pgid
 * its pid, so a signal reaches everything it started, and it outlives the agent) and util-linux's
 * {@code setpriv}: as its slot's own uid and gid with no supplementary groups, every capability set
 * emptied and no_new_privs (nothing it runs gains a privilege), or, as the agent's user, without the
 * agent's inheritable and ambient capabilities. setpriv (and env) exec in place: the pid is the game's.
 * Its stdout and stderr go straight to a file, never through a pipe the agent's end would break.
 */
final class SetsidProcessLauncher implements ProcessLauncher {
    /** /proc gives start times in clock ticks; two readings of one process agree far closer than this. */
    private static final Duration SAME_START = Duration.ofSeconds(1);

    /** The PATH the agent's own helpers (kill, test) run with. */
    private final String path;

    SetsidProcessLauncher(String path) {
        this.path = path;
    }

    /** setpriv's command line that runs what follows as {@code uid} (or the agent's user), before the command. */
    static List<String> asUser(int uid) {
        if (uid == ServerUsers.AGENT_USER) {
            return List.of("setpriv", "--inh-caps=-all", "--ambient-caps=-all", "--");
        }
        // A nonzero-to-nonzero uid change keeps ambient capabilities (the systemd unit's), so each set is emptied
        // by name; the bounding set only with CAP_SETPCAP (setpriv skips it without, and ServerUsers says so).
        // setpriv still holds the agent's capabilities when it execs, so env (run without them) looks the command
        // up: what the uid cannot reach (a script under a 0700 home) fails as it would for that user.
        return List.of("setpriv", "--reuid=" + uid, "--regid=" + uid, "--clear-groups", "--inh-caps=-all",
                "--ambient-caps=-all", "--bounding-set=-all", "--no-new-privs", "--", "env", "--");
    }

    @Override
    public GameProcess launch(LaunchSpec spec) throws IOException {
        Process process = builder(spec).start();
        return new GroupLeader(process.toHandle(), process, ProcessStat.of(process.pid()).map(ProcessStat::startTicks).orElse(-1L));
    }

    /** How a game server is started: under setsid and setpriv, with the spec's environment and nothing else. */
    static ProcessBuilder builder(LaunchSpec spec) {
        List<String> command = new ArrayList<>();
        command.add("setsid");
        command.addAll(asUser(spec.uid()));
        command.addAll(spec.command());
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(spec.workingDirectory().toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(spec.outputFile().toFile()));
        builder.environment().clear();
        builder.environment().putAll(spec.environment());
        return builder;
    }

    @Override
    public Optional<GameProcess> adopt(long pid, Long startTicks, Instant startInstant, int uid) {
        Optional<ProcessStat> stat = ProcessStat.of(pid);
        Optional<ProcessHandle> handle = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (stat.isEmpty() || handle.isEmpty()) {
            return Optional.empty();
        }
        boolean same = isTheOneStarted(stat.get(), handle.get().info().startInstant(), startTicks, startInstant) && runsAs(pid, uid);
        return same ? Optional.of(new GroupLeader(handle.get(), null, stat.get().startTicks())) : Optional.empty();
    }

    /**
     * Whether the process {@code now} at a pid (which the OS says started at {@code startedAt}) is the one an
     * earlier run recorded: the leader of its own session, started at the recorded clock tick, or, where the
     * state file has none, within {@link #SAME_START} of the recorded instant.
     */
    static boolean isTheOneStarted(ProcessStat now, Optional<Instant> startedAt, Long startTicks, Instant startInstant) {
        if (!now.leadsItsSession()) {
            return false;
        }
        return startTicks != null ? now.startTicks() == startTicks
                : startedAt.map(s -> Duration.between(s, startInstant).abs().compareTo(SAME_START) < 0).orElse(false);
    }

    /** Whether the process at {@code pid} runs as {@code uid} (whatever its uid, for the agent's own user). */
    static boolean runsAs(long pid, int uid) {
        return uid == ServerUsers.AGENT_USER || ProcessStat.realUid(pid).orElse(-1) == uid;
    }

    @Override
    public void killAll(int uid) {
        run(killAllCommand(uid));
    }

    /** SIGKILL to every process of {@code uid}, sent as that uid: its processes only. */
    static List<String> killAllCommand(int uid) {
        if (uid <= 0) {
            // kill -1 as root, or as the agent's user, would end far more than a slot's leftovers.
            throw new IllegalArgumentException("killAll needs a game server's own uid, not " + uid);
        }
        List<String> command = new ArrayList<>(asUser(uid));
        command.addAll(List.of("kill", "-KILL", "--", "-1")); // as that uid, -1 reaches its processes only
        return command;
    }

    @Override
    public boolean canExecute(int uid, String command, String searchPath) {
        List<String> candidates = new ArrayList<>();
        if (command.contains("/")) {
            candidates.add(command);
        } else {
            for (String dir : searchPath.split(":")) {
                candidates.add((dir.isEmpty() ? "." : dir) + "/" + command);
            }
        }
        for (String candidate : candidates) {
            List<String> test = new ArrayList<>(asUser(uid));
            test.addAll(List.of("test", "-f", candidate, "-a", "-x", candidate));
            if (run(test) == 0) {
                return true;
            }
        }
        return false;
    }

    private int run(List<String> command) {
        try {
            return helper(command).start().waitFor();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** One of the agent's helpers (setpriv, kill, test): its output discarded, the agent's PATH its only variable. */
    ProcessBuilder helper(List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().clear();
        builder.environment().putAll(Map.of("PATH", path));
        return builder;
    }

    /** A process group's leader; {@code process} is null for one adopted from an earlier run (no exit code then). */
    record GroupLeader(ProcessHandle handle, Process process, long startTicks) implements GameProcess {
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

package io.gamefleet.agent;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/** Processes that are objects: the test ends them, and sees the signals the agent sends. */
final class FakeProcesses implements ProcessLauncher {
    final List<Fake> launched = new ArrayList<>();
    final List<LaunchSpec> specs = new ArrayList<>();
    final Map<Long, Fake> adoptable = new HashMap<>();
    IOException failLaunch;
    /** The uids every process of which was killed, in order. */
    final List<Integer> killedAll = new ArrayList<>();
    /** What canExecute answers. */
    boolean executable = true;
    private long nextPid = 1000;

    static final class Fake implements GameProcess {
        final long pid;
        final Instant start;
        boolean alive = true;
        Integer exit;
        int terms;
        int kills;
        /** Whether TERM ends it (with 143); false models a process that ignores TERM. */
        boolean exitsOnTerm = true;
        /** A process KILL does not end (the kernel holds it in uninterruptible sleep). */
        boolean survivesKill;

        Fake(long pid, Instant start) {
            this.pid = pid;
            this.start = start;
        }

        void exit(int code) {
            alive = false;
            exit = code;
        }

        @Override public long pid() { return pid; }
        @Override public long startTicks() { return start.getEpochSecond(); }
        @Override public Instant startInstant() { return start; }
        @Override public boolean isAlive() { return alive; }
        @Override public OptionalInt exitCode() { return exit == null ? OptionalInt.empty() : OptionalInt.of(exit); }

        @Override
        public void terminate() {
            terms++;
            if (exitsOnTerm) {
                exit(143);
            }
        }

        @Override
        public void kill() {
            kills++;
            if (!survivesKill) {
                exit(137);
            }
        }
    }

    @Override
    public GameProcess launch(LaunchSpec spec) throws IOException {
        if (failLaunch != null) {
            throw failLaunch;
        }
        Fake f = new Fake(nextPid++, Instant.parse("2026-12-01T00:00:00Z").plusSeconds(launched.size()));
        launched.add(f);
        specs.add(spec);
        return f;
    }

    @Override
    public Optional<GameProcess> adopt(long pid, Long startTicks, Instant startInstant, int uid) {
        Fake f = adoptable.get(pid);
        return f != null && f.alive && startTicks != null && f.startTicks() == startTicks ? Optional.of(f) : Optional.empty();
    }

    @Override
    public void killAll(int uid) {
        killedAll.add(uid);
    }

    @Override
    public boolean canExecute(int uid, String command, String path) {
        return executable;
    }

    Fake last() {
        return launched.get(launched.size() - 1);
    }
}

package io.gamefleet.agent;

import java.time.Instant;
import java.util.OptionalInt;

/** A running game server process, the leader of its own process group. */
public interface GameProcess {
    long pid();

    /** When the OS started it, in clock ticks since boot ({@code /proc/<pid>/stat}): with the pid, its identity. */
    long startTicks();

    /** The same as an instant, for people reading the state file. */
    Instant startInstant();

    boolean isAlive();

    /** The exit code once it has ended, when the agent can know it (not for an adopted process). */
    OptionalInt exitCode();

    /** SIGTERM to the whole process group. */
    void terminate();

    /** SIGKILL to the whole process group. */
    void kill();
}

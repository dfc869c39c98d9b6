package io.gamefleet.agent;

import java.time.Instant;
import java.util.OptionalInt;

/** A running game server process, the leader of its own process group. */
public interface GameProcess {
    long pid();

    /** When the OS started it: with the pid, it tells the same process from a later one with a reused pid. */
    Instant startInstant();

    boolean isAlive();

    /** The exit code once it has ended, when the agent can know it (not for an adopted process). */
    OptionalInt exitCode();

    /** SIGTERM to the whole process group. */
    void terminate();

    /** SIGKILL to the whole process group. */
    void kill();
}

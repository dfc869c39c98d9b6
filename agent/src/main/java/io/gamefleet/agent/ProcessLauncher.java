package io.gamefleet.agent;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Starts game server processes, and finds again those an earlier run of the agent started. */
public interface ProcessLauncher {
    /**
     * The command line, the whole environment, the working folder, the file stdout and stderr go to,
     * and the uid (and gid) it runs as ({@link ServerUsers#AGENT_USER}: the agent's own).
     */
    record LaunchSpec(List<String> command, Map<String, String> environment, Path workingDirectory, Path outputFile, int uid) {}

    GameProcess launch(LaunchSpec spec) throws IOException;

    /**
     * The process of an earlier run, if it is still that one: the same pid and start time (clock
     * ticks; {@code startInstant} within a second for a state file that has none), the leader of its
     * own session, running as {@code uid} (unless {@link ServerUsers#AGENT_USER}).
     */
    Optional<GameProcess> adopt(long pid, Long startTicks, Instant startInstant, int uid);

    /** SIGKILL to every process of {@code uid}: what a slot's ended process left behind, escaped from its group or not. */
    void killAll(int uid);

    /** Whether {@code uid} may execute {@code command} (a path, or a name looked up in {@code path} as execvp does). */
    boolean canExecute(int uid, String command, String path);
}

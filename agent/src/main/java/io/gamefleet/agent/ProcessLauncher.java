package io.gamefleet.agent;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Starts game server processes, and finds again those an earlier run of the agent started. */
public interface ProcessLauncher {
    /** The command line, the whole environment, the working folder and the file stdout and stderr go to. */
    record LaunchSpec(List<String> command, Map<String, String> environment, Path workingDirectory, Path outputFile) {}

    GameProcess launch(LaunchSpec spec) throws IOException;

    /** The process of an earlier run, if it still runs and is the same one (pid and start time). */
    Optional<GameProcess> adopt(long pid, Instant startInstant);
}

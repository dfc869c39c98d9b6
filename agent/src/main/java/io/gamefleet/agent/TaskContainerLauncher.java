package io.gamefleet.agent;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A sidecar's "launcher": its game server is the ECS task's other container, which ECS starts and
 * stops, so nothing is started here. A launch gives the agent a handle on that container's game
 * server, which runs until the agent lets it go: its TERM and KILL (its stop's end, after the
 * Terminate it was answered) mark it ended, as the agent cannot signal another container. Its
 * container then exits, or is stopped with the task when the agent exits.
 */
final class TaskContainerLauncher implements ProcessLauncher {
    private final Clock clock;

    TaskContainerLauncher(Clock clock) {
        this.clock = clock;
    }

    /** The game server in the task's other container, as far as the agent sees it. */
    static final class ContainerGameServer implements GameProcess {
        private final Instant startedAt;
        private volatile boolean letGo;

        ContainerGameServer(Instant startedAt) {
            this.startedAt = startedAt;
        }

        /** No pid the agent can see: the container has its own process namespace. */
        @Override public long pid() { return 0; }
        @Override public long startTicks() { return 0; }
        @Override public Instant startInstant() { return startedAt; }
        @Override public boolean isAlive() { return !letGo; }
        @Override public OptionalInt exitCode() { return OptionalInt.empty(); }
        @Override public void terminate() { letGo = true; }
        @Override public void kill() { letGo = true; }
    }

    @Override
    public GameProcess launch(LaunchSpec spec) {
        return new ContainerGameServer(clock.instant());
    }

    /**
     * A restarted sidecar's recorded game server, taken back as it is: its config file is unchanged, so
     * if it still runs its heartbeats go on; if not, the heartbeat timeout ends it.
     */
    @Override
    public Optional<GameProcess> adopt(long pid, Long startTicks, Instant startInstant, int uid) {
        return Optional.of(new ContainerGameServer(startInstant != null ? startInstant : clock.instant()));
    }

    /** Nothing of the game server's runs in the agent's container. */
    @Override
    public void killAll(int uid) {
    }

    @Override
    public boolean canExecute(int uid, String command, String path) {
        return true;
    }
}

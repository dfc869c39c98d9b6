package io.gamefleet.agent;

import java.time.Clock;
import java.util.concurrent.CompletableFuture;

/**
 * An ECS task's sidecar round (docs/agent.md, "As an ECS sidecar"): the supervisor's round for the
 * task's one game server, then the task's scale-in protection brought in line with it, and the
 * sidecar's end once its game server is over, deregistered and archived and the protection
 * released: the agent then exits, its task stops, and ECS replaces it.
 */
final class Sidecar {
    private final Supervisor supervisor;
    private final TaskProtection protection;
    private final Clock clock;
    private final CompletableFuture<Void> over = new CompletableFuture<>();

    Sidecar(Supervisor supervisor, TaskProtection protection, Clock clock) {
        this.supervisor = supervisor;
        this.protection = protection;
        this.clock = clock;
    }

    void tick() {
        supervisor.tick();
        synchronized (supervisor.lock) {
            boolean wanted = supervisor.holdsMatch();
            protection.follow(wanted, clock.instant());
            if (supervisor.gameServerOver() && protection.settled(wanted)) {
                over.complete(null);
            }
        }
    }

    /** Nothing left to do for the protection: what a stopping agent waits for besides its supervisor. */
    boolean protectionSettled() {
        synchronized (supervisor.lock) {
            return protection.settled(supervisor.holdsMatch());
        }
    }

    /** Completes once the game server is over and all its business done. */
    CompletableFuture<Void> over() {
        return over;
    }
}

package io.gamefleet.agent;

import java.util.concurrent.CompletableFuture;

/**
 * An ECS task's sidecar round (docs/agent.md, "As an ECS sidecar"): the supervisor's round for the
 * task's one game server, and the sidecar's end once that server is over, deregistered and archived:
 * the agent then exits, its task stops, and ECS replaces it. The task's scale-in protection is the
 * backend's (its balancer's), not the sidecar's: the task role holds no ECS action.
 */
final class Sidecar {
    private final Supervisor supervisor;
    private final CompletableFuture<Void> over = new CompletableFuture<>();

    Sidecar(Supervisor supervisor) {
        this.supervisor = supervisor;
    }

    void tick() {
        supervisor.tick();
        if (supervisor.gameServerOver()) {
            over.complete(null);
        }
    }

    /** Completes once the game server is over and all its business done. */
    CompletableFuture<Void> over() {
        return over;
    }
}

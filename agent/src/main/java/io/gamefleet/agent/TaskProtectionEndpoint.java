package io.gamefleet.agent;

/** Where a sidecar sets its ECS task's scale-in protection. */
interface TaskProtectionEndpoint {
    /** The protection refused or not set: the message says why. */
    final class Failed extends RuntimeException {
        Failed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Protects the task from scale-in for {@code minutes} (enabled), or releases it; {@link Failed} when it did not. */
    void set(boolean enabled, int minutes);
}

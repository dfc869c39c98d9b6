package io.gamefleet.agent;

import java.util.Optional;

/**
 * The state changes a GSDK process may report. PlayFab's local agent refuses only StandingBy to
 * Initializing (and then stops); this agent refuses every change back, and Active that no claim
 * gave, and goes on serving.
 */
final class GsdkTransitions {
    private GsdkTransitions() {}

    /** Why {@code from -> to} is refused, or empty when it is allowed. {@code from} null: no heartbeat yet. */
    static Optional<String> refusal(GameState from, GameState to, boolean toldActive) {
        if (to == GameState.Invalid || to == GameState.Quarantined) {
            return Optional.of(to + " is not a state a game server reports");
        }
        boolean allowed = switch (from == null ? GameState.Initializing : from) {
            case Initializing -> to != GameState.Active;
            case StandingBy -> to != GameState.Initializing && (to != GameState.Active || toldActive);
            case Active -> to == GameState.Active || to.ending();
            case Terminating -> to.ending();
            case Terminated -> to == GameState.Terminated;
            case Invalid, Quarantined -> false;
        };
        if (allowed) {
            return Optional.empty();
        }
        if (to == GameState.Active) {
            return Optional.of((from == null ? "no state" : from) + " -> Active: a server becomes Active only when a claim "
                    + "reaches it (a heartbeat reply with operation Active)");
        }
        return Optional.of(from + " -> " + to + " is not allowed: a game server never goes back"
                + (from == GameState.Active ? " (only a new process gives a new StandingBy server)" : ""));
    }
}

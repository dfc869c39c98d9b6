package io.gamefleet.agent;

import java.util.Optional;

/** The states a GSDK game server reports in {@code CurrentGameState} (PlayFab's SessionHostStatus). */
public enum GameState {
    Invalid, Initializing, StandingBy, Active, Terminating, Terminated, Quarantined;

    /** The GSDKs send the names as they are; any case is read. */
    static Optional<GameState> parse(String text) {
        for (GameState s : values()) {
            if (s.name().equalsIgnoreCase(text)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    boolean ending() {
        return this == Terminating || this == Terminated;
    }
}

package io.gamefleet.domain;

/**
 * Crashed processes and start timeouts on one instance since its agent's previous report that was
 * taken: counted in the group's metrics once the report is taken.
 */
public record ProcessEvents(int crashes, int startTimeouts) {
    public static final ProcessEvents NONE = new ProcessEvents(0, 0);

    public ProcessEvents {
        if (crashes < 0 || startTimeouts < 0) {
            throw new IllegalArgumentException("no negative crashes or start timeouts");
        }
    }

    public boolean any() {
        return crashes > 0 || startTimeouts > 0;
    }
}

package io.gamefleet.agent;

/**
 * The instance's crashes and start timeouts not yet known to Gamefleet: a health report over the
 * push channel carries them ({@code processEvents}), and they are kept until a report is taken. The
 * channel answers a report that is taken with nothing, so one counts as taken when the next goes
 * out with no refusal or lost connection in between; a refused one, or one whose connection was
 * found dead, gives its counts back to the next (at least once: a report taken just before its
 * connection failed is counted again). Mutated only under the supervisor's lock.
 */
final class ProcessEvents {
    /** What one report carries. */
    record Counts(int crashes, int startTimeouts) {
        static final Counts NONE = new Counts(0, 0);

        Counts plus(Counts other) {
            return new Counts(crashes + other.crashes, startTimeouts + other.startTimeouts);
        }
    }

    private Counts unsent = Counts.NONE;
    /** In the last report sent, not yet known to be taken. */
    private Counts sent = Counts.NONE;

    void crash() {
        unsent = unsent.plus(new Counts(1, 0));
    }

    void startTimeout() {
        unsent = unsent.plus(new Counts(0, 1));
    }

    /** The counts of a report that goes out now: the one before it was taken. */
    Counts forReport() {
        sent = unsent;
        unsent = Counts.NONE;
        return sent;
    }

    /** The last report was refused, not sent, or its connection failed: its counts go into the next. */
    void notTaken() {
        unsent = unsent.plus(sent);
        sent = Counts.NONE;
    }
}

package io.gamefleet.agent;

import java.time.Instant;
import java.util.List;

/**
 * One sequence for every way the instance goes (docs/agent.md, "Graceful ends"): no process starts
 * any more; the servers not in a match are stopped at once (deregistered in the same round: nothing
 * may claim them); those in a match play on, with the maintenance fields, until the sequence's
 * Terminate time, when they are stopped too (Terminate, TERM after {@code terminateNoticeSeconds},
 * KILL after {@code stopGraceSeconds}); each is deregistered and archived as it ends. Each trigger
 * sets when the matches get Terminate; a later notice can only bring it forward. Mutated only under
 * the supervisor's lock.
 */
final class GracefulEnd {
    /** Why the instance goes. */
    enum Reason {
        SPOT_INTERRUPTION("an EC2 Spot interruption"),
        REBALANCE_RECOMMENDATION("an EC2 rebalance recommendation (rebalance: drain)"),
        MAX_INSTANCE_LIFETIME("the end of the instance's maximum lifetime"),
        SCALE_IN("an Auto Scaling scale-in"),
        AGENT_STOP("the agent's stop");

        final String words;

        Reason(String words) {
            this.words = words;
        }
    }

    private final AgentConfig.Timings timings;
    private final AgentLog log;
    private Reason reason;
    /** The instance's end, when known. */
    private Instant endsAt;
    /** When the servers in a match get Terminate; null while none is due (they play their matches out). */
    private Instant terminateAt;

    GracefulEnd(AgentConfig.Timings timings, AgentLog log) {
        this.timings = timings;
        this.log = log;
    }

    boolean draining() {
        return reason != null;
    }

    /** The instance's end, or null when none is known. */
    Instant endsAt() {
        return endsAt;
    }

    /**
     * The instance ends by force at {@code time}: the matches get Terminate early enough that their
     * TERM, KILL and archive (its uploads included) are done before, {@code archiveReserveSeconds}
     * being what the archive keeps after the last KILL.
     */
    void spotInterruption(Instant time, Instant now) {
        notice(Reason.SPOT_INTERRUPTION, time, time.minus(timings.terminateNotice()).minus(timings.stopGrace())
                .minus(timings.archiveReserve()), now);
    }

    /** No end is known: the matches are played out, and the instance takes no new one. */
    void rebalanceRecommendation(Instant now) {
        notice(Reason.REBALANCE_RECOMMENDATION, null, null, now);
    }

    /**
     * The instance is replaced at {@code retiresAt}, which stops its agent (the stop's own sequence):
     * the matches play on until {@code terminateNoticeSeconds} before, so their TERM comes at the end.
     */
    void retiring(Instant retiresAt, Instant now) {
        notice(Reason.MAX_INSTANCE_LIFETIME, retiresAt, retiresAt.minus(timings.terminateNotice()), now);
    }

    /** Auto Scaling terminates the instance now (its target lifecycle state is Terminated): everything ends at once. */
    void scaleIn(Instant now) {
        notice(Reason.SCALE_IN, now, now, now);
    }

    /** The agent is stopped (SIGTERM): everything ends at once, within {@code shutdownBudgetSeconds}. */
    void agentStop(Instant now) {
        notice(Reason.AGENT_STOP, now.plus(timings.shutdownBudget()), now, now);
    }

    private void notice(Reason why, Instant end, Instant terminate, Instant now) {
        boolean first = reason == null;
        boolean earlierEnd = end != null && (endsAt == null || end.isBefore(endsAt));
        boolean earlierTerminate = terminate != null && (terminateAt == null || terminate.isBefore(terminateAt));
        if (!first && !earlierEnd && !earlierTerminate) {
            return; // a repeat, or a notice that changes nothing
        }
        if (first || earlierTerminate) {
            reason = why; // what the stops it makes from now on name
        }
        if (earlierEnd) {
            endsAt = end;
        }
        if (earlierTerminate) {
            terminateAt = terminate.isBefore(now) ? now : terminate;
        }
        log.info("graceful end (" + why.words + (end == null ? "" : ", the instance ends at " + GsdkReplies.time(end))
                + "): " + (first ? "no new game server process starts; the StandingBy servers are deregistered and stopped now; " : "")
                + (terminateAt == null ? "the matches play on" : "the matches are told Terminate at " + GsdkReplies.time(terminateAt)));
    }

    /** Each round: the servers the sequence stops now (those with no match at once, the others at the Terminate time). */
    void apply(List<ServerRecord> running, ProcessSlots slots, Instant now) {
        if (reason == null) {
            return;
        }
        for (ServerRecord s : running) {
            if (s.stopping()) {
                continue;
            }
            if (!s.inMatch()) {
                slots.stop(s, "the instance is going (" + reason.words + ")", false, true, now);
            } else if (terminateAt != null && !now.isBefore(terminateAt)) {
                slots.stop(s, "the instance is going (" + reason.words + "): its match ends", false, true, now);
            }
        }
    }
}

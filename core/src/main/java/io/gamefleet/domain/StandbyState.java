package io.gamefleet.domain;

import java.time.Instant;
import java.util.Optional;

/**
 * What a group's standby evaluations carry from one to the next: since when the group has had
 * more instances than its buffer needs (the scale-in cooldown counts from there), the dynamic tier
 * held until its ramp-down ends, the last evaluation (as DescribeStandbyPolicy shows it), and
 * whether the group's target tracking policy had its scale-in turned off for the buffer.
 */
public record StandbyState(Optional<Instant> surplusSince, Optional<HeldTier> heldTier,
        Optional<Evaluation> lastEvaluation, boolean targetTrackingScaleInOff) {

    public static StandbyState initial() {
        return new StandbyState(Optional.empty(), Optional.empty(), Optional.empty(), false);
    }

    public StandbyState withTargetTrackingScaleInOff(boolean off) {
        return new StandbyState(surplusSince, heldTier, lastEvaluation, off);
    }

    /** A dynamic tier's multiplier, applied until {@code until}. */
    public record HeldTier(double multiplier, Instant until) {}

    /**
     * One evaluation: the StandingBy servers it aimed at ({@code target}, the buffer with its
     * dynamic multiplier), those it saw StandingBy and in use, the servers per instance it measured
     * (0: none registered yet), and the desired capacity it asked for.
     */
    public record Evaluation(Instant at, long target, long standingBy, long inUse, int serversPerInstance,
            int desiredCapacity, double multiplier) {}
}

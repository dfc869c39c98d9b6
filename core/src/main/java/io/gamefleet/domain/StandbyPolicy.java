package io.gamefleet.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * A group's standby buffer (Gamefleet's own setting, PlayFab's standby servers, Agones' buffer):
 * how many game servers are kept StandingBy (AVAILABLE, unclaimed, healthy, on an ACTIVE instance
 * that is not retiring) beside those in use. {@code buffer}: a count, or a percentage of all the
 * group's servers; {@code dynamic}: tiers that multiply it while the StandingBy servers are below a
 * percentage of it (PlayFab's dynamic standby), each held for {@code rampDown} after it last applied;
 * {@code schedule}: UTC windows with buffers of their own; {@code scaleInCooldown}: how long the
 * group must have more instances than the buffer needs before idle ones are ended. Valid by
 * construction: a refused setting names its member.
 */
public record StandbyPolicy(Buffer buffer, List<DynamicTier> dynamic, Duration rampDown, List<Window> schedule,
        Duration scaleInCooldown) {
    public static final int MAX_SERVERS = 100_000;
    public static final int MAX_TIERS = 5;
    public static final int MAX_WINDOWS = 100;
    public static final double MAX_MULTIPLIER = 10;
    public static final Duration DEFAULT_RAMP_DOWN = Duration.ofMinutes(30);
    public static final Duration DEFAULT_SCALE_IN_COOLDOWN = Duration.ofMinutes(5);
    public static final Duration MAX_DURATION = Duration.ofDays(1);

    public StandbyPolicy {
        dynamic = List.copyOf(dynamic);
        schedule = List.copyOf(schedule);
        buffer.validFor("StandingBy");
        requireDuration("RampDownSeconds", rampDown);
        requireDuration("ScaleInCooldownSeconds", scaleInCooldown);
        if (dynamic.size() > MAX_TIERS) {
            throw invalid("Dynamic", "holds at most " + MAX_TIERS + " tiers");
        }
        for (int i = 0; i < dynamic.size(); i++) {
            DynamicTier tier = dynamic.get(i);
            String member = "Dynamic[" + i + "]";
            if (!(tier.belowPercent() > 0 && tier.belowPercent() < 100)) {
                throw invalid(member + ".BelowPercent", "must be above 0 and below 100");
            }
            if (!(tier.multiplier() > 1 && tier.multiplier() <= MAX_MULTIPLIER)) {
                throw invalid(member + ".Multiplier", "must be above 1 and at most " + (int) MAX_MULTIPLIER);
            }
        }
        // A deeper shortage must never shrink the buffer: the lower a tier's threshold, the larger its multiplier.
        List<DynamicTier> byThreshold = new ArrayList<>(dynamic);
        byThreshold.sort(Comparator.comparingDouble(DynamicTier::belowPercent));
        for (int i = 1; i < byThreshold.size(); i++) {
            DynamicTier deeper = byThreshold.get(i - 1);
            DynamicTier shallower = byThreshold.get(i);
            if (deeper.belowPercent() == shallower.belowPercent()) {
                throw invalid("Dynamic[" + dynamic.indexOf(shallower) + "].BelowPercent", "repeats another tier's threshold");
            }
            if (deeper.multiplier() <= shallower.multiplier()) {
                throw invalid("Dynamic[" + dynamic.indexOf(deeper) + "].Multiplier", "must be above the "
                        + shallower.multiplier() + " of the tier below " + shallower.belowPercent()
                        + "%: a deeper shortage may not shrink the buffer");
            }
        }
        if (schedule.size() > MAX_WINDOWS) {
            throw invalid("Schedule", "holds at most " + MAX_WINDOWS + " windows");
        }
        for (int i = 0; i < schedule.size(); i++) {
            Window w = schedule.get(i);
            w.buffer().validFor("Schedule[" + i + "].StandingBy");
            if (!w.start().isBefore(w.end())) {
                throw invalid("Schedule[" + i + "].End", "must be after its Start");
            }
            for (int j = 0; j < i; j++) {
                Window other = schedule.get(j);
                if (w.start().isBefore(other.end()) && other.start().isBefore(w.end())) {
                    throw invalid("Schedule[" + i + "]", "overlaps Schedule[" + j + "]");
                }
            }
        }
    }

    /** No buffer: the group scales by FleetIQ's target tracking alone. */
    public static StandbyPolicy none() {
        return new StandbyPolicy(Buffer.count(0), List.of(), DEFAULT_RAMP_DOWN, List.of(), DEFAULT_SCALE_IN_COOLDOWN);
    }

    /** Whether this policy keeps any server StandingBy at some time (else the buffer is off). */
    public boolean active() {
        return buffer.value() > 0 || schedule.stream().anyMatch(w -> w.buffer().value() > 0);
    }

    /** The buffer that applies at {@code now}: its schedule window's, else the group's. */
    public Buffer bufferAt(Instant now) {
        return schedule.stream().filter(w -> w.contains(now)).findFirst().map(Window::buffer).orElse(buffer);
    }

    /** The deepest tier whose threshold the StandingBy servers are below, for a buffer of {@code base}. */
    public Optional<DynamicTier> tierFor(long standingBy, long base) {
        return dynamic.stream()
                .filter(t -> base > 0 && standingBy * 100.0 < t.belowPercent() * base)
                .max(Comparator.comparingDouble(DynamicTier::multiplier));
    }

    private static void requireDuration(String member, Duration d) {
        if (d.isNegative() || d.compareTo(MAX_DURATION) > 0) {
            throw invalid(member, "must be from 0 to " + MAX_DURATION.toSeconds());
        }
    }

    private static GamefleetException invalid(String member, String why) {
        return GamefleetException.invalidRequest(member + " " + why);
    }

    /**
     * Servers to keep StandingBy: {@code value} servers, or (percent) {@code value}% of all the
     * group's servers, those in use and the buffer itself (Agones' percentage buffer).
     */
    public record Buffer(int value, boolean percent) {
        public static Buffer count(int servers) {
            return new Buffer(servers, false);
        }

        public static Buffer percentOfServers(int percent) {
            return new Buffer(percent, true);
        }

        /** Valid for {@code member}: a count from 0 to MAX_SERVERS, a percentage from 1 to 99. */
        public Buffer validFor(String member) {
            if (percent && (value < 1 || value > 99)) {
                throw invalid(member, "as a percentage must be from 1% to 99%");
            }
            if (!percent && (value < 0 || value > MAX_SERVERS)) {
                throw invalid(member, "must be from 0 to " + MAX_SERVERS);
            }
            return this;
        }

        /** The servers this buffer keeps StandingBy while {@code inUse} are claimed or utilized. */
        public long servers(long inUse) {
            if (!percent) {
                return value;
            }
            // b = p% of (inUse + b), so b = inUse × p / (100 − p), rounded up.
            return (inUse * value + (100 - value) - 1) / (100 - value);
        }

        @Override
        public String toString() {
            return value + (percent ? "%" : "");
        }
    }

    /** While the StandingBy servers are below {@code belowPercent}% of the buffer, it is multiplied by {@code multiplier}. */
    public record DynamicTier(double belowPercent, double multiplier) {}

    /** From {@code start} (inclusive) to {@code end} (exclusive), UTC, the buffer is {@code buffer}. */
    public record Window(Instant start, Instant end, Buffer buffer) {
        public boolean contains(Instant now) {
            return !now.isBefore(start) && now.isBefore(end);
        }
    }
}

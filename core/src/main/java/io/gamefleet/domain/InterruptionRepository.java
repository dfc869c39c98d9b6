package io.gamefleet.domain;

import java.time.Instant;
import java.util.List;

/** Spot interruptions per group, kept for the viability window. Implemented in io.gamefleet.adapters.dynamodb. */
public interface InterruptionRepository {
    record Interruption(String group, String instanceId, String instanceType, Instant at) {}

    /**
     * Records it unless it is recorded already: an interruption is keyed by its instance and the
     * warning's own time, so a warning delivered or handled twice counts once. True if recorded now.
     */
    boolean record(Interruption interruption, Instant expiresAt);

    List<Interruption> since(String group, Instant from);
}

package io.gamefleet.domain;

import java.time.Instant;
import java.util.List;

/** Spot interruptions per group, kept for the viability window. Implemented in io.gamefleet.store. */
public interface InterruptionRepository {
    record Interruption(String group, String instanceId, String instanceType, Instant at) {}

    /** Records it once (an interruption warning delivered twice counts once). */
    void record(Interruption interruption, Instant expiresAt);

    List<Interruption> since(String group, Instant from);
}

package io.gamefleet.domain;

import java.time.Instant;
import java.util.Optional;

/**
 * Storage of the groups' standby policies and their evaluations' state. Implemented in
 * io.gamefleet.adapters.dynamodb, an item beside each group's.
 */
public interface StandbyRepository {

    /**
     * A group's policy as put at {@code revision}, for the group created at {@code groupCreationTime}
     * (a group deleted and created again under its name does not inherit it), and its state.
     */
    record Standby(Instant groupCreationTime, String revision, StandbyPolicy policy, StandbyState state) {}

    /** A strongly consistent read; empty when no policy was put under this name. */
    Optional<Standby> find(String group);

    /** Replaces the group's policy and its state. */
    void put(String group, Standby standby);

    /** Writes the state if the policy is still the one of {@code revision}: false when it was replaced. */
    boolean saveState(String group, String revision, StandbyState state);

    /**
     * Writes the state's last evaluation alone (the rest of the state is the balancer's runs'), if
     * the policy is still the one of {@code revision}: false when it was replaced.
     */
    boolean saveEvaluation(String group, String revision, StandbyState.Evaluation evaluation);
}

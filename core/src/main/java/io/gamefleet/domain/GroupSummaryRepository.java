package io.gamefleet.domain;

import java.util.Optional;

/**
 * The groups' summaries, each the last balancer run's ({@link SpotBalancer}). Implemented in
 * io.gamefleet.adapters.dynamodb, an item beside each group's, read with one GetItem.
 */
public interface GroupSummaryRepository {

    /** The group's last summary; empty before any balancer run counted it. */
    Optional<GroupSummary> find(String group);

    /** Replaces the group's summary. */
    void save(String group, GroupSummary summary);
}

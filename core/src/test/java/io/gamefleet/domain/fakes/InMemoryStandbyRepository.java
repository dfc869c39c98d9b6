package io.gamefleet.domain.fakes;

import io.gamefleet.domain.StandbyRepository;
import io.gamefleet.domain.StandbyState;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Standby policies in memory. */
public final class InMemoryStandbyRepository implements StandbyRepository {
    private final Map<String, Standby> standby = new ConcurrentHashMap<>();

    @Override
    public Optional<Standby> find(String group) {
        return Optional.ofNullable(standby.get(group));
    }

    @Override
    public void put(String group, Standby s) {
        standby.put(group, s);
    }

    @Override
    public boolean saveState(String group, String revision, StandbyState state) {
        Standby[] saved = {null};
        standby.computeIfPresent(group, (g, s) -> {
            if (!s.revision().equals(revision)) {
                return s;
            }
            saved[0] = new Standby(s.groupCreationTime(), s.revision(), s.policy(), state);
            return saved[0];
        });
        return saved[0] != null;
    }

    @Override
    public boolean saveEvaluation(String group, String revision, StandbyState.Evaluation evaluation) {
        Standby current = standby.get(group);
        if (current == null) {
            return false;
        }
        StandbyState s = current.state();
        return saveState(group, revision, new StandbyState(s.surplusSince(), s.heldTier(), java.util.Optional.of(evaluation),
                s.targetTrackingScaleInOff()));
    }
}

package io.gamefleet.domain;

import java.util.List;
import java.util.Optional;

/** Storage of the instances of each group's Auto Scaling group. Implemented in io.gamefleet.store. */
public interface InstanceRepository {
    Optional<GameServerInstance> find(String group, String instanceId);

    List<GameServerInstance> findAll(String group, List<String> instanceIds);

    Page<GameServerInstance> list(String group, int limit, Optional<String> cursor);

    void save(GameServerInstance instance);

    /** Deletes up to {@code max} of the group's instances; returns how many it deleted. */
    int deleteSome(String group, int max);
}

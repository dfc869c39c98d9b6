package io.gamefleet.domain;

import java.util.Optional;

/** Storage of game server groups. Implemented in io.gamefleet.adapters.dynamodb. */
public interface GroupRepository {
    /** Stores a new group; ConflictException when the name is taken. */
    void create(GameServerGroup group);

    /** A strongly consistent read. */
    Optional<GameServerGroup> find(String name);

    /**
     * Replaces the group if its stored version is still {@code group.version()}, storing version + 1.
     * @throws ConcurrentUpdateException when another write came first
     */
    GameServerGroup update(GameServerGroup group);

    Page<GameServerGroup> list(int limit, Optional<String> cursor);

    /**
     * The group with its name, status, expiry and maximum size at least (what a heartbeat checks,
     * and what a registration places its server by), as strongly consistent as {@link #find}; a
     * repository that can read less than the whole group does.
     */
    default Optional<GameServerGroup> findStatus(String name) {
        return find(name);
    }
}

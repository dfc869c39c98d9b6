package io.gamefleet.domain.fakes;

import static io.gamefleet.domain.fakes.Storage.millis;
import static io.gamefleet.domain.fakes.Storage.seconds;
import static io.gamefleet.domain.fakes.Storage.sortable;

import io.gamefleet.domain.ConcurrentUpdateException;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.GroupRepository;
import io.gamefleet.domain.Page;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The GameServerGroups table in memory, as DynamoGroupRepository shows it through the port. Every
 * write also writes the group's gate into the game server repository, as the adapter does in the
 * same transaction. DELETED groups stay readable until {@link #expire} plays DynamoDB's TTL.
 */
public final class InMemoryGroupRepository implements GroupRepository {
    private final Map<String, GameServerGroup> groups = new HashMap<>();
    private final InMemoryGameServerRepository gameServers;

    /** {@code gameServers}: where the gates go, which registration and claims read. */
    public InMemoryGroupRepository(InMemoryGameServerRepository gameServers) {
        this.gameServers = gameServers;
    }

    /** A DELETED group's name may be created again. */
    @Override
    public synchronized void create(GameServerGroup group) {
        GameServerGroup existing = groups.get(group.name());
        if (existing != null && existing.status() != GameServerGroupStatus.DELETED) {
            throw GamefleetException.conflict("a game server group named " + group.name() + " already exists");
        }
        store(group);
    }

    @Override
    public synchronized Optional<GameServerGroup> find(String name) {
        return Optional.ofNullable(groups.get(name));
    }

    /** Returns the group it was given with the next version (the stored copy loses sub-millisecond time). */
    @Override
    public synchronized GameServerGroup update(GameServerGroup group) {
        GameServerGroup existing = groups.get(group.name());
        if (existing == null || existing.version() != group.version()) {
            throw new ConcurrentUpdateException("game server group " + group.name());
        }
        GameServerGroup next = group.toBuilder().version(group.version() + 1).build();
        store(next);
        return next;
    }

    /** Every stored group, DELETED ones too, in creation order (then name). */
    @Override
    public synchronized Page<GameServerGroup> list(int limit, Optional<String> cursor) {
        return Storage.page(groups.values().stream().sorted(Comparator.comparing(InMemoryGroupRepository::listKey)).toList(),
                InMemoryGroupRepository::listKey, true, limit, cursor);
    }

    /**
     * What DynamoDB's TTL does some time after a group's ExpiresAt: deletes the groups whose
     * ExpiresAt is before {@code now} (a DELETED group's gate went when it became DELETED).
     */
    public synchronized void expire(Instant now) {
        groups.values().removeIf(g -> g.expiresAt() != null && g.expiresAt().isBefore(now));
    }

    private void store(GameServerGroup group) {
        groups.put(group.name(), group.toBuilder()
                .creationTime(millis(group.creationTime()))
                .lastUpdatedTime(millis(group.lastUpdatedTime()))
                .expiresAt(seconds(group.expiresAt()))
                .build());
        gameServers.writeGate(group.name(), group.status(), group.claimStrategy());
    }

    private static String listKey(GameServerGroup g) {
        return sortable(g.creationTime()) + "#" + g.name();
    }
}

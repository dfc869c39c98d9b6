package io.gamefleet.domain;

import java.time.Instant;

/** Lookups of groups shared by the services, with the errors docs/api.md gives for them. */
final class Groups {
    private final GroupRepository repository;

    Groups(GroupRepository repository) {
        this.repository = repository;
    }

    /** The group, unless it never existed or its DELETED record has outlived its retention. */
    GameServerGroup require(String name, Instant now) {
        return repository.find(name)
                .filter(g -> g.expiresAt() == null || g.expiresAt().isAfter(now))
                .orElseThrow(() -> GamefleetException.notFound("game server group " + name + " does not exist"));
    }

    /** As {@link #require}, with only the group's name, status and expiry sure to be there. */
    GameServerGroup requireStatus(String name, Instant now) {
        return repository.findStatus(name)
                .filter(g -> g.expiresAt() == null || g.expiresAt().isAfter(now))
                .orElseThrow(() -> GamefleetException.notFound("game server group " + name + " does not exist"));
    }

    GameServerGroup requireActive(String name, Instant now, String operation) {
        GameServerGroup group = require(name, now);
        if (group.status() != GameServerGroupStatus.ACTIVE) {
            throw notActive(group, operation);
        }
        return group;
    }

    static GamefleetException notActive(GameServerGroup group, String operation) {
        return GamefleetException.conflict(operation + " needs an ACTIVE game server group; "
                + group.name() + " is " + group.status());
    }
}

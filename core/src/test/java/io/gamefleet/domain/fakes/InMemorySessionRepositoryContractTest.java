package io.gamefleet.domain.fakes;

import io.gamefleet.domain.GameServerRepository;
import io.gamefleet.domain.GroupRepository;
import io.gamefleet.domain.SessionRepository;
import io.gamefleet.domain.contracts.SessionRepositoryContract;

class InMemorySessionRepositoryContractTest extends SessionRepositoryContract {
    private final InMemoryGameServerRepository servers = new InMemoryGameServerRepository();

    @Override
    protected GameServerRepository newRepository() {
        return servers;
    }

    @Override
    protected SessionRepository newSessionRepository(GameServerRepository servers) {
        return new InMemorySessionRepository((InMemoryGameServerRepository) servers);
    }

    @Override
    protected GroupRepository newGroupRepository() {
        return new InMemoryGroupRepository(servers);
    }
}

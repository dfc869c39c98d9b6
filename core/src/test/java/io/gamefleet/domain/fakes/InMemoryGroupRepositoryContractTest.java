package io.gamefleet.domain.fakes;

import io.gamefleet.domain.GameServerRepository;
import io.gamefleet.domain.GroupRepository;
import io.gamefleet.domain.contracts.GroupRepositoryContract;

class InMemoryGroupRepositoryContractTest extends GroupRepositoryContract {
    private final InMemoryGameServerRepository servers = new InMemoryGameServerRepository();

    @Override
    protected GroupRepository newRepository() {
        return new InMemoryGroupRepository(servers);
    }

    @Override
    protected GameServerRepository newGameServerRepository() {
        return servers;
    }
}

package io.gamefleet.domain.fakes;

import io.gamefleet.domain.GameServerRepository;
import io.gamefleet.domain.GroupRepository;
import io.gamefleet.domain.contracts.InstanceCapContract;

class InMemoryInstanceCapContractTest extends InstanceCapContract {
    private final InMemoryGameServerRepository servers = new InMemoryGameServerRepository();

    @Override
    protected GameServerRepository newRepository() {
        return servers;
    }

    @Override
    protected GroupRepository newGroupRepository() {
        return new InMemoryGroupRepository(servers);
    }
}

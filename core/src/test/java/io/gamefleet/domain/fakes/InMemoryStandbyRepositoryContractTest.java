package io.gamefleet.domain.fakes;

import io.gamefleet.domain.StandbyRepository;
import io.gamefleet.domain.contracts.StandbyRepositoryContract;

class InMemoryStandbyRepositoryContractTest extends StandbyRepositoryContract {
    @Override
    protected StandbyRepository newRepository() {
        return new InMemoryStandbyRepository();
    }
}

package io.gamefleet.domain.fakes;

import io.gamefleet.domain.InterruptionRepository;
import io.gamefleet.domain.contracts.InterruptionRepositoryContract;

class InMemoryInterruptionRepositoryContractTest extends InterruptionRepositoryContract {
    @Override
    protected InterruptionRepository newRepository() {
        return new InMemoryInterruptionRepository();
    }
}

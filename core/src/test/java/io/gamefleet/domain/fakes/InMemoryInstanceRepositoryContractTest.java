package io.gamefleet.domain.fakes;

import io.gamefleet.domain.InstanceRepository;
import io.gamefleet.domain.contracts.InstanceRepositoryContract;

class InMemoryInstanceRepositoryContractTest extends InstanceRepositoryContract {
    @Override
    protected InstanceRepository newRepository() {
        return new InMemoryInstanceRepository();
    }
}

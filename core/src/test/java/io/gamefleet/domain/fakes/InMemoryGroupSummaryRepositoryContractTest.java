package io.gamefleet.domain.fakes;

import io.gamefleet.domain.GroupSummaryRepository;
import io.gamefleet.domain.contracts.GroupSummaryRepositoryContract;

class InMemoryGroupSummaryRepositoryContractTest extends GroupSummaryRepositoryContract {
    @Override
    protected GroupSummaryRepository newRepository() {
        return new InMemoryGroupSummaryRepository();
    }
}

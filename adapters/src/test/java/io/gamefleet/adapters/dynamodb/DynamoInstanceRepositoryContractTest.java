package io.gamefleet.adapters.dynamodb;

import io.gamefleet.domain.InstanceRepository;
import io.gamefleet.domain.contracts.InstanceRepositoryContract;
import io.gamefleet.testing.Dynoxide;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The core's contract on the selected DynamoDB backend; the class's tables are shared by its tests. */
class DynamoInstanceRepositoryContractTest extends InstanceRepositoryContract {
    @RegisterExtension
    static final Dynoxide DYNAMO = new Dynoxide();

    @Override
    protected InstanceRepository newRepository() {
        return new DynamoInstanceRepository(DYNAMO.client(), DYNAMO.enhanced(), DYNAMO.tableNames());
    }
}

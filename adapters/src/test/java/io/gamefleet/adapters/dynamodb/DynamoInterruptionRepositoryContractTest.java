package io.gamefleet.adapters.dynamodb;

import io.gamefleet.domain.InterruptionRepository;
import io.gamefleet.domain.contracts.InterruptionRepositoryContract;
import io.gamefleet.testing.Dynoxide;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The core's contract on the selected DynamoDB backend; the class's tables are shared by its tests. */
class DynamoInterruptionRepositoryContractTest extends InterruptionRepositoryContract {
    @RegisterExtension
    static final Dynoxide DYNAMO = new Dynoxide();

    @Override
    protected InterruptionRepository newRepository() {
        return new DynamoInterruptionRepository(DYNAMO.client(), DYNAMO.tableNames());
    }
}

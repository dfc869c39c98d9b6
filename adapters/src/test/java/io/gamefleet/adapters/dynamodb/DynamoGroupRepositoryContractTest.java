package io.gamefleet.adapters.dynamodb;

import io.gamefleet.domain.GameServerRepository;
import io.gamefleet.domain.GroupRepository;
import io.gamefleet.domain.contracts.GroupRepositoryContract;
import io.gamefleet.testing.Dynoxide;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The core's contract on the selected DynamoDB backend; the class's tables are shared by its tests. */
class DynamoGroupRepositoryContractTest extends GroupRepositoryContract {
    @RegisterExtension
    static final Dynoxide DYNAMO = new Dynoxide();

    @Override
    protected GroupRepository newRepository() {
        return new DynamoGroupRepository(DYNAMO.client(), DYNAMO.enhanced(), DYNAMO.tableNames());
    }

    @Override
    protected GameServerRepository newGameServerRepository() {
        return new DynamoGameServerRepository(DYNAMO.client(), DYNAMO.tableNames());
    }
}

package io.gamefleet.adapters.dynamodb;

import io.gamefleet.domain.GameServerRepository;
import io.gamefleet.domain.GroupRepository;
import io.gamefleet.domain.contracts.GameServerRepositoryContract;
import io.gamefleet.testing.Dynoxide;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The core's contract on the selected DynamoDB backend; the class's tables are shared by its tests. */
class DynamoGameServerRepositoryContractTest extends GameServerRepositoryContract {
    @RegisterExtension
    static final Dynoxide DYNAMO = new Dynoxide();

    @Override
    protected GameServerRepository newRepository() {
        return new DynamoGameServerRepository(DYNAMO.client(), DYNAMO.tableNames());
    }

    @Override
    protected GroupRepository newGroupRepository() {
        return new DynamoGroupRepository(DYNAMO.client(), DYNAMO.enhanced(), DYNAMO.tableNames());
    }
}

package io.gamefleet.adapters.dynamodb;

import io.gamefleet.domain.GameServerRepository;
import io.gamefleet.domain.GroupRepository;
import io.gamefleet.domain.contracts.InstanceCapContract;
import io.gamefleet.testing.Dynoxide;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The instance cap's contract on the selected DynamoDB backend, its race on real concurrent writes. */
class DynamoInstanceCapContractTest extends InstanceCapContract {
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

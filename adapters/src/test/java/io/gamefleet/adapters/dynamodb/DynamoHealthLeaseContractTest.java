package io.gamefleet.adapters.dynamodb;

import io.gamefleet.domain.GameServerRepository;
import io.gamefleet.domain.GroupRepository;
import io.gamefleet.domain.contracts.HealthLeaseContract;
import io.gamefleet.testing.Dynoxide;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The health leases' contract on the selected DynamoDB backend. */
class DynamoHealthLeaseContractTest extends HealthLeaseContract {
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

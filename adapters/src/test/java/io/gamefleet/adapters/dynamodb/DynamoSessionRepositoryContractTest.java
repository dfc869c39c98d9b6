package io.gamefleet.adapters.dynamodb;

import io.gamefleet.domain.GameServerRepository;
import io.gamefleet.domain.GroupRepository;
import io.gamefleet.domain.SessionRepository;
import io.gamefleet.domain.contracts.SessionRepositoryContract;
import io.gamefleet.testing.Dynoxide;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The sessions' contract on the selected DynamoDB backend: the claim and the session in one transaction. */
class DynamoSessionRepositoryContractTest extends SessionRepositoryContract {
    @RegisterExtension
    static final Dynoxide DYNAMO = new Dynoxide();

    @Override
    protected GameServerRepository newRepository() {
        return new DynamoGameServerRepository(DYNAMO.client(), DYNAMO.tableNames());
    }

    @Override
    protected SessionRepository newSessionRepository(GameServerRepository servers) {
        return new DynamoSessionRepository(DYNAMO.client(), DYNAMO.tableNames(), (DynamoGameServerRepository) servers);
    }

    @Override
    protected GroupRepository newGroupRepository() {
        return new DynamoGroupRepository(DYNAMO.client(), DYNAMO.enhanced(), DYNAMO.tableNames());
    }
}

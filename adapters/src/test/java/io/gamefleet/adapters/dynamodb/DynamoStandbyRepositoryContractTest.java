package io.gamefleet.adapters.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.StandbyPolicy;
import io.gamefleet.domain.StandbyRepository;
import io.gamefleet.domain.StandbyRepository.Standby;
import io.gamefleet.domain.StandbyState;
import io.gamefleet.domain.contracts.StandbyRepositoryContract;
import io.gamefleet.testing.Dynoxide;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The standby policies' contract on the selected DynamoDB backend, items beside the groups'. */
class DynamoStandbyRepositoryContractTest extends StandbyRepositoryContract {
    @RegisterExtension
    static final Dynoxide DYNAMO = new Dynoxide();

    @Override
    protected StandbyRepository newRepository() {
        return new DynamoStandbyRepository(DYNAMO.client(), DYNAMO.tableNames());
    }

    private static final Instant T0 = Instant.parse("2100-01-01T00:00:00Z");

    @Test
    void aPolicyIsNoGroupToTheGroupsRepository() {
        DynamoGroupRepository groups = new DynamoGroupRepository(DYNAMO.client(), DYNAMO.enhanced(), DYNAMO.tableNames());
        String group = "beside-" + java.util.UUID.randomUUID();
        groups.create(GameServerGroup.builder().name(group).creationTime(T0).lastUpdatedTime(T0).maxSize(4).build());
        newRepository().put(group, new Standby(T0, "r1", StandbyPolicy.none(), StandbyState.initial()));

        assertThat(groups.list(100, Optional.empty()).items()).extracting(GameServerGroup::name)
                .noneMatch(name -> name.startsWith(DynamoStandbyRepository.KEY_PREFIX));
        assertThat(groups.find(group)).isPresent();
    }
}

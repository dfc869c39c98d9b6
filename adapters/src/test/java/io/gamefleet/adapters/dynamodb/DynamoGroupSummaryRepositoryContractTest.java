package io.gamefleet.adapters.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GroupSummary;
import io.gamefleet.domain.GroupSummaryRepository;
import io.gamefleet.domain.Metrics.GameServerCounts;
import io.gamefleet.domain.Metrics.ProcessCounts;
import io.gamefleet.domain.contracts.GroupSummaryRepositoryContract;
import io.gamefleet.testing.Dynoxide;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The groups' summaries' contract on the selected DynamoDB backend, items beside the groups'. */
class DynamoGroupSummaryRepositoryContractTest extends GroupSummaryRepositoryContract {
    @RegisterExtension
    static final Dynoxide DYNAMO = new Dynoxide();

    @Override
    protected GroupSummaryRepository newRepository() {
        return new DynamoGroupSummaryRepository(DYNAMO.client(), DYNAMO.tableNames());
    }

    private static final Instant T0 = Instant.parse("2100-01-01T00:00:00Z");

    @Test
    void aSummaryIsNoGroupToTheGroupsRepository() {
        DynamoGroupRepository groups = new DynamoGroupRepository(DYNAMO.client(), DYNAMO.enhanced(), DYNAMO.tableNames());
        String group = "summed-" + java.util.UUID.randomUUID();
        groups.create(GameServerGroup.builder().name(group).creationTime(T0).lastUpdatedTime(T0).maxSize(4).build());
        newRepository().save(group, new GroupSummary(T0, 1, new GameServerCounts(1, 0, 0, 0), 1, 0, 0,
                new ProcessCounts(0, 1, 0, 0, 0)));

        assertThat(groups.list(100, Optional.empty()).items()).extracting(GameServerGroup::name)
                .noneMatch(name -> name.startsWith(DynamoGroupSummaryRepository.KEY_PREFIX));
        assertThat(groups.find(group)).isPresent();
    }
}

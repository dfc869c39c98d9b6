package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.GROUP;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.GroupSummaries.Described;
import io.gamefleet.domain.Metrics.GameServerCounts;
import io.gamefleet.domain.Metrics.ProcessCounts;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class GroupSummariesTest {
    private final Fleet fleet = new Fleet();

    @Test
    void aGroupHasNoSummaryBeforeABalancerRunAndTheRunsCountsAfter() {
        fleet.activeGroup(GROUP, b -> b);
        fleet.launch("i-1", Fleet.C5);
        fleet.register("gs-1", "i-1");
        fleet.register("gs-2", "i-1");
        fleet.utilize("gs-2");
        GroupSummaries summaries = new GroupSummaries(fleet.groupService(), fleet.summaries);

        assertThat(summaries.describe(GROUP).summary()).isEmpty();

        fleet.balancer().runAll();
        Described described = summaries.describe(GROUP);
        assertThat(described.group().name()).isEqualTo(GROUP);
        assertThat(described.summary()).contains(new GroupSummary(fleet.clock.instant(), 2,
                new GameServerCounts(1, 1, 0, 0), 1, 0, 0, new ProcessCounts(0, 0, 0, 0, 0)));
    }

    @Test
    void aSummaryOlderThanTheGroupIsAnEarlierGroupsOfTheSameName() {
        fleet.activeGroup(GROUP, b -> b);
        fleet.summaries.save(GROUP, new GroupSummary(fleet.clock.instant().minus(Duration.ofHours(1)), 9,
                new GameServerCounts(9, 0, 0, 0), 9, 0, 0, new ProcessCounts(0, 0, 0, 0, 0)));

        assertThat(new GroupSummaries(fleet.groupService(), fleet.summaries).describe(GROUP).summary()).isEmpty();
    }
}

package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.GROUP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gamefleet.domain.GroupSummaries.Described;
import io.gamefleet.domain.Metrics.GameServerCounts;
import io.gamefleet.domain.Metrics.ProcessCounts;
import io.gamefleet.domain.MetricsHistory.CountsAt;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GroupSummariesTest {
    private static final MetricsHistory NO_HISTORY = (group, from, to, period) -> List.of();
    private final Fleet fleet = new Fleet();

    @Test
    void aGroupHasNoSummaryBeforeABalancerRunAndTheRunsCountsAfter() {
        fleet.activeGroup(GROUP, b -> b);
        fleet.launch("i-1", Fleet.C5);
        fleet.register("gs-1", "i-1");
        fleet.register("gs-2", "i-1");
        fleet.utilize("gs-2");
        GroupSummaries summaries = new GroupSummaries(fleet.groupService(), fleet.summaries, () -> NO_HISTORY, fleet.clock);

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

        assertThat(new GroupSummaries(fleet.groupService(), fleet.summaries, () -> NO_HISTORY, fleet.clock).describe(GROUP).summary()).isEmpty();
    }

    @Test
    void theHistoryIsTheLastHoursOrSinceTheGroupWasCreatedByTheMinute() {
        List<String> asked = new ArrayList<>();
        List<CountsAt> points = List.of(new CountsAt(fleet.clock.instant(), 3, 1, 25));
        MetricsHistory history = (group, from, to, period) -> {
            asked.add(group + " " + from + " " + to + " " + period);
            return points;
        };
        Instant created = fleet.clock.instant();
        fleet.activeGroup(GROUP, b -> b);
        GroupSummaries summaries = new GroupSummaries(fleet.groupService(), fleet.summaries, () -> history, fleet.clock);

        fleet.clock.advance(Duration.ofMinutes(10));
        assertThat(summaries.history(GROUP)).isEqualTo(points);
        fleet.clock.advance(Duration.ofHours(2));
        summaries.history(GROUP);

        Instant now = fleet.clock.instant();
        assertThat(asked).containsExactly(GROUP + " " + created + " " + created.plus(Duration.ofMinutes(10)) + " PT1M",
                GROUP + " " + now.minus(Duration.ofHours(1)) + " " + now + " PT1M");
        assertThat(catchThrowableOfType(() -> summaries.history("nowhere"), GamefleetException.class).kind())
                .isEqualTo(ErrorKind.NOT_FOUND);
    }
}

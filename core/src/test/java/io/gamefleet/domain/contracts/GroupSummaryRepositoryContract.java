package io.gamefleet.domain.contracts;

import static io.gamefleet.domain.contracts.ContractSupport.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.GroupSummary;
import io.gamefleet.domain.GroupSummaryRepository;
import io.gamefleet.domain.Metrics.GameServerCounts;
import io.gamefleet.domain.Metrics.ProcessCounts;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The groups' summaries ({@link io.gamefleet.domain.SpotBalancer}'s counts), through the port only. */
public abstract class GroupSummaryRepositoryContract {
    protected abstract GroupSummaryRepository newRepository();

    private GroupSummaryRepository summaries;
    private String group;

    @BeforeEach
    void repository() {
        summaries = newRepository();
        group = ContractSupport.unique("summary");
    }

    @Test
    void aSavedSummaryIsReadBackWhole() {
        assertThat(summaries.find(group)).isEmpty();
        GroupSummary summary = new GroupSummary(T0.plusMillis(1234), 5000, new GameServerCounts(4100, 800, 30, 7),
                3900, 150, 100, new ProcessCounts(1, 2, 3, 4, 5678));
        summaries.save(group, summary);

        assertThat(summaries.find(group)).contains(summary);
        assertThat(summaries.find(ContractSupport.unique("other"))).isEmpty();
    }

    @Test
    void aLaterRunReplacesTheSummary() {
        summaries.save(group, new GroupSummary(T0, 10, new GameServerCounts(10, 0, 0, 0), 10, 0, 0,
                new ProcessCounts(0, 10, 0, 0, 0)));
        GroupSummary later = new GroupSummary(T0.plusSeconds(60), 12, new GameServerCounts(6, 4, 0, 0), 5, 1, 2,
                new ProcessCounts(0, 6, 4, 0, 9));
        summaries.save(group, later);

        assertThat(summaries.find(group)).contains(later);
    }
}

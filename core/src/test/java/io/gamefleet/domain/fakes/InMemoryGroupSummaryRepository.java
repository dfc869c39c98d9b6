package io.gamefleet.domain.fakes;

import io.gamefleet.domain.GroupSummary;
import io.gamefleet.domain.GroupSummaryRepository;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The groups' summaries in memory. */
public final class InMemoryGroupSummaryRepository implements GroupSummaryRepository {
    private final Map<String, GroupSummary> summaries = new ConcurrentHashMap<>();

    @Override
    public Optional<GroupSummary> find(String group) {
        return Optional.ofNullable(summaries.get(group));
    }

    @Override
    public void save(String group, GroupSummary summary) {
        summaries.put(group, summary);
    }
}

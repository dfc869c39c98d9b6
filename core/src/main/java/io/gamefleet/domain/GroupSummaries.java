package io.gamefleet.domain;

import io.gamefleet.domain.MetricsHistory.CountsAt;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A group and the summary its last balancer run left ({@link GroupSummaryRepository}): one read of
 * each, no listing, whatever the group's size; and its counts over the last hour, as the runs gave
 * the metrics ({@link MetricsHistory}).
 */
public final class GroupSummaries {
    /** How far back a console's charts go. */
    public static final Duration HISTORY = Duration.ofHours(1);
    /** CloudWatch's finest period for metrics of standard resolution, and the balancer's default rate. */
    public static final Duration HISTORY_PERIOD = Duration.ofMinutes(1);

    private final GroupService groups;
    private final GroupSummaryRepository summaries;
    private final Supplier<MetricsHistory> history;
    private final Clock clock;

    public GroupSummaries(GroupService groups, GroupSummaryRepository summaries, Supplier<MetricsHistory> history,
            Clock clock) {
        this.groups = groups;
        this.summaries = summaries;
        this.history = history;
        this.clock = clock;
    }

    /** The group's counts over the last {@link #HISTORY}; fails as DescribeGameServerGroup does for a group that is not there. */
    public List<CountsAt> history(String nameOrArn) {
        GameServerGroup group = groups.describe(nameOrArn);
        Instant now = clock.instant();
        Instant from = group.creationTime() != null && group.creationTime().isAfter(now.minus(HISTORY))
                ? group.creationTime() : now.minus(HISTORY);
        return history.get().gameServers(group.name(), from, now, HISTORY_PERIOD);
    }

    /** {@code summary}: empty before any run counted the group (a summary of a group of the same name before it is not its). */
    public record Described(GameServerGroup group, Optional<GroupSummary> summary) {}

    /** Fails as DescribeGameServerGroup does for a group that is not there. */
    public Described describe(String nameOrArn) {
        GameServerGroup group = groups.describe(nameOrArn);
        Optional<GroupSummary> summary = summaries.find(group.name())
                .filter(s -> group.creationTime() == null || !s.asOf().isBefore(group.creationTime()));
        return new Described(group, summary);
    }
}

package io.gamefleet.domain;

import java.util.Optional;

/**
 * A group and the summary its last balancer run left ({@link GroupSummaryRepository}): one read of
 * each, no listing, whatever the group's size.
 */
public final class GroupSummaries {
    private final GroupService groups;
    private final GroupSummaryRepository summaries;

    public GroupSummaries(GroupService groups, GroupSummaryRepository summaries) {
        this.groups = groups;
        this.summaries = summaries;
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

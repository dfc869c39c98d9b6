package io.gamefleet.domain.fakes;

import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GroupLifecycle;
import io.gamefleet.domain.WorkflowStarter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Keeps the workflows started, in order; told to, it fails every start instead (recording none).
 * A started workflow runs (for {@link #running}) until it is {@link #lose lost} or {@link #end ended}.
 */
public final class RecordingWorkflowStarter implements WorkflowStarter {
    public enum Workflow { ACTIVATION, DELETION }

    public record Started(Workflow workflow, GameServerGroup group) {}

    private final List<Started> started = new ArrayList<>();
    private final Set<String> running = new HashSet<>();
    private RuntimeException failure;
    private RuntimeException listingFailure;

    @Override
    public synchronized void startActivation(GameServerGroup group) {
        start(Workflow.ACTIVATION, group);
    }

    @Override
    public synchronized void startDeletion(GameServerGroup group) {
        start(Workflow.DELETION, group);
    }

    @Override
    public synchronized Set<String> running(GroupLifecycle.Workflow workflow, Collection<String> groupNames) {
        if (listingFailure != null) {
            throw listingFailure;
        }
        Workflow kind = workflow == GroupLifecycle.Workflow.ACTIVATION ? Workflow.ACTIVATION : Workflow.DELETION;
        return groupNames.stream().filter(n -> running.contains(kind + "/" + n)).collect(Collectors.toSet());
    }

    /** The group's executions end, as when an execution is aborted or the sidecar that ran it ends. */
    public synchronized void lose(String groupName) {
        running.removeIf(r -> r.endsWith("/" + groupName));
    }

    /** Every execution ends (finished, or lost). */
    public synchronized void end() {
        running.clear();
    }

    /** Every later {@link #running} throws {@code failure} (null: lists again). */
    public synchronized void failListingWith(RuntimeException failure) {
        this.listingFailure = failure;
    }

    /** Every later start throws {@code failure}, until {@link #succeed}. */
    public synchronized void failWith(RuntimeException failure) {
        this.failure = failure;
    }

    public synchronized void succeed() {
        this.failure = null;
    }

    public synchronized List<Started> started() {
        return List.copyOf(started);
    }

    /** The names of the groups whose workflow of this kind was started, in order. */
    public synchronized List<String> started(Workflow workflow) {
        return started.stream().filter(s -> s.workflow() == workflow).map(s -> s.group().name()).toList();
    }

    private void start(Workflow workflow, GameServerGroup group) {
        if (failure != null) {
            throw failure;
        }
        started.add(new Started(workflow, group));
        running.add(workflow + "/" + group.name());
    }
}

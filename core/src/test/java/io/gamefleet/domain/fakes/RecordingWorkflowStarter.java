package io.gamefleet.domain.fakes;

import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.WorkflowStarter;
import java.util.ArrayList;
import java.util.List;

/** Keeps the workflows started, in order; told to, it fails every start instead (recording none). */
public final class RecordingWorkflowStarter implements WorkflowStarter {
    public enum Workflow { ACTIVATION, DELETION }

    public record Started(Workflow workflow, GameServerGroup group) {}

    private final List<Started> started = new ArrayList<>();
    private RuntimeException failure;

    @Override
    public synchronized void startActivation(GameServerGroup group) {
        start(Workflow.ACTIVATION, group);
    }

    @Override
    public synchronized void startDeletion(GameServerGroup group) {
        start(Workflow.DELETION, group);
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
    }
}

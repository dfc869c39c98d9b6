package io.gamefleet.domain;

import java.util.Collection;
import java.util.Set;

/** Starts the group workflows (Step Functions). Starting twice for one transition is harmless. */
public interface WorkflowStarter {
    void startActivation(GameServerGroup group);

    void startDeletion(GameServerGroup group);

    /**
     * Of these groups, those that have an execution of this workflow running now (Step Functions'
     * ListExecutions). One started a moment ago may not be listed yet: {@link WorkflowReconciler}
     * leaves recently changed groups alone.
     */
    Set<String> running(GroupLifecycle.Workflow workflow, Collection<String> groupNames);
}

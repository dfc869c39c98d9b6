package io.gamefleet.domain;

/** Starts the group workflows (Step Functions). Starting twice for one transition is harmless. */
public interface WorkflowStarter {
    void startActivation(GameServerGroup group);

    void startDeletion(GameServerGroup group);
}

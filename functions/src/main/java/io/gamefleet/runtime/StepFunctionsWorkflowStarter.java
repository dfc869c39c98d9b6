package io.gamefleet.runtime;

import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.WorkflowStarter;
import java.util.function.Supplier;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;

/**
 * Starts the group workflows. The execution name is the group and the moment of the transition,
 * so a retried start of the same transition finds the execution already there.
 */
final class StepFunctionsWorkflowStarter implements WorkflowStarter {
    private final Supplier<SfnClient> sfn;
    private final String activationArn;
    private final String deletionArn;

    StepFunctionsWorkflowStarter(Supplier<SfnClient> sfn, String activationArn, String deletionArn) {
        this.sfn = sfn;
        this.activationArn = activationArn;
        this.deletionArn = deletionArn;
    }

    @Override
    public void startActivation(GameServerGroup group) {
        start(activationArn, group, "activate");
    }

    @Override
    public void startDeletion(GameServerGroup group) {
        start(deletionArn, group, "delete");
    }

    private void start(String stateMachineArn, GameServerGroup group, String verb) {
        // Execution names: at most 80 characters of [A-Za-z0-9-_]; group names may hold dots.
        String base = verb + "-" + group.lastUpdatedTime().toEpochMilli() + "-" + group.name().replace('.', '_');
        String name = base.length() > 80 ? base.substring(0, 80) : base;
        String input = "{\"GameServerGroupName\":\"" + group.name() + "\"}";
        try {
            sfn.get().startExecution(r -> r.stateMachineArn(stateMachineArn).name(name).input(input));
        } catch (ExecutionAlreadyExistsException alreadyStarted) {
            // the same transition was started before: nothing to do
        }
    }
}

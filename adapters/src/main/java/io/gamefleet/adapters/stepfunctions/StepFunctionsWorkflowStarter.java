package io.gamefleet.adapters.stepfunctions;

import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.WorkflowStarter;
import java.util.function.Supplier;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;

/**
 * Starts the group workflows. Each start names its execution once (verb, time, a random part,
 * the group), so the SDK's own retries of the call find the execution already there, while a
 * group created again under the same name, even at the same instant, gets its own.
 */
public final class StepFunctionsWorkflowStarter implements WorkflowStarter {
    private final Supplier<SfnClient> sfn;
    private final String activationArn;
    private final String deletionArn;

    public StepFunctionsWorkflowStarter(Supplier<SfnClient> sfn, String activationArn, String deletionArn) {
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
        String base = verb + "-" + group.lastUpdatedTime().toEpochMilli() + "-"
                + java.util.UUID.randomUUID().toString().substring(0, 8) + "-" + group.name().replace('.', '_');
        String name = base.length() > 80 ? base.substring(0, 80) : base;
        String input = "{\"GameServerGroupName\":\"" + group.name() + "\"}";
        try {
            sfn.get().startExecution(r -> r.stateMachineArn(stateMachineArn).name(name).input(input));
        } catch (ExecutionAlreadyExistsException alreadyStarted) {
            // the name has a random part, so only an SDK retry of this very call can reuse it, and
            // Step Functions answers such a retry with success while the execution runs: kept for safety
        }
    }
}

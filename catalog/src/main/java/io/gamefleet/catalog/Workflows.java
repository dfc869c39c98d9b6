package io.gamefleet.catalog;

import java.util.List;

/** The group workflows and their step functions. */
public final class Workflows {
    private static final String STEPS = "io.gamefleet.workflow.";

    public static final WorkflowStep START_ACTIVATION = step("StartActivation");
    public static final WorkflowStep CREATE_SCALING_GROUP = step("CreateScalingGroup");
    public static final WorkflowStep CHECK_ACTIVATION = step("CheckActivation");
    public static final WorkflowStep COMPLETE_ACTIVATION = step("CompleteActivation");
    public static final WorkflowStep CHECK_READY_TO_DELETE = step("CheckReadyToDelete");
    public static final WorkflowStep START_DELETING = step("StartDeleting");
    public static final WorkflowStep DELETE_SCALING_GROUP = step("DeleteScalingGroup");
    public static final WorkflowStep PURGE_GROUP_RECORDS = step("PurgeGroupRecords");
    public static final WorkflowStep COMPLETE_DELETION = step("CompleteDeletion");
    public static final WorkflowStep RECORD_FAILURE = step("RecordFailure");

    public static final WorkflowDefinition ACTIVATION = new WorkflowDefinition("ActivateGameServerGroup",
            "workflows/activate-game-server-group.asl.json",
            List.of(START_ACTIVATION, CREATE_SCALING_GROUP, CHECK_ACTIVATION, COMPLETE_ACTIVATION, RECORD_FAILURE),
            Settings.ACTIVATION_STATE_MACHINE_ARN, Operation.CREATE_GAME_SERVER_GROUP);

    public static final WorkflowDefinition DELETION = new WorkflowDefinition("DeleteGameServerGroup",
            "workflows/delete-game-server-group.asl.json",
            List.of(CHECK_READY_TO_DELETE, START_DELETING, DELETE_SCALING_GROUP, PURGE_GROUP_RECORDS,
                    COMPLETE_DELETION, RECORD_FAILURE),
            Settings.DELETION_STATE_MACHINE_ARN, Operation.DELETE_GAME_SERVER_GROUP);

    public static final List<WorkflowDefinition> ALL = List.of(ACTIVATION, DELETION);

    private Workflows() {}

    /** The workflow the route's function starts, if any. */
    public static java.util.Optional<WorkflowDefinition> startedBy(Route route) {
        return ALL.stream().filter(w -> w.startedBy() == route.operation()).findFirst();
    }

    /**
     * The workflow a Gamefleet route's function starts, if any: CreateContainerGroup activates its
     * group as CreateGameServerGroup does (and so needs the activation's ARN and leave to start it).
     */
    public static java.util.Optional<WorkflowDefinition> startedBy(ExtensionRoute route) {
        return route.equals(Routes.CREATE_CONTAINER_GROUP) ? java.util.Optional.of(ACTIVATION) : java.util.Optional.empty();
    }

    /**
     * Whether the function reconciles the workflows: it lists every workflow's running executions
     * and starts one again for a group whose execution was lost (the balancer's schedule).
     */
    public static boolean reconciledBy(String functionName) {
        return functionName.equals(Triggers.BALANCER.functionName());
    }

    /** Every step function once (RecordFailure serves both workflows). */
    public static List<WorkflowStep> allSteps() {
        return ALL.stream().flatMap(w -> w.steps().stream()).distinct().toList();
    }

    private static WorkflowStep step(String name) {
        return new WorkflowStep(name, name + "FunctionArn", STEPS + name + "Step");
    }

}

package io.gamefleet.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The workflows, their steps and ASL files, and the triggers. */
class WorkflowsTest {
    @Test
    void aStepsNamesAreDerivedFromItsName() {
        WorkflowStep step = Workflows.CHECK_READY_TO_DELETE;
        assertThat(step.name()).isEqualTo("CheckReadyToDelete");
        assertThat(step.placeholder()).isEqualTo("CheckReadyToDeleteFunctionArn");
        assertThat(step.handlerClass()).isEqualTo("io.gamefleet.workflow.CheckReadyToDeleteStep");
        assertThat(step.functionName()).isEqualTo("gamefleet-CheckReadyToDelete");
        assertThat(step.handlerMethod()).isEqualTo("io.gamefleet.workflow.CheckReadyToDeleteStep::handleRequest");
    }

    @Test
    void eachWorkflowIsStartedByItsOperationsRouteOnly() {
        assertThat(Workflows.startedBy(Routes.of(Operation.CREATE_GAME_SERVER_GROUP))).contains(Workflows.ACTIVATION);
        assertThat(Workflows.startedBy(Routes.of(Operation.DELETE_GAME_SERVER_GROUP))).contains(Workflows.DELETION);
        assertThat(Workflows.startedBy(Routes.of(Operation.UPDATE_GAME_SERVER_GROUP))).isEmpty();
        assertThat(Workflows.startedBy(Routes.of(Operation.CLAIM_GAME_SERVER))).isEmpty();
    }

    @Test
    void allStepsNamesEachStepOnceInWorkflowOrder() {
        assertThat(Workflows.allSteps()).containsExactly(Workflows.START_ACTIVATION, Workflows.CREATE_SCALING_GROUP,
                Workflows.CHECK_ACTIVATION, Workflows.COMPLETE_ACTIVATION, Workflows.RECORD_FAILURE,
                Workflows.CHECK_READY_TO_DELETE, Workflows.START_DELETING, Workflows.DELETE_SCALING_GROUP,
                Workflows.PURGE_GROUP_RECORDS, Workflows.COMPLETE_DELETION);
    }

    @Test
    void aStateMachineIsNamedLikeTheFunctions() {
        assertThat(Workflows.ACTIVATION.stateMachineName()).isEqualTo("gamefleet-ActivateGameServerGroup");
        assertThat(Workflows.DELETION.stateMachineName()).isEqualTo("gamefleet-DeleteGameServerGroup");
        assertThat(Workflows.ACTIVATION.arnSetting()).isEqualTo(Settings.ACTIVATION_STATE_MACHINE_ARN);
        assertThat(Workflows.DELETION.arnSetting()).isEqualTo(Settings.DELETION_STATE_MACHINE_ARN);
    }

    @Test
    void theAslNamesEveryStepsPlaceholderAndTheSubstitutionReplacesThemAll() {
        for (WorkflowDefinition workflow : Workflows.ALL) {
            String asl = workflow.asl();
            Map<String, String> arns = new HashMap<>();
            for (WorkflowStep step : workflow.steps()) {
                assertThat(asl).contains("\"${" + step.placeholder() + "}\"");
                arns.put(step.placeholder(), "arn:aws:lambda:us-east-1:000000000000:function:" + step.functionName());
            }
            String substituted = workflow.aslWith(arns);
            assertThat(substituted).doesNotContain("${").startsWith(asl.substring(0, asl.indexOf("${")));
            for (WorkflowStep step : workflow.steps()) {
                assertThat(substituted).contains("\"arn:aws:lambda:us-east-1:000000000000:function:"
                        + step.functionName() + "\"");
            }
        }
        assertThat(Workflows.ACTIVATION.aslWith(Map.of())).isEqualTo(Workflows.ACTIVATION.asl());
    }

    @Test
    void aMissingAslResourceFailsSayingWhich() {
        WorkflowDefinition missing = new WorkflowDefinition("X", "workflows/none.asl.json", List.of(),
                Settings.ACTIVATION_STATE_MACHINE_ARN, Operation.CREATE_GAME_SERVER_GROUP);
        assertThatThrownBy(missing::asl).isInstanceOf(IllegalStateException.class)
                .hasMessage("missing workflow resource workflows/none.asl.json");
    }

    @Test
    void theTriggersNamesAndHandlers() {
        assertThat(Triggers.BALANCER.functionName()).isEqualTo("gamefleet-RunBalancer");
        assertThat(Triggers.BALANCER.handlerMethod()).isEqualTo("io.gamefleet.triggers.BalancerHandler::handleRequest");
        assertThat(Triggers.BALANCER.rate()).isEqualTo(Settings.BALANCER_RATE_SECONDS);
        assertThat(Triggers.INSTANCE_EVENTS.functionName()).isEqualTo("gamefleet-HandleInstanceEvent");
        assertThat(Triggers.INSTANCE_EVENTS.handlerMethod())
                .isEqualTo("io.gamefleet.triggers.InstanceEventHandler::handleRequest");
        assertThat(Triggers.INSTANCE_EVENTS.pattern()).contains("\"aws.ec2\"", "EC2 Spot Instance Interruption Warning",
                "\"shutting-down\", \"terminated\"");
        assertThat(Triggers.SCHEDULES).containsExactly(Triggers.BALANCER);
        // A container group's task is an instance: its stops come to the same function.
        assertThat(Triggers.INSTANCE_EVENTS.pattern()).contains("\"aws.ecs\"", "\"ECS Task State Change\"",
                "\"desiredStatus\": [\"STOPPED\"]");
        assertThat(Triggers.EVENT_RULES).containsExactly(Triggers.INSTANCE_EVENTS);
    }

    @Test
    void aContainerGroupsCreationStartsTheActivationAsCreateGameServerGroupDoes() {
        assertThat(Workflows.startedBy(Routes.CREATE_CONTAINER_GROUP)).contains(Workflows.ACTIVATION);
        assertThat(Workflows.startedBy(Routes.of(Operation.CREATE_GAME_SERVER_GROUP))).contains(Workflows.ACTIVATION);
        assertThat(Routes.EXTENSIONS).filteredOn(e -> Workflows.startedBy(e).isPresent())
                .containsExactly(Routes.CREATE_CONTAINER_GROUP);
    }
}

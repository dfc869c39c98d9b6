package io.gamefleet.infra;

import io.gamefleet.catalog.ExtensionRoute;
import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import io.gamefleet.catalog.WorkflowDefinition;
import io.gamefleet.catalog.WorkflowStep;
import io.gamefleet.catalog.Workflows;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.stepfunctions.DefinitionBody;
import software.amazon.awscdk.services.stepfunctions.LogLevel;
import software.amazon.awscdk.services.stepfunctions.LogOptions;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.constructs.Construct;

/**
 * One Step Functions state machine per workflow of {@link Workflows}, running the catalog's ASL
 * file with its steps' live aliases; the operations that start a workflow get its ARN and the
 * right to start it, and the reconciling balancer every workflow's ARN and the rights to list its
 * executions and start it. Nothing points back (steps never start workflows), so there is no cycle.
 */
final class StateMachines extends Construct {
    private final Map<WorkflowDefinition, StateMachine> stateMachines = new LinkedHashMap<>();

    StateMachines(Construct scope, String id, Functions functions, DeploymentContext context) {
        super(scope, id);
        for (WorkflowDefinition workflow : Workflows.ALL) {
            stateMachines.put(workflow, stateMachine(workflow, functions, context));
        }
        for (Route route : Routes.ALL) {
            Workflows.startedBy(route).ifPresent(workflow -> {
                // The operation's own function, and the JSON door, which runs every operation.
                for (String starter : List.of(route.functionName(), Routes.JSON_DOOR.functionName())) {
                    StateMachine stateMachine = stateMachines.get(workflow);
                    Function fn = functions.function(starter);
                    fn.addEnvironment(workflow.arnSetting().environmentVariable(), stateMachine.getStateMachineArn());
                    stateMachine.grantStartExecution(fn);
                }
            });
        }
        for (ExtensionRoute route : Routes.EXTENSIONS) {
            Workflows.startedBy(route).ifPresent(workflow -> {
                StateMachine stateMachine = stateMachines.get(workflow);
                Function fn = functions.function(route.functionName());
                fn.addEnvironment(workflow.arnSetting().environmentVariable(), stateMachine.getStateMachineArn());
                stateMachine.grantStartExecution(fn);
            });
        }
        // Reconciliation lists each workflow's running executions and starts those that were lost.
        functions.all().forEach((name, function) -> {
            if (Workflows.reconciledBy(name)) {
                stateMachines.forEach((workflow, stateMachine) -> {
                    function.addEnvironment(workflow.arnSetting().environmentVariable(),
                            stateMachine.getStateMachineArn());
                    stateMachine.grantStartExecution(function);
                    stateMachine.grant(function, "states:ListExecutions");
                });
            }
        });
    }

    /** Every state machine, in catalog order. */
    Map<WorkflowDefinition, StateMachine> all() {
        return stateMachines;
    }

    private StateMachine stateMachine(WorkflowDefinition workflow, Functions functions, DeploymentContext context) {
        Map<String, String> substitutions = new LinkedHashMap<>();
        for (WorkflowStep step : workflow.steps()) {
            substitutions.put(step.placeholder(), functions.alias(step.functionName()).getFunctionArn());
        }
        // Step Functions' own prefix for vended logs keeps CloudWatch Logs' resource policy small.
        LogGroup logs = Logs.group(this, workflow.name() + "StateMachineLogs",
                "/aws/vendedlogs/states/" + Stack.of(this).getStackName() + "/" + workflow.stateMachineName(),
                context.logRetention());
        // The ASL file's text as shipped in the functions jar (the file the local profile runs);
        // fromString keeps it byte for byte, with the placeholders left to Step Functions.
        StateMachine stateMachine = StateMachine.Builder.create(this, workflow.name() + "StateMachine")
                .stateMachineName(context.names().of(workflow.stateMachineName()))
                .definitionBody(DefinitionBody.fromString(workflow.asl()))
                .definitionSubstitutions(substitutions)
                .logs(LogOptions.builder().destination(logs).level(LogLevel.ALL).includeExecutionData(true).build())
                .tracingEnabled(context.tracing())
                .build();
        for (WorkflowStep step : workflow.steps()) {
            functions.alias(step.functionName()).grantInvoke(stateMachine);
        }
        NagRules.stateMachine(stateMachine);
        return stateMachine;
    }
}

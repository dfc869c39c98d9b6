package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.WorkflowDefinition;
import io.gamefleet.catalog.WorkflowStep;
import io.gamefleet.catalog.Workflows;
import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The state machines (StateMachines): the catalog's ASL, their logs, tracing and what they may invoke. */
class StateMachinesStackTest extends SynthesizedStack {
    @Test
    void stateMachinesRunTheCatalogAslWithStepAliasesSubstituted() throws IOException {
        template.resourceCountIs("AWS::StepFunctions::StateMachine", Workflows.ALL.size());
        for (WorkflowDefinition workflow : Workflows.ALL) {
            Map<String, Object> p = props(resources.get(stateMachineId(workflow)));
            assertThat(p).containsEntry("StateMachineName", STAGE.of(workflow.stateMachineName()));
            assertThat(p.get("DefinitionString")).isEqualTo(workflow.asl());

            Map<String, Object> expected = new LinkedHashMap<>();
            for (WorkflowStep step : workflow.steps()) {
                expected.put(step.placeholder(), ref(aliasId(step.functionName())));
            }
            assertThat(p.get("DefinitionSubstitutions")).isEqualTo(expected);

            // What Step Functions will run: the ASL with each placeholder replaced by a step's alias ARN.
            Map<String, String> arns = workflow.steps().stream().collect(Collectors.toMap(WorkflowStep::placeholder,
                    s -> "arn:aws:lambda:us-east-1:123456789012:function:" + s.functionName() + ":live"));
            String substituted = workflow.aslWith(arns);
            assertThat(substituted).doesNotContain("${");
            JsonNode definition = JSON.readTree(substituted);
            Set<String> taskResources = new HashSet<>();
            definition.findValues("Resource").forEach(r -> taskResources.add(r.asText()));
            assertThat(taskResources).isEqualTo(Set.copyOf(arns.values()));
        }
    }

    @Test
    void stateMachinesLogEverythingAndAreTraced() {
        for (WorkflowDefinition workflow : Workflows.ALL) {
            Map<String, Object> p = props(resources.get(stateMachineId(workflow)));
            assertThat(p).containsEntry("TracingConfiguration", Map.of("Enabled", true));
            Map<String, Object> logging = map(p.get("LoggingConfiguration"));
            assertThat(logging).containsEntry("Level", "ALL").containsEntry("IncludeExecutionData", true);
            assertThat(render(logging.get("Destinations"))).contains("StateMachineLogs");
        }
    }

    @Test
    void stateMachinesMayInvokeTheirStepsLiveAliasesOnly() {
        for (WorkflowDefinition workflow : Workflows.ALL) {
            Map<String, Object> p = props(resources.get(stateMachineId(workflow)));
            String roleId = getAttId(p.get("RoleArn"));
            Set<Object> invokable = statementsOfRole(roleId).stream()
                    .filter(s -> actions(s).contains("lambda:InvokeFunction"))
                    .flatMap(s -> resourcesOf(s).stream()).collect(Collectors.toSet());
            assertThat(invokable).isEqualTo(workflow.steps().stream().map(s -> ref(aliasId(s.functionName())))
                    .collect(Collectors.toSet()));
        }
    }
}

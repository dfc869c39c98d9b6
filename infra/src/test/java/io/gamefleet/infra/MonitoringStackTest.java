package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.catalog.Catalog;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Schedule;
import io.gamefleet.catalog.Settings;
import io.gamefleet.catalog.TableDefinition;
import io.gamefleet.catalog.Tables;
import io.gamefleet.catalog.Triggers;
import io.gamefleet.catalog.WorkflowDefinition;
import io.gamefleet.catalog.Workflows;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/** Alarms, the dead-letter queue, tracing, the dashboard and the outputs (Monitoring, GamefleetStack). */
class MonitoringStackTest extends SynthesizedStack {
    @Test
    void alarmsPageForOutcomesNotSingleEvents() {
        Map<String, Map<String, Object>> alarms = new HashMap<>();
        ofType("AWS::CloudWatch::Alarm").values().forEach(a -> alarms.put((String) props(a).get("AlarmName"), props(a)));
        Object topic = ref(onlyResourceOf("AWS::SNS::Topic"));
        assertThat(alarms.values()).allSatisfy(a -> assertThat(a.get("AlarmActions")).isEqualTo(List.of(topic)));
        for (WorkflowDefinition workflow : Workflows.ALL) {
            Map<String, Object> failed = alarms.get(STAGE.of(workflow.stateMachineName()) + "-ExecutionsFailed");
            assertThat(failed).as(workflow.name()).containsEntry("MetricName", "ExecutionsFailed");
            assertThat(listOf(failed.get("Dimensions"))).contains(Map.of("Name", "StateMachineArn",
                    "Value", ref(stateMachineId(workflow))));
        }
        for (TableDefinition table : Tables.ALL) {
            String metrics = String.valueOf(alarms.get(STAGE.prefix() + table.logicalName() + "-Throttles").get("Metrics"));
            assertThat(metrics).contains("ReadThrottleEvents", "WriteThrottleEvents", ref(tableId(table)).toString());
        }
        assertThat(alarms.get(STAGE.prefix() + "Api-5xx")).containsEntry("MetricName", "5xx")
                .containsEntry("DatapointsToAlarm", 2).containsEntry("EvaluationPeriods", 3);
        assertThat(String.valueOf(alarms.get(STAGE.prefix() + "Api-4xx-Rate").get("Metrics")))
                .contains("IF(requests >= 100, 100 * refused / requests, 0)", "4xx", "Count");
        assertThat(alarms.get(STAGE.prefix() + "Api-429")).containsEntry("MetricName", STAGE.prefix() + "ApiThrottledRequests");
        template.hasResourceProperties("AWS::Logs::MetricFilter", Map.of("FilterPattern", "{ $.status = \"429\" }"));
        // The balancer: completed runs (invocations that did not fail), none for three periods, no data included.
        Map<String, Object> balancer = alarms.get(STAGE.prefix() + "Balancer-NotRunning");
        assertThat(balancer).containsEntry("ComparisonOperator", "LessThanThreshold").containsEntry("Threshold", 1)
                .containsEntry("EvaluationPeriods", 3).containsEntry("TreatMissingData", "breaching");
        assertThat(String.valueOf(balancer.get("Metrics"))).contains("FILL(runs, 0) - FILL(failed, 0)", "Invocations",
                "Errors", ref(functionId(Triggers.BALANCER.functionName())).toString());
        assertThat(alarms.get(STAGE.prefix() + "FailedEvents"))
                .containsEntry("MetricName", "ApproximateNumberOfMessagesVisible");
        // Not one alarm per function: their failures show as the outcomes above; the push channel's three
        // are in PushChannelStackTest.
        assertThat(alarms).hasSize(Workflows.ALL.size() + Tables.ALL.size() + 6 + 3);
    }

    /** N crashed processes in M minutes, the stage over: the agents' reports, as the push channel counts them. */
    @Test
    void aCrashLoopAlarmsOnTheStagesCrashedProcessesWithinItsMinutes() throws IOException {
        Map<String, Object> crashLoop = alarm(template, STAGE.prefix() + "Processes-CrashLoop");
        assertThat(crashLoop).containsEntry("MetricName", Catalog.CRASHED_PROCESSES)
                .containsEntry("Namespace", Catalog.METRICS_NAMESPACE).containsEntry("Statistic", "Sum")
                .containsEntry("Period", 600).containsEntry("Threshold", 20).containsEntry("EvaluationPeriods", 1)
                .containsEntry("ComparisonOperator", "GreaterThanOrEqualToThreshold")
                .containsEntry("TreatMissingData", "notBreaching");
        assertThat(listOf(crashLoop.get("Dimensions"))).containsExactly(Map.of("Name", Catalog.STAGE_DIMENSION,
                "Value", STAGE.stage()));
        Template tuned = Template.fromStack(stack(Map.of(DeploymentContext.CRASH_LOOP_CRASHES, "5",
                DeploymentContext.CRASH_LOOP_MINUTES, 30)));
        assertThat(alarm(tuned, STAGE.prefix() + "Processes-CrashLoop")).containsEntry("Threshold", 5)
                .containsEntry("Period", 1800);
        assertThatThrownBy(() -> stack(Map.of(DeploymentContext.CRASH_LOOP_CRASHES, "0")))
                .hasMessageContaining(DeploymentContext.CRASH_LOOP_CRASHES);
        assertThatThrownBy(() -> stack(Map.of(DeploymentContext.CRASH_LOOP_MINUTES, "1441")))
                .hasMessageContaining(DeploymentContext.CRASH_LOOP_MINUTES);
    }

    private static Map<String, Object> alarm(Template t, String name) {
        return t.findResources("AWS::CloudWatch::Alarm").values().stream().map(a -> props(cast(a)))
                .filter(p -> name.equals(p.get("AlarmName"))).findFirst().orElseThrow();
    }

    @Test
    void undeliverableEventsAndRunsLandInAnEncryptedQueue() {
        String queue = onlyResourceOf("AWS::SQS::Queue");
        assertThat(props(resources.get(queue))).containsEntry("SqsManagedSseEnabled", true)
                .containsEntry("MessageRetentionPeriod", 14 * 24 * 3600);
        // The EC2 event function: after Lambda's retries; and what EventBridge could not deliver.
        template.hasResourceProperties("AWS::Lambda::EventInvokeConfig", Map.of(
                "DestinationConfig", Map.of("OnFailure", Map.of("Destination", Map.of("Fn::GetAtt", List.of(queue, "Arn")))),
                "FunctionName", ref(functionId(Triggers.INSTANCE_EVENTS.functionName())),
                "Qualifier", Match.anyValue()));
        Map<String, Object> rule = props(ofType("AWS::Events::Rule").values().iterator().next());
        assertThat(String.valueOf(rule.get("Targets"))).contains("DeadLetterConfig").contains(queue);
        // The balancer's schedule.
        Map<String, Object> schedule = props(ofType("AWS::Scheduler::Schedule").values().iterator().next());
        assertThat(String.valueOf(map(schedule.get("Target")).get("DeadLetterConfig"))).contains(queue);
    }

    @Test
    void functionsAndStateMachinesAreTracedUnlessContextSaysNot() throws IOException {
        assertThat(ofType("AWS::Lambda::Function").values()).allSatisfy(f -> {
            assertThat(props(f)).containsEntry("TracingConfig", Map.of("Mode", "Active"));
            assertThat(variables(f)).as("the functions trace their AWS calls")
                    .containsEntry(Settings.TRACING.environmentVariable(), "true");
        });
        Template untraced = Template.fromStack(stack(Map.of(DeploymentContext.TRACING, "false")));
        untraced.allResourcesProperties("AWS::Lambda::Function", Map.of("TracingConfig", Match.absent()));
        untraced.allResourcesProperties("AWS::Lambda::Function", Map.of("Environment", Map.of("Variables",
                Map.of(Settings.TRACING.environmentVariable(), Match.absent()))));
        untraced.allResourcesProperties("AWS::StepFunctions::StateMachine",
                Map.of("TracingConfiguration", Map.of("Enabled", false)));
    }

    @Test
    void theDashboardShowsEveryFleetIqMetric() {
        template.resourceCountIs("AWS::CloudWatch::Dashboard", 1);
        String body = render(props(ofType("AWS::CloudWatch::Dashboard").values().iterator().next()).get("DashboardBody"));
        for (String metric : Stream.of(Catalog.GAME_SERVER_GAUGES, Catalog.INTERRUPTION_COUNTS, Catalog.PROCESS_GAUGES,
                Catalog.PROCESS_EVENT_COUNTS).flatMap(List::stream).toList()) {
            assertThat(body).contains("Namespace=\\\"" + Catalog.METRICS_NAMESPACE + "\\\" MetricName=\\\"" + metric + "\\\"");
        }
        assertThat(Catalog.GAME_SERVER_GAUGES.size() + Catalog.INTERRUPTION_COUNTS.size()).isEqualTo(7);
    }

    @Test
    void outputsTheApiUrlPolicyArnsTableNamesAndAlarmTopic() {
        template.hasOutput("ApiUrl", Map.of());
        for (Role role : Role.values()) {
            template.hasOutput(CallerPolicies.title(role) + "PolicyArn",
                    Map.of("Value", ref(callerPolicyId(role))));
        }
        assertThat(CallerPolicies.title(Role.GAME_SERVER)).isEqualTo("GameServer");
        for (TableDefinition definition : Tables.ALL) {
            template.hasOutput(definition.logicalName() + "TableName", Map.of("Value",
                    ref(tableId(definition))));
        }
        template.hasOutput("AlarmTopicArn", Map.of("Value", ref(onlyResourceOf("AWS::SNS::Topic"))));
    }
}

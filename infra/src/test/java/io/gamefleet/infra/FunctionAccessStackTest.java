package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.Catalog;
import io.gamefleet.catalog.FunctionAccess.Scaling;
import io.gamefleet.catalog.FunctionAccess.TableAccess;
import io.gamefleet.catalog.FunctionAccess;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import io.gamefleet.catalog.Tables;
import io.gamefleet.catalog.Triggers;
import io.gamefleet.catalog.WorkflowDefinition;
import io.gamefleet.catalog.WorkflowStep;
import io.gamefleet.catalog.Workflows;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Least privilege (Functions, ScalingPermissions): each function's role reaches exactly what the catalog declares for it. */
class FunctionAccessStackTest extends SynthesizedStack {
    @Test
    void everyCatalogFunctionHasDeclaredAccessAndNothingElseDoes() {
        assertThat(FunctionAccess.all().keySet()).isEqualTo(functionNames());
    }

    @Test
    void eachFunctionMayUseExactlyItsDeclaredTablesIndexesAndActions() {
        for (String name : functionNames()) {
            Set<String> expected = new HashSet<>();
            for (TableAccess grant : FunctionAccess.of(name).tables()) {
                String table = "<" + tableId(grant.table()) + ".Arn>";
                grant.actions().forEach(a -> expected.add("dynamodb:" + a + " on " + table));
                grant.queriedIndexes().forEach(i -> expected.add("dynamodb:Query on " + table + "/index/" + i));
            }
            Set<String> actual = new HashSet<>();
            for (Map<String, Object> s : statementsOf(name)) {
                for (String action : actions(s)) {
                    if (action.startsWith("dynamodb:")) {
                        resourcesOf(s).forEach(r -> actual.add(action + " on " + render(r)));
                    }
                }
            }
            assertThat(actual).as(name).isEqualTo(expected);
        }
    }

    @Test
    void eachFunctionWritesOnlyToItsOwnLogGroup() {
        for (String name : functionNames()) {
            List<Map<String, Object>> logs = statementsOf(name).stream()
                    .filter(s -> actions(s).stream().anyMatch(a -> a.startsWith("logs:"))).toList();
            assertThat(logs).as(name).hasSize(1);
            assertThat(actions(logs.get(0))).containsExactlyInAnyOrder("logs:CreateLogStream", "logs:PutLogEvents");
            assertThat(resourcesOf(logs.get(0))).containsExactly(
                    Map.of("Fn::GetAtt", List.of(logGroupId(name), "Arn")));
        }
        // No managed policy on a function's role (AWSLambdaBasicExecutionRole and the like).
        for (Map<String, Object> role : ofType("AWS::IAM::Role").values()) {
            if (props(role).get("AssumeRolePolicyDocument").toString().contains("lambda.amazonaws.com")) {
                assertThat(props(role)).doesNotContainKey("ManagedPolicyArns");
            }
        }
    }

    @Test
    void apiFunctionsNeitherScaleNorStartWorkflowsExceptTheTwoStarters() {
        Map<Operation, WorkflowDefinition> starters = Map.of(
                Operation.CREATE_GAME_SERVER_GROUP, Workflows.ACTIVATION, Operation.DELETE_GAME_SERVER_GROUP, Workflows.DELETION);
        for (Route route : Routes.ALL) {
            Map<String, Object> variables = variables(resources.get(functionId(route.functionName())));
            List<Map<String, Object>> statements = statementsOf(route.functionName());
            WorkflowDefinition started = starters.get(route.operation());
            for (WorkflowDefinition workflow : Workflows.ALL) {
                String variable = workflow.arnSetting().environmentVariable();
                Object machineRef = ref(stateMachineId(workflow));
                boolean starts = workflow == started;
                if (starts) {
                    assertThat(variables.get(variable)).as(route.operation().fleetIqName()).isEqualTo(machineRef);
                } else {
                    assertThat(variables).as(route.operation().fleetIqName()).doesNotContainKey(variable);
                }
                assertThat(statements.stream().anyMatch(s -> actions(s).contains("states:StartExecution")
                        && resourcesOf(s).contains(machineRef))).as(route.operation() + " starts " + workflow.name())
                        .isEqualTo(starts);
            }
            // RegisterGameServer may look up an instance the scaling group launched since the balancer's last run.
            boolean describes = route.operation() == Operation.REGISTER_GAME_SERVER;
            assertThat(statements.stream().flatMap(s -> actions(s).stream())).as(route.operation().fleetIqName())
                    .allMatch(a -> a.startsWith("dynamodb:") || a.startsWith("logs:")
                            || a.startsWith("xray:")
                            || (started != null && a.equals("states:StartExecution"))
                            || (describes && a.equals("autoscaling:DescribeAutoScalingGroups")));
        }
        // The JSON door runs both starters, so it starts both workflows.
        String door = Routes.JSON_DOOR.functionName();
        for (WorkflowDefinition workflow : Workflows.ALL) {
            Object machineRef = ref(stateMachineId(workflow));
            assertThat(variables(resources.get(functionId(door))).get(workflow.arnSetting().environmentVariable()))
                    .isEqualTo(machineRef);
            assertThat(statementsOf(door).stream().anyMatch(s -> actions(s).contains("states:StartExecution")
                    && resourcesOf(s).contains(machineRef))).as("the JSON door starts " + workflow.name()).isTrue();
        }
        // Nothing else may start a workflow, but the balancer's reconciliation, which restarts lost ones.
        Set<String> startersNames = starters.keySet().stream().map(Operation::functionName)
                .collect(Collectors.toSet());
        startersNames.add(door);
        for (String name : functionNames()) {
            if (!startersNames.contains(name) && !Workflows.reconciledBy(name)) {
                assertThat(statementsOf(name).stream().flatMap(s -> actions(s).stream()))
                        .as(name).noneMatch(a -> a.startsWith("states:"));
            }
        }
    }

    @Test
    void theBalancerListsAndStartsEveryWorkflowToReconcileThem() {
        String balancer = io.gamefleet.catalog.Triggers.BALANCER.functionName();
        assertThat(Workflows.reconciledBy(balancer)).isTrue();
        Map<String, Object> variables = variables(resources.get(functionId(balancer)));
        List<Map<String, Object>> statements = statementsOf(balancer);
        for (WorkflowDefinition workflow : Workflows.ALL) {
            Object machineRef = ref(stateMachineId(workflow));
            assertThat(variables.get(workflow.arnSetting().environmentVariable())).as(workflow.name()).isEqualTo(machineRef);
            for (String action : List.of("states:StartExecution", "states:ListExecutions")) {
                assertThat(statements.stream().anyMatch(s -> actions(s).contains(action)
                        && resourcesOf(s).contains(machineRef))).as(action + " on " + workflow.name()).isTrue();
            }
        }
        assertThat(statements.stream().flatMap(s -> actions(s).stream()).filter(a -> a.startsWith("states:")))
                .allMatch(a -> a.equals("states:StartExecution") || a.equals("states:ListExecutions"));
    }

    @Test
    void readOnlyOperationsWriteNothing() {
        for (Route route : Routes.ALL) {
            if (route.operation().fleetIqName().startsWith("Describe") || route.operation().fleetIqName().startsWith("List")) {
                assertThat(statementsOf(route.functionName()).stream().flatMap(s -> actions(s).stream()))
                        .as(route.operation().fleetIqName()).noneMatch(WRITE_ACTIONS::contains);
            }
        }
    }

    @Test
    void stepsTouchOnlyTheTablesTheirWorkNeeds() {
        Map<String, Set<String>> tablesOf = new HashMap<>();
        for (WorkflowStep step : Workflows.allSteps()) {
            tablesOf.put(step.name(), tablesTouchedBy(step.functionName()));
        }
        String interruptions = tableId(Tables.SPOT_INTERRUPTIONS);
        String instances = tableId(Tables.GAME_SERVER_INSTANCES);
        String servers = tableId(Tables.GAME_SERVERS);
        String groups = tableId(Tables.GAME_SERVER_GROUPS);
        tablesOf.forEach((step, touched) -> {
            assertThat(touched).as(step).doesNotContain(interruptions).contains(groups);
            assertThat(touched.contains(instances)).as(step + " on instances")
                    .isEqualTo(Set.of("CheckActivation", "PurgeGroupRecords").contains(step));
        });
        // The scaling-group steps read the group and call Auto Scaling; they write no table.
        for (WorkflowStep step : List.of(Workflows.CREATE_SCALING_GROUP, Workflows.DELETE_SCALING_GROUP)) {
            assertThat(tablesOf.get(step.name())).as(step.name()).containsExactly(groups);
        }
        assertThat(tablesOf.get(Workflows.CHECK_READY_TO_DELETE.name())).containsExactlyInAnyOrder(groups, servers);
    }

    @Test
    void onlyTheScalingStepsTheBalancerAndTheInstanceEventsChangeAutoScalingGroups() {
        Map<String, Set<String>> compute = new HashMap<>();
        for (String name : functionNames()) {
            Set<String> actions = statementsOf(name).stream().flatMap(s -> actions(s).stream())
                    .filter(a -> a.startsWith("autoscaling:") || a.startsWith("ec2:") || a.startsWith("iam:"))
                    .collect(Collectors.toSet());
            if (!actions.isEmpty()) {
                compute.put(name, actions);
            }
        }
        assertThat(compute.keySet()).containsExactlyInAnyOrder(Workflows.CREATE_SCALING_GROUP.functionName(),
                Workflows.CHECK_ACTIVATION.functionName(), Workflows.DELETE_SCALING_GROUP.functionName(),
                Triggers.BALANCER.functionName(), Triggers.INSTANCE_EVENTS.functionName(),
                Operation.REGISTER_GAME_SERVER.functionName(), Routes.JSON_DOOR.functionName());
        assertThat(compute.get(Workflows.CHECK_ACTIVATION.functionName()))
                .containsExactly("autoscaling:DescribeAutoScalingGroups");
        assertThat(compute.get(Operation.REGISTER_GAME_SERVER.functionName()))
                .containsExactly("autoscaling:DescribeAutoScalingGroups");
        assertThat(compute.get(Workflows.DELETE_SCALING_GROUP.functionName())).containsExactlyInAnyOrder(
                "autoscaling:DescribeAutoScalingGroups", "autoscaling:UpdateAutoScalingGroup",
                "autoscaling:DeleteAutoScalingGroup", "autoscaling:SetInstanceProtection");
        assertThat(compute.get(Workflows.CREATE_SCALING_GROUP.functionName())).contains(
                "autoscaling:CreateAutoScalingGroup", "autoscaling:PutScalingPolicy", "ec2:RunInstances",
                "iam:PassRole").doesNotContain("autoscaling:DeleteAutoScalingGroup",
                "autoscaling:TerminateInstanceInAutoScalingGroup");
        assertThat(compute.get(Triggers.BALANCER.functionName())).contains("autoscaling:SetDesiredCapacity",
                "autoscaling:SetInstanceProtection", "autoscaling:TerminateInstanceInAutoScalingGroup")
                .doesNotContain("autoscaling:CreateAutoScalingGroup", "autoscaling:DeleteAutoScalingGroup");
        // An interrupted instance's replacement: started at its warning, ended with it.
        assertThat(compute.get(Triggers.INSTANCE_EVENTS.functionName())).containsExactlyInAnyOrder(
                "autoscaling:DescribeAutoScalingGroups", "autoscaling:SetDesiredCapacity",
                "autoscaling:TerminateInstanceInAutoScalingGroup");
        compute.values().forEach(actions -> assertThat(actions).noneMatch(a -> a.endsWith("*")));
    }

    @Test
    void scalingActionsReachOnlyGroupsThatCarryTheManagedTag() {
        String resourceTag = "aws:ResourceTag/" + Catalog.MANAGED_TAG_KEY;
        String requestTag = "aws:RequestTag/" + Catalog.MANAGED_TAG_KEY;
        for (String name : functionNames()) {
            for (Map<String, Object> s : statementsOf(name)) {
                List<String> actions = actions(s);
                Map<String, Object> condition = s.containsKey("Condition") ? map(s.get("Condition")) : Map.of();
                if (actions.stream().anyMatch(a -> a.startsWith("autoscaling:") && !a.startsWith("autoscaling:Describe"))) {
                    String tag = actions.contains("autoscaling:CreateAutoScalingGroup") ? requestTag : resourceTag;
                    assertThat(condition).as(name + " " + actions).isEqualTo(Map.of("Null", Map.of(tag, "false")));
                    assertThat(resourcesOf(s)).hasSize(1);
                    assertThat(render(resourcesOf(s).get(0))).as(name)
                            .endsWith(":autoScalingGroup:*:autoScalingGroupName/gamefleet-prod-*");
                }
                if (actions.contains("iam:PassRole")) {
                    assertThat(condition).isEqualTo(Map.of("StringEquals", Map.of("iam:PassedToService",
                            List.of("ec2.amazonaws.com", "autoscaling.amazonaws.com"))));
                }
                if (actions.contains("ec2:CreateTags")) {
                    assertThat(condition).isEqualTo(Map.of("StringEquals", Map.of("ec2:CreateAction", "RunInstances")));
                }
            }
        }
    }
}

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
import io.gamefleet.catalog.Settings;
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
import software.amazon.awscdk.assertions.Template;
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

    /** GetMetricData has no resource-level permissions: only the metrics route's function has it, on "*". */
    @Test
    void onlyTheMetricsRouteReadsCloudWatch() {
        for (String name : functionNames()) {
            List<Map<String, Object>> reads = statementsOf(name).stream()
                    .filter(s -> actions(s).stream().anyMatch(a -> a.startsWith("cloudwatch:"))).toList();
            if (FunctionAccess.readsMetrics(name)) {
                assertThat(reads).as(name).singleElement().satisfies(s -> {
                    assertThat(actions(s)).containsExactly("cloudwatch:GetMetricData");
                    assertThat(resourcesOf(s)).containsExactly("*");
                });
            } else {
                assertThat(reads).as(name).isEmpty();
            }
        }
        assertThat(functionNames()).filteredOn(FunctionAccess::readsMetrics)
                .containsExactly(Routes.DESCRIBE_GROUP_METRICS.functionName());
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
            // RegisterGameServer may look up an instance the scaling group launched since the balancer's last
            // run, and its addresses.
            boolean describes = route.operation() == Operation.REGISTER_GAME_SERVER;
            assertThat(statements.stream().flatMap(s -> actions(s).stream())).as(route.operation().fleetIqName())
                    .allMatch(a -> a.startsWith("dynamodb:") || a.startsWith("logs:")
                            || a.startsWith("xray:")
                            // the pagination key's secret, read at start
                            || a.equals("secretsmanager:GetSecretValue") || a.equals("secretsmanager:DescribeSecret")
                            || (started != null && a.equals("states:StartExecution"))
                            || (describes && (a.equals("autoscaling:DescribeAutoScalingGroups")
                                    || a.equals("ec2:DescribeInstances")))
                            // the claim's and the deregistration's notices (PushChannelStackTest)
                            || (FunctionAccess.postsNotices(route.functionName())
                                    && a.equals("execute-api:ManageConnections"))
                            // the claim's and the deregistration's standby requests (StandbyRequestsStackTest)
                            || (FunctionAccess.requestsStandbyEvaluations(route.functionName())
                                    && a.equals("lambda:InvokeFunction"))
                            // CreateGameServerGroup reads the launch template's instance profile.
                            || (route.operation() == Operation.CREATE_GAME_SERVER_GROUP
                                    && a.equals("ec2:DescribeLaunchTemplateVersions")));
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
        // CreateContainerGroup activates its group as CreateGameServerGroup does.
        String containers = Routes.CREATE_CONTAINER_GROUP.functionName();
        Object activation = ref(stateMachineId(Workflows.ACTIVATION));
        assertThat(variables(resources.get(functionId(containers))).get(Workflows.ACTIVATION.arnSetting().environmentVariable()))
                .isEqualTo(activation);
        assertThat(statementsOf(containers).stream().filter(s -> actions(s).contains("states:StartExecution"))
                .flatMap(s -> resourcesOf(s).stream())).containsExactly(activation);
        // Nothing else may start a workflow, but the balancer's reconciliation, which restarts lost ones.
        Set<String> startersNames = starters.keySet().stream().map(Operation::functionName)
                .collect(Collectors.toSet());
        startersNames.add(door);
        startersNames.add(containers);
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
                Operation.REGISTER_GAME_SERVER.functionName(), Operation.CREATE_GAME_SERVER_GROUP.functionName(),
                Routes.JSON_DOOR.functionName());
        // A new group's launch template is read (its instance profile), nothing more.
        assertThat(compute.get(Operation.CREATE_GAME_SERVER_GROUP.functionName()))
                .containsExactly("ec2:DescribeLaunchTemplateVersions");
        // A new instance's addresses (EC2), which its game servers' ConnectionInfo must name.
        assertThat(compute.get(Workflows.CHECK_ACTIVATION.functionName()))
                .containsExactlyInAnyOrder("autoscaling:DescribeAutoScalingGroups", "ec2:DescribeInstances");
        assertThat(compute.get(Operation.REGISTER_GAME_SERVER.functionName()))
                .containsExactlyInAnyOrder("autoscaling:DescribeAutoScalingGroups", "ec2:DescribeInstances");
        assertThat(compute.get(Workflows.DELETE_SCALING_GROUP.functionName())).containsExactlyInAnyOrder(
                "autoscaling:DescribeAutoScalingGroups", "autoscaling:UpdateAutoScalingGroup",
                "autoscaling:DeleteAutoScalingGroup", "autoscaling:SetInstanceProtection");
        assertThat(compute.get(Workflows.CREATE_SCALING_GROUP.functionName())).contains(
                "autoscaling:CreateAutoScalingGroup", "autoscaling:PutScalingPolicy", "ec2:RunInstances",
                "iam:PassRole").doesNotContain("autoscaling:DeleteAutoScalingGroup",
                "autoscaling:TerminateInstanceInAutoScalingGroup");
        assertThat(compute.get(Triggers.BALANCER.functionName())).contains("ec2:DescribeInstances", "autoscaling:SetDesiredCapacity",
                "autoscaling:SetInstanceProtection", "autoscaling:TerminateInstanceInAutoScalingGroup")
                .doesNotContain("autoscaling:CreateAutoScalingGroup", "autoscaling:DeleteAutoScalingGroup");
        // An interrupted instance's replacement: started at its warning, ended with it.
        assertThat(compute.get(Triggers.INSTANCE_EVENTS.functionName())).containsExactlyInAnyOrder(
                "autoscaling:DescribeAutoScalingGroups", "autoscaling:SetDesiredCapacity",
                "autoscaling:TerminateInstanceInAutoScalingGroup");
        compute.values().forEach(actions -> assertThat(actions).noneMatch(a -> a.endsWith("*")));
    }

    @Test
    void scalingActionsReachOnlyGroupsThatCarryTheManagedTagAndTheStageTag() {
        String resourceTag = "aws:ResourceTag/" + Catalog.MANAGED_TAG_KEY;
        String requestTag = "aws:RequestTag/" + Catalog.MANAGED_TAG_KEY;
        int scalingStatements = 0;
        for (String name : functionNames()) {
            for (Map<String, Object> s : statementsOf(name)) {
                List<String> actions = actions(s);
                Map<String, Object> condition = s.containsKey("Condition") ? map(s.get("Condition")) : Map.of();
                if (actions.stream().anyMatch(a -> a.startsWith("autoscaling:") && !a.startsWith("autoscaling:Describe"))) {
                    boolean create = actions.contains("autoscaling:CreateAutoScalingGroup");
                    String tag = create ? requestTag : resourceTag;
                    // The stage's own tag, so that the former name prefix gamefleet-prod- never reaches stage prod-eu's groups.
                    String stageTag = (create ? "aws:RequestTag/" : "aws:ResourceTag/") + Catalog.STAGE_TAG_KEY;
                    assertThat(condition).as(name + " " + actions).isEqualTo(Map.of("Null", Map.of(tag, "false"),
                            "StringEquals", Map.of(stageTag, "prod")));
                    scalingStatements++;
                    // Created only under the stage's prefix; changed also under its former one (groups created before).
                    List<String> names = resourcesOf(s).stream().map(r -> render(r)
                            .replaceAll(".*:autoScalingGroup:\\*:autoScalingGroupName/", "")).toList();
                    assertThat(names).as(name).containsExactlyInAnyOrderElementsOf(create ? List.of("gamefleet-prod_*")
                            : List.of("gamefleet-prod_*", "gamefleet-prod-*"));
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
        assertThat(scalingStatements).isGreaterThanOrEqualTo(5);
    }

    /** The stack's GameServer role and instance profile (one of each). */
    private String gameServerRoleId() {
        String profile = onlyResourceOf("AWS::IAM::InstanceProfile");
        return (String) map(listOf(props(resources.get(profile)).get("Roles")).get(0)).get("Ref");
    }

    /** The scaling functions pass only the allowed roles, and launch only with the allowed instance profiles. */
    private void assertLaunchesOnlyWith(Map<String, Map<String, Object>> resources, List<String> roles, List<String> profiles) {
        this.resources = resources;
        int passRoles = 0;
        int denies = 0;
        for (String name : functionNames()) {
            for (Map<String, Object> s : statementsOf(name)) {
                List<String> actions = actions(s);
                if (actions.contains("iam:PassRole")) {
                    passRoles++;
                    assertThat(s).containsEntry("Effect", "Allow");
                    assertThat(resourcesOf(s).stream().map(SynthesizedStack::render).toList()).as(name)
                            .containsExactlyInAnyOrderElementsOf(roles);
                }
                if (actions.contains("ec2:RunInstances") && "Deny".equals(s.get("Effect"))) {
                    denies++;
                    assertThat(render(s.get("Resource"))).endsWith(":instance/*");
                    Map<String, Object> condition = map(s.get("Condition"));
                    assertThat(render(map(condition.get("ArnNotEquals")).get("ec2:InstanceProfile"))).as(name)
                            .isEqualTo(String.join(",", profiles));
                    assertThat(condition.get("Null")).isEqualTo(Map.of("ec2:InstanceProfile", "false"));
                }
                // Every other launch permission is an Allow that names no role.
                if (actions.contains("ec2:RunInstances") && "Allow".equals(s.get("Effect"))) {
                    assertThat(actions).doesNotContain("iam:PassRole");
                }
            }
        }
        // CreateScalingGroup and the balancer (a mixed instances policy's change is checked as a launch).
        assertThat(passRoles).isEqualTo(2);
        assertThat(denies).isEqualTo(2);
    }

    @Test
    void onlyTheStacksGameServerRoleAndProfileAreAllowedToLaunchWithByDefault() {
        String profile = "<" + onlyResourceOf("AWS::IAM::InstanceProfile") + ".Arn>";
        assertLaunchesOnlyWith(resources, List.of("<" + gameServerRoleId() + ".Arn>"), List.of(profile));
        // The functions check a new group's template against the same list.
        for (String name : List.of(Operation.CREATE_GAME_SERVER_GROUP.functionName(), Routes.JSON_DOOR.functionName())) {
            assertThat(render(variables(resources.get(functionId(name)))
                    .get(Settings.INSTANCE_PROFILE_ARNS.environmentVariable()))).as(name).isEqualTo(profile);
        }
    }

    @Test
    void theDeployersInstanceProfilesAndRolesAreAddedFromContext() {
        String extraProfile = "arn:aws:iam::123456789012:instance-profile/game/Arena";
        String extraRole = "arn:aws:iam::123456789012:role/game/ArenaHost";
        Map<String, Map<String, Object>> own = resources;
        String profile = "<" + onlyResourceOf("AWS::IAM::InstanceProfile") + ".Arn>";
        String role = "<" + gameServerRoleId() + ".Arn>";
        Map<String, Map<String, Object>> withContext = cast(Template.fromStack(stack(Map.of(
                DeploymentContext.INSTANCE_PROFILE_ARNS, extraProfile,
                DeploymentContext.INSTANCE_ROLE_ARNS, List.of(extraRole)))).toJSON().get("Resources"));
        try {
            assertLaunchesOnlyWith(withContext, List.of(role, extraRole), List.of(profile, extraProfile));
            assertThat(render(variables(resources.get(functionId(Operation.CREATE_GAME_SERVER_GROUP.functionName())))
                    .get(Settings.INSTANCE_PROFILE_ARNS.environmentVariable()))).isEqualTo(profile + "," + extraProfile);
        } finally {
            resources = own;
        }
    }

    @Test
    void aContextInstanceProfileOrRoleThatIsNoArnFailsSynthesis() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> stack(Map.of(DeploymentContext.INSTANCE_ROLE_ARNS, "*")))
                .hasMessageContaining("context instanceRoleArns must list IAM role ARNs, not *");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> stack(Map.of(DeploymentContext.INSTANCE_PROFILE_ARNS,
                "arn:aws:iam::123456789012:role/NotAProfile")))
                .hasMessageContaining("context instanceProfileArns must list IAM instance profile ARNs");
    }
}

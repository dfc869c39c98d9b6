package io.gamefleet.infra;

import io.gamefleet.catalog.FunctionAccess;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.catalog.Catalog;
import io.gamefleet.catalog.EventRule;
import io.gamefleet.catalog.IndexDefinition;
import io.gamefleet.catalog.KeyAttribute;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import io.gamefleet.catalog.Schedule;
import io.gamefleet.catalog.Settings;
import io.gamefleet.catalog.Settings.Setting;
import io.gamefleet.catalog.TableDefinition;
import io.gamefleet.catalog.Tables;
import io.gamefleet.catalog.Triggers;
import io.gamefleet.catalog.WorkflowDefinition;
import io.gamefleet.catalog.WorkflowStep;
import io.gamefleet.catalog.Workflows;
import io.gamefleet.catalog.FunctionAccess.Scaling;
import io.gamefleet.catalog.FunctionAccess.TableAccess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/**
 * Synthesizes the stack once (no credentials, no network) and checks it against the catalog:
 * routes, functions, least privilege, tables, workflows, triggers, caller policies, alarms.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GamefleetStackTest {
    /** The default stage: the template's physical names carry it. */
    private static final StageNames STAGE = new StageNames(DeploymentContext.DEFAULT_STAGE);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> WRITE_ACTIONS = Set.of("dynamodb:PutItem", "dynamodb:UpdateItem",
            "dynamodb:DeleteItem", "dynamodb:ConditionCheckItem", "dynamodb:BatchWriteItem");

    @TempDir
    static Path temp;

    /**
     * The tables are retained on deletion and hold the service's state: a new logical id would
     * make CloudFormation orphan a table and create an empty one.
     */
    private static final Map<String, String> TABLE_IDS = Map.of(
            Tables.GAME_SERVER_GROUPS.logicalName(), "GameServerGroupsAB2F042C",
            Tables.GAME_SERVERS.logicalName(), "GameServers79342818",
            Tables.GAME_SERVER_INSTANCES.logicalName(), "GameServerInstancesCFE61C9B",
            Tables.SPOT_INTERRUPTIONS.logicalName(), "SpotInterruptions99BC1F31");

    private Template template;
    private Map<String, Map<String, Object>> resources;

    @BeforeAll
    void synthesize() throws IOException {
        template = Template.fromStack(stack(Map.of()));
        resources = cast(template.toJSON().get("Resources"));
    }

    // ---- API ----

    @Test
    void oneIamAuthorizedRoutePerRestRouteAndCborPathAndTheJsonDoor() {
        template.resourceCountIs("AWS::ApiGatewayV2::Route", 2 * Routes.ALL.size() + 1);
        Set<String> routeKeys = new HashSet<>();
        for (Map<String, Object> route : ofType("AWS::ApiGatewayV2::Route").values()) {
            assertThat(props(route)).containsEntry("AuthorizationType", "AWS_IAM");
            routeKeys.add((String) props(route).get("RouteKey"));
        }
        Set<String> expected = new HashSet<>();
        Routes.ALL.forEach(r -> expected.add(r.method() + " " + r.path()));
        Routes.ALL.forEach(r -> expected.add("POST /service/GameLift/operation/" + r.operation().fleetIqName()));
        expected.add("POST /");
        assertThat(routeKeys).isEqualTo(expected);
    }

    @Test
    void eachRouteIntegratesTheLiveAliasOfItsOwnHandler() {
        for (Map<String, Object> routeResource : ofType("AWS::ApiGatewayV2::Route").values()) {
            Map<String, Object> p = props(routeResource);
            String functionName = Routes.ALL.stream()
                    .filter(r -> (r.method() + " " + r.path()).equals(p.get("RouteKey"))
                            || ("POST " + r.operation().cborPath()).equals(p.get("RouteKey")))
                    .map(Route::functionName).findFirst().orElse(Routes.JSON_DOOR.functionName());
            // Target: {"Fn::Join": ["", ["integrations/", {"Ref": integration}]]}
            List<Object> join = cast(map(p.get("Target")).get("Fn::Join"));
            List<Object> parts = cast(join.get(1));
            Map<String, Object> integration = props(resources.get((String) map(parts.get(1)).get("Ref")));
            assertThat(integration).containsEntry("IntegrationType", "AWS_PROXY")
                    .containsEntry("PayloadFormatVersion", "2.0")
                    .containsEntry("IntegrationUri", ref(aliasId(functionName)));
        }
    }

    @Test
    void defaultStageIsThrottledAutoDeployedAndAccessLogged() {
        template.resourceCountIs("AWS::ApiGatewayV2::Stage", 1);
        Map<String, Object> stage = props(ofType("AWS::ApiGatewayV2::Stage").values().iterator().next());
        assertThat(stage).containsEntry("StageName", "$default").containsEntry("AutoDeploy", true)
                .containsKey("DefaultRouteSettings");
        Map<String, Object> logs = map(stage.get("AccessLogSettings"));
        String logGroupId = getAttId(logs.get("DestinationArn"));
        assertThat(props(resources.get(logGroupId))).containsEntry("RetentionInDays",
                DeploymentContext.DEFAULT_LOG_RETENTION_DAYS);
        assertThat((String) logs.get("Format")).contains("$context.requestId", "$context.identity.userArn",
                "$context.routeKey", "$context.status");
    }

    // ---- Functions ----

    @Test
    void oneFunctionPerRouteStepScheduleAndEventRule() {
        Map<String, String> handlers = new LinkedHashMap<>();
        Map<String, Integer> timeouts = new HashMap<>();
        Routes.ALL.forEach(r -> handlers.put(r.functionName(), r.handlerMethod()));
        Routes.ALL.forEach(r -> timeouts.put(r.functionName(), 20));
        handlers.put(Routes.JSON_DOOR.functionName(), Routes.JSON_DOOR.handlerMethod());
        timeouts.put(Routes.JSON_DOOR.functionName(), 20);
        Workflows.allSteps().forEach(s -> handlers.put(s.functionName(), s.handlerMethod()));
        Workflows.allSteps().forEach(s -> timeouts.put(s.functionName(), 60));
        Triggers.SCHEDULES.forEach(s -> handlers.put(s.functionName(), s.handlerMethod()));
        Triggers.SCHEDULES.forEach(s -> timeouts.put(s.functionName(), 60)); // the default rate, one minute
        Triggers.EVENT_RULES.forEach(e -> handlers.put(e.functionName(), e.handlerMethod()));
        Triggers.EVENT_RULES.forEach(e -> timeouts.put(e.functionName(), 60));

        template.resourceCountIs("AWS::Lambda::Function", handlers.size());
        assertThat(functionNames()).isEqualTo(handlers.keySet());
        handlers.forEach((name, handler) -> {
            Map<String, Object> p = props(resources.get(functionId(name)));
            assertThat(p).as(name)
                    .containsEntry("FunctionName", STAGE.of(name))
                    .containsEntry("Handler", handler)
                    .containsEntry("Runtime", "java21")
                    .containsEntry("MemorySize", Functions.MEMORY_MB)
                    .containsEntry("Timeout", timeouts.get(name))
                    .containsEntry("SnapStart", Map.of("ApplyOn", Map.of("Fn::FindInMap",
                            List.of("SnapStartByRegion", Map.of("Ref", "AWS::Region"), "ApplyOn"))))
                    .containsEntry("LoggingConfig", Map.of("LogGroup", ref(logGroupId(name))));
            assertThat(props(resources.get(logGroupId(name))))
                    .containsEntry("RetentionInDays", DeploymentContext.DEFAULT_LOG_RETENTION_DAYS);
        });
    }

    @Test
    void everyFunctionPublishesAVersionBehindTheLiveAlias() {
        template.resourceCountIs("AWS::Lambda::Alias", functionNames().size());
        for (String name : functionNames()) {
            Map<String, Object> alias = props(resources.get(aliasId(name)));
            assertThat(alias).containsEntry("Name", Functions.LIVE_ALIAS)
                    .containsEntry("FunctionName", ref(functionId(name)));
            String versionId = getAttId(alias.get("FunctionVersion"));
            assertThat(resources.get(versionId)).containsEntry("Type", "AWS::Lambda::Version");
            assertThat(props(resources.get(versionId))).containsEntry("FunctionName", ref(functionId(name)));
        }
    }

    @Test
    void everyFunctionGetsTablesAccountAndContextSettings() {
        for (String name : functionNames()) {
            Map<String, Object> variables = variables(resources.get(functionId(name)));
            for (TableDefinition table : Tables.ALL) {
                assertThat(variables.get(table.environmentVariable())).as(name)
                        .isEqualTo(ref(tableId(table)));
            }
            assertThat(variables.get(Settings.ACCOUNT_ID.environmentVariable())).isEqualTo(ref("AWS::AccountId"));
            assertThat(variables.get(Settings.STAGE.environmentVariable())).as(name).isEqualTo("prod");
            for (Setting setting : DeploymentContext.CONTEXT_SETTINGS) {
                if (DeploymentContext.SCHEDULE_RATES.contains(setting)) {
                    // A schedule's period is the schedule's: no function reads it.
                    assertThat(variables).as(name).doesNotContainKey(setting.environmentVariable());
                } else {
                    assertThat(variables.get(setting.environmentVariable())).as(name + " " + setting.environmentVariable())
                            .isEqualTo(setting.defaultValue());
                }
            }
        }
    }

    @Test
    void onlyApiFunctionsGetThePageTokenKeyAndOnlyFromTheGeneratedSecret() {
        Set<String> apiFunctions = Routes.ALL.stream().map(Route::functionName).collect(Collectors.toSet());
        apiFunctions.add(Routes.JSON_DOOR.functionName());
        String variable = Settings.PAGE_TOKEN_SECRET_ARN.environmentVariable();
        String secret = onlyResourceOf("AWS::SecretsManager::Secret");
        for (String name : functionNames()) {
            Map<String, Object> variables = variables(resources.get(functionId(name)));
            // No function's configuration holds the key itself (lambda:GetFunctionConfiguration would show it).
            assertThat(variables).as(name).doesNotContainKey(Settings.PAGE_TOKEN_KEY.environmentVariable());
            assertThat(variables.values().stream().map(GamefleetStackTest::render)).as(name)
                    .noneMatch(v -> v.contains("resolve:secretsmanager"));
            boolean reads = statementsOf(name).stream().anyMatch(s -> actions(s).contains("secretsmanager:GetSecretValue")
                    && resourcesOf(s).contains(ref(secret)));
            if (apiFunctions.contains(name)) {
                assertThat(variables.get(variable)).as(name).isEqualTo(ref(secret));
                assertThat(reads).as(name + " reads the secret").isTrue();
            } else {
                assertThat(variables).as(name).doesNotContainKey(variable);
                assertThat(reads).as(name + " reads the secret").isFalse();
            }
        }
        assertThat(props(resources.get(secret)).get("GenerateSecretString")).isNotNull();
    }

    // ---- Least privilege ----

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
                            // the pagination key's secret, read at start
                            || a.equals("secretsmanager:GetSecretValue") || a.equals("secretsmanager:DescribeSecret")
                            || (started != null && a.equals("states:StartExecution"))
                            || (describes && a.equals("autoscaling:DescribeAutoScalingGroups"))
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
                Operation.REGISTER_GAME_SERVER.functionName(), Operation.CREATE_GAME_SERVER_GROUP.functionName(),
                Routes.JSON_DOOR.functionName());
        // A new group's launch template is read (its instance profile), nothing more.
        assertThat(compute.get(Operation.CREATE_GAME_SERVER_GROUP.functionName()))
                .containsExactly("ec2:DescribeLaunchTemplateVersions");
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
                    // The stage's own tag, so that the name prefix gamefleet-prod- never reaches stage prod-eu's groups.
                    String stageTag = (create ? "aws:RequestTag/" : "aws:ResourceTag/") + Catalog.STAGE_TAG_KEY;
                    assertThat(condition).as(name + " " + actions).isEqualTo(Map.of("Null", Map.of(tag, "false"),
                            "StringEquals", Map.of(stageTag, "prod")));
                    scalingStatements++;
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
                    assertThat(resourcesOf(s).stream().map(GamefleetStackTest::render).toList()).as(name)
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

    // ---- Tables ----

    @Test
    void theTablesKeepTheirLogicalIds() {
        assertThat(TABLE_IDS.keySet()).isEqualTo(Tables.ALL.stream().map(TableDefinition::logicalName)
                .collect(Collectors.toSet()));
        assertThat(ofType("AWS::DynamoDB::Table").keySet()).isEqualTo(Set.copyOf(TABLE_IDS.values()));
    }

    /** The stack's parts are construct ids only: the resources kept their ids from before the parts. */
    @Test
    void noLogicalIdNamesAPartOfTheStack() {
        Map<String, Object> outputs = cast(template.toJSON().get("Outputs"));
        Set<String> ids = new HashSet<>(resources.keySet());
        ids.addAll(outputs.keySet());
        assertThat(ids).noneMatch(id -> id.matches("(DataStores|Workflows|Triggers|HttpApi|CallerPolicies).*"));
    }

    @Test
    void everyTableMatchesItsCatalogDefinition() {
        template.resourceCountIs("AWS::DynamoDB::Table", Tables.ALL.size());
        for (TableDefinition definition : Tables.ALL) {
            Map<String, Object> resource = resources.get(tableId(definition));
            Map<String, Object> p = props(resource);
            assertThat(p).containsEntry("BillingMode", "PAY_PER_REQUEST")
                    .containsEntry("PointInTimeRecoverySpecification", Map.of("PointInTimeRecoveryEnabled", true));
            assertThat(resource).containsEntry("DeletionPolicy", "Retain").containsEntry("UpdateReplacePolicy", "Retain");
            assertThat(p.get("KeySchema")).isEqualTo(keySchema(definition.partitionKey(),
                    definition.sortKey().orElse(null)));

            Set<KeyAttribute> keyAttributes = new HashSet<>();
            keyAttributes.add(definition.partitionKey());
            definition.sortKey().ifPresent(keyAttributes::add);
            definition.indexes().forEach(i -> {
                keyAttributes.add(i.partitionKey());
                if (i.sortKey() != null) {
                    keyAttributes.add(i.sortKey());
                }
            });
            assertThat(Set.copyOf(listOf(p.get("AttributeDefinitions")))).isEqualTo(keyAttributes.stream()
                    .map(k -> Map.of("AttributeName", k.name(), "AttributeType", k.type()))
                    .collect(Collectors.toSet()));

            List<Object> expectedIndexes = new ArrayList<>();
            for (IndexDefinition index : definition.indexes()) {
                expectedIndexes.add(Map.of(
                        "IndexName", index.name(),
                        "KeySchema", keySchema(index.partitionKey(), index.sortKey()),
                        "Projection", index.projection().nonKeyAttributes().isEmpty()
                                ? Map.of("ProjectionType", index.projection().type())
                                : Map.of("ProjectionType", index.projection().type(),
                                        "NonKeyAttributes", index.projection().nonKeyAttributes())));
            }
            if (expectedIndexes.isEmpty()) {
                assertThat(p).doesNotContainKey("GlobalSecondaryIndexes");
            } else {
                assertThat(p.get("GlobalSecondaryIndexes")).isEqualTo(expectedIndexes);
            }

            if (definition.ttlAttribute().isPresent()) {
                assertThat(p.get("TimeToLiveSpecification")).isEqualTo(Map.of(
                        "AttributeName", definition.ttlAttribute().get(), "Enabled", true));
            } else {
                assertThat(p).doesNotContainKey("TimeToLiveSpecification");
            }
        }
        // Tables with expiring records: DELETED groups, old interruptions.
        assertThat(Tables.ALL.stream().filter(t -> t.ttlAttribute().isPresent()).count()).isGreaterThanOrEqualTo(2);
    }

    // ---- Workflows ----

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

    // ---- Triggers ----

    @Test
    void theScheduleInvokesTheBalancerAliasEveryMinuteByDefault() {
        template.resourceCountIs("AWS::Scheduler::Schedule", Triggers.SCHEDULES.size());
        for (Schedule schedule : Triggers.SCHEDULES) {
            Map<String, Object> p = props(resources.get(
                    idWhere("AWS::Scheduler::Schedule", "Name", STAGE.of(schedule.functionName()))));
            assertThat(p).containsEntry("ScheduleExpression", "rate(1 minute)").containsEntry("State", "ENABLED");
            Map<String, Object> target = map(p.get("Target"));
            assertThat(target.get("Arn")).isEqualTo(ref(aliasId(schedule.functionName())));
            String roleId = getAttId(target.get("RoleArn"));
            List<Map<String, Object>> statements = statementsOfRole(roleId);
            assertThat(statements).hasSize(2);
            assertThat(actions(statements.get(0))).containsExactly("lambda:InvokeFunction");
            assertThat(resourcesOf(statements.get(0))).containsExactly(ref(aliasId(schedule.functionName())));
            // A run it cannot invoke goes to the failed-events queue.
            assertThat(actions(statements.get(1))).containsExactly("sqs:SendMessage");
            assertThat(resourcesOf(statements.get(1))).containsExactly(
                    Map.of("Fn::GetAtt", List.of(onlyResourceOf("AWS::SQS::Queue"), "Arn")));
        }
    }

    @Test
    void theEventRuleCarriesTheCatalogPatternToTheHandlerAlias() throws IOException {
        template.resourceCountIs("AWS::Events::Rule", Triggers.EVENT_RULES.size());
        for (EventRule rule : Triggers.EVENT_RULES) {
            String ruleId = idWhere("AWS::Events::Rule", "Name", STAGE.of(rule.functionName()));
            Map<String, Object> p = props(resources.get(ruleId));
            assertThat(p).containsEntry("State", "ENABLED");
            JsonNode pattern = JSON.valueToTree(p.get("EventPattern"));
            assertThat(pattern).isEqualTo(JSON.readTree(rule.pattern()));
            List<Object> targets = listOf(p.get("Targets"));
            assertThat(targets).hasSize(1);
            assertThat(map(targets.get(0)).get("Arn")).isEqualTo(ref(aliasId(rule.functionName())));
            // EventBridge may invoke that alias, for this rule only.
            assertThat(ofType("AWS::Lambda::Permission").values().stream().map(GamefleetStackTest::props)
                    .filter(perm -> "events.amazonaws.com".equals(perm.get("Principal"))).toList())
                    .singleElement().satisfies(perm -> {
                        assertThat(perm.get("FunctionName")).isEqualTo(ref(aliasId(rule.functionName())));
                        assertThat(perm.get("SourceArn")).isEqualTo(Map.of("Fn::GetAtt", List.of(ruleId, "Arn")));
                    });
        }
    }

    // ---- Caller policies ----

    @Test
    void callerPoliciesGrantExactlyTheirRoutes() {
        String apiRef = "<" + onlyResourceOf("AWS::ApiGatewayV2::Api") + ">";
        for (Role role : Role.values()) {
            Map<String, Object> policy = props(resources.get(callerPolicyId(role)));
            List<Object> statements = listOf(map(policy.get("PolicyDocument")).get("Statement"));
            assertThat(statements).hasSize(1);
            Map<String, Object> statement = map(statements.get(0));
            assertThat(actions(statement)).containsExactly("execute-api:Invoke");
            Set<String> granted = resourcesOf(statement).stream().map(GamefleetStackTest::render)
                    .collect(Collectors.toSet());
            String prefix = "arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:" + apiRef + "/$default/";
            Set<String> expected = new HashSet<>();
            for (Route r : Routes.ALL) {
                if (r.roles().contains(role)) {
                    expected.add(prefix + r.method() + r.path().replaceAll("\\{[^}]+}", "?*"));
                    expected.add(prefix + "POST/service/GameLift/operation/" + r.operation().fleetIqName());
                }
            }
            expected.add(prefix + "POST/");
            assertThat(granted).as(role.name()).isEqualTo(expected);
        }
    }

    /** IAM's '*' also matches '/': no role's patterns may reach a route it does not have. */
    @Test
    void callerPoliciesReachNoOtherRouteThroughTheirWildcards() {
        String prefix = "arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:<"
                + onlyResourceOf("AWS::ApiGatewayV2::Api") + ">";
        for (Role role : Role.values()) {
            Map<String, Object> policy = props(resources.get(callerPolicyId(role)));
            Map<String, Object> statement = map(listOf(map(policy.get("PolicyDocument")).get("Statement")).get(0));
            List<Pattern> patterns = resourcesOf(statement).stream().map(GamefleetStackTest::render)
                    .map(GamefleetStackTest::iamGlob).toList();
            for (Route route : Routes.ALL) {
                for (String group : List.of("arena", "arena-eu.1")) {
                    String path = route.path().replace("{GameServerGroupName}", group)
                            .replace("{GameServerId}", "match-1");
                    String arn = prefix + "/$default/" + route.method() + path;
                    boolean reachable = patterns.stream().anyMatch(p -> p.matcher(arn).matches());
                    assertThat(reachable).as(role + " -> " + route.operation()).isEqualTo(route.roles().contains(role));
                    String cbor = prefix + "/$default/POST" + route.operation().cborPath();
                    assertThat(patterns.stream().anyMatch(p -> p.matcher(cbor).matches()))
                            .as(role + " -> CBOR " + route.operation()).isEqualTo(route.roles().contains(role));
                }
                // An empty last path parameter (GET .../game-servers/, which HTTP APIs may route as
                // ListGameServers) reaches only a role that has the route it may be routed to.
                if (route.path().endsWith("}")) {
                    String parent = route.path().substring(0, route.path().lastIndexOf('/'));
                    String arn = prefix + "/$default/" + route.method()
                            + (parent + "/").replaceAll("\\{[^}]+}", "arena");
                    List<Route> parents = Routes.ALL.stream().filter(r -> r.method().equals(route.method())
                            && r.path().equals(parent)).toList();
                    if (parents.stream().anyMatch(r -> !r.roles().contains(role))) {
                        assertThat(patterns.stream().noneMatch(p -> p.matcher(arn).matches())).as(role + " -> " + arn)
                                .isTrue();
                    }
                }
            }
        }
    }

    // ---- Alarms, dashboard, outputs ----

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
        // Not one alarm per function: their failures show as the outcomes above.
        assertThat(alarms).hasSize(Workflows.ALL.size() + Tables.ALL.size() + 5);
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
        assertThat(ofType("AWS::Lambda::Function").values()).allSatisfy(f ->
                assertThat(props(f)).containsEntry("TracingConfig", Map.of("Mode", "Active")));
        Template untraced = Template.fromStack(stack(Map.of(DeploymentContext.TRACING, "false")));
        untraced.allResourcesProperties("AWS::Lambda::Function", Map.of("TracingConfig", Match.absent()));
        untraced.allResourcesProperties("AWS::StepFunctions::StateMachine",
                Map.of("TracingConfiguration", Map.of("Enabled", false)));
    }

    @Test
    void theDashboardShowsEveryFleetIqMetric() {
        template.resourceCountIs("AWS::CloudWatch::Dashboard", 1);
        String body = render(props(ofType("AWS::CloudWatch::Dashboard").values().iterator().next()).get("DashboardBody"));
        for (String metric : Stream.concat(Catalog.GAME_SERVER_GAUGES.stream(), Catalog.INTERRUPTION_COUNTS.stream())
                .toList()) {
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

    // ---- Context ----

    @Test
    void contextTunesSettingsRetentionRemovalPolicyThrottlingAndTheSchedule() throws IOException {
        Map<String, Object> context = new HashMap<>();
        context.put("removalPolicy", "destroy");
        context.put("logRetentionDays", 90);
        context.put(DeploymentContext.contextKey(Settings.CLAIM_TTL_SECONDS), "30");
        context.put(DeploymentContext.contextKey(Settings.HEALTH_TIMEOUT_SECONDS), 90);
        context.put(DeploymentContext.contextKey(Settings.VIABILITY_THRESHOLD), "0.5");
        context.put(DeploymentContext.contextKey(Settings.BALANCER_RATE_SECONDS), "150");
        context.put(DeploymentContext.EXPECTED_GAME_SERVERS, 300);
        context.put(DeploymentContext.HEARTBEAT_SECONDS, "10");
        context.put("alarmEmail", "ops@example.com");
        GamefleetStack tunedStack = stack(context);
        Template tuned = Template.fromStack(tunedStack);

        tuned.allResources("AWS::DynamoDB::Table", Map.of("DeletionPolicy", "Delete", "UpdateReplacePolicy", "Delete"));
        tuned.allResourcesProperties("AWS::Logs::LogGroup", Map.of("RetentionInDays", 90));
        tuned.allResourcesProperties("AWS::Lambda::Function", Map.of("Environment", Map.of("Variables",
                Match.objectLike(Map.of(
                        Settings.CLAIM_TTL_SECONDS.environmentVariable(), "30",
                        Settings.HEALTH_TIMEOUT_SECONDS.environmentVariable(), "90",
                        Settings.VIABILITY_THRESHOLD.environmentVariable(), "0.5",
                        Settings.BALANCER_RATE_SECONDS.environmentVariable(), Match.absent(),
                        Settings.DELETED_RETENTION_SECONDS.environmentVariable(),
                        Settings.DELETED_RETENTION_SECONDS.defaultValue())))));
        // 150 s is 3 whole minutes: the schedule's rate, and the balancer's timeout.
        tuned.hasResourceProperties("AWS::Scheduler::Schedule", Map.of("ScheduleExpression", "rate(3 minutes)"));
        tuned.hasResourceProperties("AWS::Lambda::Function", Map.of(
                "FunctionName", STAGE.of(Triggers.BALANCER.functionName()), "Timeout", 180));
        // 300 servers every 10 s, 20 claims/s updating twice: ceil(1.2 * (30 + 40)) = 84 per second.
        tuned.hasResourceProperties("AWS::ApiGatewayV2::Stage", Map.of("RouteSettings", Match.objectLike(Map.of(
                "PATCH /game-server-groups/{GameServerGroupName}/game-servers/{GameServerId}",
                Map.of("ThrottlingBurstLimit", 168, "ThrottlingRateLimit", 84)))));
        tuned.hasResourceProperties("AWS::SNS::Subscription", Map.of("Protocol", "email", "Endpoint", "ops@example.com"));
    }

    @Test
    void theScheduleRateIsRoundedUpToWholeMinutes() {
        assertThat(DeploymentContext.scheduleMinutes("1")).isEqualTo(1);
        assertThat(DeploymentContext.scheduleMinutes("60")).isEqualTo(1);
        assertThat(DeploymentContext.scheduleMinutes("61")).isEqualTo(2);
        assertThat(DeploymentContext.scheduleMinutes("0")).isEqualTo(1);
        assertThat(Functions.scheduledTimeout(60).toSeconds().intValue()).isEqualTo(900);
    }

    @Test
    void theJsonDoorAdmitsTheSessionsOfTheCallerRolesItCreates() {
        Map<String, Object> variables = variables(resources.get(functionId(Routes.JSON_DOOR.functionName())));
        for (Role role : Role.values()) {
            String roleId = getAttId(variables.get(Settings.roleArn(role).environmentVariable()));
            Map<String, Object> iamRole = props(resources.get(roleId));
            assertThat(render(iamRole.get("ManagedPolicyArns"))).as(role.name()).contains(callerPolicyId(role));
            String trust = iamRole.get("AssumeRolePolicyDocument").toString();
            assertThat(trust).as(role.name()).contains(role == Role.GAME_SERVER ? "ec2.amazonaws.com" : ":root");
        }
        for (Role role : Role.values()) {
            String roleId = getAttId(variables.get(Settings.roleArn(role).environmentVariable()));
            // The unique id too: a role recreated under the same name is another principal.
            assertThat(variables.get(Settings.roleId(role).environmentVariable()))
                    .isEqualTo(Map.of("Fn::GetAtt", List.of(roleId, "RoleId")));
        }
        // Every API function knows them (an ADMIN, an instance's own process); the others do not.
        Set<String> api = new HashSet<>();
        Routes.ALL.forEach(r -> api.add(r.functionName()));
        api.add(Routes.JSON_DOOR.functionName());
        for (String name : functionNames()) {
            assertThat(variables(resources.get(functionId(name))).containsKey(Settings.ADMIN_ROLE_ID.environmentVariable()))
                    .as(name).isEqualTo(api.contains(name));
        }
        template.resourceCountIs("AWS::IAM::InstanceProfile", 1);
    }

    @Test
    void theCdksRecommendedFeatureFlagsAreSet() throws IOException {
        Map<String, Object> cdkJson = JSON.readValue(Path.of("cdk.json").toFile(), new TypeReference<>() {});
        @SuppressWarnings("unchecked")
        Map<String, Object> context = (Map<String, Object>) cdkJson.get("context");
        assertThat(context).containsEntry("@aws-cdk/aws-iam:minimizePolicies", true)
                .containsEntry("@aws-cdk/core:enablePartitionLiterals", true)
                .containsEntry("@aws-cdk/aws-lambda:useCdkManagedLogGroup", true);
        // The tests synthesize with them, as cdk synth does.
        assertThat(stack(Map.of()).getNode().tryGetContext("@aws-cdk/aws-iam:minimizePolicies")).isEqualTo(true);
    }

    @Test
    void everyCatalogSettingButTheDerivedOnesIsAContextKey() {
        assertThat(DeploymentContext.CONTEXT_SETTINGS).containsAll(List.of(Settings.CLAIM_TTL_SECONDS,
                Settings.HEALTH_TIMEOUT_SECONDS, Settings.DELETED_RETENTION_SECONDS, Settings.BALANCER_RATE_SECONDS,
                Settings.VIABILITY_WINDOW_SECONDS, Settings.VIABILITY_THRESHOLD))
                .doesNotContain(Settings.PAGE_TOKEN_KEY, Settings.ACCOUNT_ID, Settings.ACTIVATION_STATE_MACHINE_ARN,
                        Settings.DELETION_STATE_MACHINE_ARN);
        assertThat(DeploymentContext.SCHEDULE_RATES).containsExactly(Settings.BALANCER_RATE_SECONDS);
        assertThat(DeploymentContext.DERIVED).containsExactlyInAnyOrder(Settings.PAGE_TOKEN_KEY,
                Settings.PAGE_TOKEN_SECRET_ARN, Settings.ACCOUNT_ID,
                Settings.SCALING_GROUP_PREFIX, Settings.STAGE, Settings.INSTANCE_PROFILE_ARNS,
                Settings.ACTIVATION_STATE_MACHINE_ARN, Settings.DELETION_STATE_MACHINE_ARN, Settings.ADMIN_ROLE_ARN,
                Settings.MATCHMAKER_ROLE_ARN, Settings.GAME_SERVER_ROLE_ARN, Settings.ADMIN_ROLE_ID,
                Settings.MATCHMAKER_ROLE_ID, Settings.GAME_SERVER_ROLE_ID);
        assertThat(DeploymentContext.contextKey(Settings.CLAIM_TTL_SECONDS)).isEqualTo("claimTtlSeconds");
        assertThat(DeploymentContext.contextKey(Settings.VIABILITY_THRESHOLD)).isEqualTo("viabilityThreshold");
    }

    @Test
    void badContextFailsSynthesis() {
        assertThatThrownBy(() -> stack(Map.of("removalPolicy", "snapshot"))).hasMessageContaining("removalPolicy");
        assertThatThrownBy(() -> stack(Map.of(DeploymentContext.contextKey(Settings.CLAIM_TTL_SECONDS), "soon")))
                .hasMessageContaining("claimTtlSeconds");
        assertThatThrownBy(() -> stack(Map.of(DeploymentContext.contextKey(Settings.VIABILITY_THRESHOLD), "high")))
                .hasMessageContaining("viabilityThreshold");
        assertThatThrownBy(() -> stack(Map.of("logRetentionDays", 10))).hasMessageContaining("logRetentionDays");
        assertThatThrownBy(() -> stack(Map.of("alarmEmail", "ops"))).hasMessageContaining("alarmEmail");
        assertThatThrownBy(() -> stack(Map.of("lambdaJar", temp.resolve("missing.jar").toString())))
                .hasMessageContaining("missing.jar");
    }

    @Test
    void defaultJarIsTheFunctionsShadedJar() {
        assertThat(LambdaJar.defaultPath())
                .isEqualTo("../functions/target/gamefleet-functions-" + LambdaJar.projectVersion() + "-lambda.jar")
                .doesNotContain("${");
    }

    /** The README's table of context settings names every key with its default. */
    @Test
    void theReadmeDocumentsEveryContextKeyWithItsDefault() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        String deploying = readme.substring(readme.indexOf("## Deploying"));
        deploying = deploying.substring(0, deploying.indexOf("\n## ", 1) < 0 ? deploying.length()
                : deploying.indexOf("\n## ", 1));
        Map<String, String> keys = new LinkedHashMap<>();
        DeploymentContext.CONTEXT_SETTINGS.forEach(s -> keys.put(DeploymentContext.contextKey(s), s.defaultValue()));
        keys.put(DeploymentContext.REMOVAL_POLICY, DeploymentContext.DEFAULT_REMOVAL_POLICY);
        keys.put(DeploymentContext.LOG_RETENTION_DAYS, Integer.toString(DeploymentContext.DEFAULT_LOG_RETENTION_DAYS));
        keys.put(DeploymentContext.STAGE, DeploymentContext.DEFAULT_STAGE);
        keys.put(DeploymentContext.SNAP_START, "auto");
        keys.put(DeploymentContext.TRACING, "true");
        keys.put(DeploymentContext.EXPECTED_GAME_SERVERS, Integer.toString(DeploymentContext.DEFAULT_EXPECTED_GAME_SERVERS));
        keys.put(DeploymentContext.HEARTBEAT_SECONDS, Integer.toString(DeploymentContext.DEFAULT_HEARTBEAT_SECONDS));
        keys.put(DeploymentContext.CLAIMS_PER_SECOND, Integer.toString(DeploymentContext.DEFAULT_CLAIMS_PER_SECOND));
        for (Map.Entry<String, String> key : keys.entrySet()) {
            assertThat(deploying).as(key.getKey()).containsPattern(
                    "\\| `" + Pattern.quote(key.getKey()) + "` \\| " + Pattern.quote(key.getValue()) + " \\|");
        }
        assertThat(deploying).contains("`" + DeploymentContext.ALARM_EMAIL + "`", "`" + DeploymentContext.LAMBDA_JAR + "`");
    }

    // ---- helpers ----

    private GamefleetStack stack(Map<String, Object> context) {
        return TestApps.stack(temp, context, "Gamefleet");
    }

    /** The catalog names of the stack's functions (the template has them with the stage in). */
    private Set<String> functionNames() {
        return ofType("AWS::Lambda::Function").values().stream().map(f -> (String) props(f).get("FunctionName"))
                .map(physical -> Catalog.FUNCTION_PREFIX + physical.substring(STAGE.prefix().length()))
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    private String functionId(String functionName) {
        return idWhere("AWS::Lambda::Function", "FunctionName", STAGE.of(functionName));
    }

    /** The alias of the function (each function has exactly one). */
    private String aliasId(String functionName) {
        return idWhere("AWS::Lambda::Alias", "FunctionName", ref(functionId(functionName)));
    }

    private String logGroupId(String functionName) {
        return idWhere("AWS::Logs::LogGroup", "LogGroupName", "/Gamefleet/lambda/" + functionName);
    }

    private String tableId(TableDefinition table) {
        return TABLE_IDS.get(table.logicalName());
    }

    private String stateMachineId(WorkflowDefinition workflow) {
        return idWhere("AWS::StepFunctions::StateMachine", "StateMachineName", STAGE.of(workflow.stateMachineName()));
    }

    private String callerPolicyId(Role role) {
        List<String> ids = ofType("AWS::IAM::ManagedPolicy").entrySet().stream()
                .filter(e -> ((String) props(e.getValue()).get("Description"))
                        .startsWith("Gamefleet " + role + " callers:"))
                .map(Map.Entry::getKey).toList();
        assertThat(ids).as(role.name()).hasSize(1);
        return ids.get(0);
    }

    /** The logical id of the one resource of the type whose property has the value. */
    private String idWhere(String type, String property, Object value) {
        List<String> ids = ofType(type).entrySet().stream()
                .filter(e -> value.equals(props(e.getValue()).get(property))).map(Map.Entry::getKey).toList();
        assertThat(ids).as(type + " with " + property + " " + value).hasSize(1);
        return ids.get(0);
    }

    private String onlyResourceOf(String type) {
        assertThat(ofType(type)).as(type).hasSize(1);
        return ofType(type).keySet().iterator().next();
    }

    private static Map<String, Object> ref(String logicalId) {
        return Map.of("Ref", logicalId);
    }

    private Map<String, Map<String, Object>> ofType(String type) {
        return resources.entrySet().stream().filter(e -> type.equals(e.getValue().get("Type")))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private static Map<String, Object> props(Map<String, Object> resource) {
        return cast(resource.get("Properties"));
    }

    private static Map<String, Object> variables(Map<String, Object> function) {
        return cast(map(props(function).get("Environment")).get("Variables"));
    }

    /** The policy statements attached to the role of the named function. */
    private List<Map<String, Object>> statementsOf(String functionName) {
        Map<String, Object> fn = resources.get(functionId(functionName));
        List<Object> roleArn = cast(map(props(fn).get("Role")).get("Fn::GetAtt"));
        return statementsOfRole((String) roleArn.get(0));
    }

    private List<Map<String, Object>> statementsOfRole(String roleId) {
        Map<String, Object> roleRef = ref(roleId);
        return ofType("AWS::IAM::Policy").values().stream()
                .map(GamefleetStackTest::props)
                .filter(p -> listOf(p.get("Roles")).contains(roleRef))
                .flatMap(p -> listOf(map(p.get("PolicyDocument")).get("Statement")).stream())
                .map(s -> GamefleetStackTest.<Map<String, Object>>cast(s))
                .toList();
    }

    /** The tables a function's DynamoDB statements reach (by logical id), indexes included. */
    private Set<String> tablesTouchedBy(String functionName) {
        Set<String> touched = new HashSet<>();
        for (Map<String, Object> s : statementsOf(functionName)) {
            if (actions(s).stream().anyMatch(a -> a.startsWith("dynamodb:"))) {
                for (Object r : resourcesOf(s)) {
                    String rendered = render(r);
                    touched.add(rendered.substring(1, rendered.indexOf('.')));
                }
            }
        }
        return touched;
    }

    private static List<String> actions(Map<String, Object> statement) {
        Object action = statement.get("Action");
        return action instanceof List<?> list ? list.stream().map(Object::toString).toList() : List.of(action.toString());
    }

    private static List<Object> resourcesOf(Map<String, Object> statement) {
        Object resource = statement.get("Resource");
        return resource instanceof List<?> list ? List.copyOf(list) : List.of(resource);
    }

    /** A CloudFormation value as text: Ref as {@code <Id>}, GetAtt as {@code <Id.Attr>}, joins joined. */
    private static String render(Object value) {
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(GamefleetStackTest::render).collect(Collectors.joining(","));
        }
        Map<String, Object> m = map(value);
        if (m.containsKey("Ref")) {
            return "<" + m.get("Ref") + ">";
        }
        if (m.containsKey("Fn::GetAtt")) {
            List<Object> att = cast(m.get("Fn::GetAtt"));
            return "<" + att.get(0) + "." + att.get(1) + ">";
        }
        if (m.containsKey("Fn::Join")) {
            List<Object> join = cast(m.get("Fn::Join"));
            List<Object> parts = cast(join.get(1));
            return parts.stream().map(GamefleetStackTest::render).collect(Collectors.joining((String) join.get(0)));
        }
        return String.valueOf(value);
    }

    /** An IAM resource pattern: '*' matches any characters, '/' included, '?' exactly one. */
    private static Pattern iamGlob(String pattern) {
        StringBuilder regex = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            if (c == '*' || c == '?') {
                if (literal.length() > 0) {
                    regex.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                regex.append(c == '*' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        if (literal.length() > 0) {
            regex.append(Pattern.quote(literal.toString()));
        }
        return Pattern.compile(regex.toString());
    }

    private static List<Object> keySchema(KeyAttribute partitionKey, KeyAttribute sortKey) {
        return Stream.of(Map.of("AttributeName", partitionKey.name(), "KeyType", "HASH"),
                        sortKey == null ? null : Map.of("AttributeName", sortKey.name(), "KeyType", "RANGE"))
                .filter(java.util.Objects::nonNull).map(Function.<Object>identity()).toList();
    }

    private static List<Object> listOf(Object value) {
        return value == null ? List.of() : cast(value);
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(Object value) {
        return (T) value;
    }

    /** The logical id in {"Fn::GetAtt": [id, attribute]}. */
    private static String getAttId(Object value) {
        List<Object> att = cast(map(value).get("Fn::GetAtt"));
        return (String) att.get(0);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }
}

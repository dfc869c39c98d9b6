package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.catalog.IndexDefinition;
import io.gamefleet.catalog.KeyAttribute;
import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import io.gamefleet.catalog.Settings;
import io.gamefleet.catalog.Settings.Setting;
import io.gamefleet.catalog.TableDefinition;
import io.gamefleet.catalog.Tables;
import io.gamefleet.catalog.WorkflowDefinition;
import io.gamefleet.catalog.WorkflowStep;
import io.gamefleet.catalog.Workflows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.CfnElement;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/** Synthesizes the stack (no credentials, no network) and checks it against the catalog. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GamefleetStackTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path temp;

    private GamefleetStack stack;
    private Template template;
    private Map<String, Map<String, Object>> resources;

    @BeforeAll
    void synthesize() throws IOException {
        stack = stack(Map.of());
        template = Template.fromStack(stack);
        resources = cast(template.toJSON().get("Resources"));
    }

    // ---- API ----

    @Test
    void oneIamAuthorizedRoutePerCatalogRoute() {
        template.resourceCountIs("AWS::ApiGatewayV2::Route", Routes.ALL.size());
        for (Route route : Routes.ALL) {
            template.hasResourceProperties("AWS::ApiGatewayV2::Route", Map.of(
                    "RouteKey", route.method() + " " + route.path(),
                    "AuthorizationType", "AWS_IAM"));
        }
        Set<String> routeKeys = ofType("AWS::ApiGatewayV2::Route").values().stream()
                .map(r -> (String) props(r).get("RouteKey")).collect(Collectors.toSet());
        assertThat(routeKeys).isEqualTo(Routes.ALL.stream().map(r -> r.method() + " " + r.path())
                .collect(Collectors.toSet()));
    }

    @Test
    void eachRouteIntegratesItsOwnHandlerFunction() {
        for (Map<String, Object> routeResource : ofType("AWS::ApiGatewayV2::Route").values()) {
            Map<String, Object> p = props(routeResource);
            Route route = Routes.ALL.stream().filter(r -> (r.method() + " " + r.path()).equals(p.get("RouteKey")))
                    .findFirst().orElseThrow();
            // Target: {"Fn::Join": ["", ["integrations/", {"Ref": integration}]]}
            List<Object> join = cast(map(p.get("Target")).get("Fn::Join"));
            List<Object> parts = cast(join.get(1));
            String integrationId = (String) map(parts.get(1)).get("Ref");
            Map<String, Object> integration = props(resources.get(integrationId));
            assertThat(integration).containsEntry("IntegrationType", "AWS_PROXY")
                    .containsEntry("PayloadFormatVersion", "2.0");
            assertThat(integration.get("IntegrationUri")).isEqualTo(arnOf(functionId(route.functionName())));
        }
    }

    @Test
    void defaultStageIsThrottledAndAutoDeployed() {
        template.resourceCountIs("AWS::ApiGatewayV2::Stage", 1);
        template.hasResourceProperties("AWS::ApiGatewayV2::Stage", Map.of(
                "StageName", "$default",
                "AutoDeploy", true,
                "DefaultRouteSettings", Map.of(
                        "ThrottlingBurstLimit", GamefleetStack.DEFAULT_THROTTLE_BURST,
                        "ThrottlingRateLimit", GamefleetStack.DEFAULT_THROTTLE_RATE)));
    }

    // ---- Functions ----

    @Test
    void oneJava21FunctionPerRouteAndWorkflowStep() {
        template.resourceCountIs("AWS::Lambda::Function", Routes.ALL.size() + Workflows.allSteps().size());
        for (Route route : Routes.ALL) {
            template.hasResourceProperties("AWS::Lambda::Function", Map.of(
                    "FunctionName", route.functionName(),
                    "Runtime", "java21",
                    "Handler", route.handlerMethod(),
                    "MemorySize", 1024,
                    "Timeout", 30));
        }
        for (WorkflowStep step : Workflows.allSteps()) {
            template.hasResourceProperties("AWS::Lambda::Function", Map.of(
                    "FunctionName", step.functionName(),
                    "Runtime", "java21",
                    "Handler", step.handlerMethod(),
                    "MemorySize", 1024,
                    "Timeout", 60));
        }
    }

    @Test
    void everyFunctionGetsTablesAccountAndSettings() {
        for (Map<String, Object> fn : ofType("AWS::Lambda::Function").values()) {
            Map<String, Object> variables = variables(fn);
            for (TableDefinition table : Tables.ALL) {
                assertThat(variables.get(table.environmentVariable()))
                        .isEqualTo(Map.of("Ref", logicalId(stack.tables().get(table.logicalName()))));
            }
            assertThat(variables.get(Settings.ACCOUNT_ID.environmentVariable()))
                    .isEqualTo(Map.of("Ref", "AWS::AccountId"));
            for (Setting setting : GamefleetStack.CONTEXT_SETTINGS) {
                assertThat(variables.get(setting.environmentVariable())).isEqualTo(setting.defaultValue());
            }
            assertThat(variables).doesNotContainKey(Settings.PAGE_TOKEN_KEY.environmentVariable());
        }
    }

    @Test
    void onlyTheWorkflowStartersGetStateMachineArnsAndStartExecution() {
        Map<String, WorkflowDefinition> starters = Map.of(
                "CreateGameServerGroup", Workflows.ACTIVATION, "DeleteGameServerGroup", Workflows.DELETION);
        for (Route route : Routes.ALL) {
            Map<String, Object> variables = variables(resources.get(functionId(route.functionName())));
            List<Map<String, Object>> statements = statementsOf(route.functionName());
            WorkflowDefinition started = starters.get(route.operation());
            for (WorkflowDefinition workflow : Workflows.ALL) {
                String variable = workflow.arnSetting().environmentVariable();
                Object machineRef = Map.of("Ref", logicalId(stack.stateMachines().get(workflow.name())));
                boolean starts = workflow == started;
                if (starts) {
                    assertThat(variables.get(variable)).as(route.operation()).isEqualTo(machineRef);
                } else {
                    assertThat(variables).as(route.operation()).doesNotContainKey(variable);
                }
                assertThat(statements.stream().anyMatch(s -> actions(s).contains("states:StartExecution")
                        && machineRef.equals(s.get("Resource")))).as(route.operation() + " starts " + workflow.name())
                        .isEqualTo(starts);
            }
            assertThat(statements.stream().flatMap(s -> actions(s).stream()))
                    .noneMatch(a -> a.startsWith("autoscaling:") || a.startsWith("ec2:") || a.startsWith("iam:"));
        }
    }

    @Test
    void onlyWorkflowStepsManageScalingGroups() {
        for (WorkflowStep step : Workflows.allSteps()) {
            List<String> actions = statementsOf(step.functionName()).stream()
                    .flatMap(s -> actions(s).stream()).toList();
            assertThat(actions).containsAll(GamefleetStack.SCALING_ACTIONS)
                    .contains("iam:PassRole", "iam:CreateServiceLinkedRole")
                    .doesNotContain("states:StartExecution")
                    .noneMatch(a -> a.equals("autoscaling:*") || a.equals("*"));
            assertThat(variables(resources.get(functionId(step.functionName()))))
                    .doesNotContainKeys(Workflows.ALL.stream().map(w -> w.arnSetting().environmentVariable())
                            .toArray(String[]::new));
        }
    }

    @Test
    void everyFunctionCanReadAndWriteEveryTable() {
        // Every function on every table until the security issue narrows it per handler.
        for (String name : stack.functions().keySet()) {
            List<Map<String, Object>> statements = statementsOf(name);
            for (TableDefinition table : Tables.ALL) {
                Object tableArn = arnOf(logicalId(stack.tables().get(table.logicalName())));
                assertThat(statements).as(name + " on " + table.logicalName()).anyMatch(s ->
                        // TransactWriteItems is authorized item by item (Put/Update/Delete/ConditionCheckItem).
                        actions(s).containsAll(List.of("dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem",
                                "dynamodb:DeleteItem", "dynamodb:ConditionCheckItem", "dynamodb:Query",
                                "dynamodb:BatchGetItem"))
                                && resourcesOf(s).contains(tableArn));
            }
        }
    }

    // ---- Tables ----

    @Test
    void everyTableMatchesItsCatalogDefinition() {
        template.resourceCountIs("AWS::DynamoDB::Table", Tables.ALL.size());
        for (TableDefinition definition : Tables.ALL) {
            Map<String, Object> resource = resources.get(logicalId(stack.tables().get(definition.logicalName())));
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
                        "Projection", Map.of("ProjectionType", "ALL")));
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
    }

    @Test
    void outputsTheApiUrlAndEveryTableName() {
        template.hasOutput("ApiUrl", Map.of());
        for (TableDefinition definition : Tables.ALL) {
            template.hasOutput(definition.logicalName() + "TableName", Map.of("Value",
                    Map.of("Ref", logicalId(stack.tables().get(definition.logicalName())))));
        }
    }

    // ---- Workflows ----

    @Test
    void stateMachinesRunTheCatalogAslWithStepArnsSubstituted() throws IOException {
        template.resourceCountIs("AWS::StepFunctions::StateMachine", Workflows.ALL.size());
        for (WorkflowDefinition workflow : Workflows.ALL) {
            Map<String, Object> p = props(resources.get(logicalId(stack.stateMachines().get(workflow.name()))));
            assertThat(p).containsEntry("StateMachineName", workflow.stateMachineName());
            assertThat(p.get("DefinitionString")).isEqualTo(workflow.asl());

            Map<String, Object> expected = new LinkedHashMap<>();
            for (WorkflowStep step : workflow.steps()) {
                expected.put(step.placeholder(), arnOf(functionId(step.functionName())));
            }
            assertThat(p.get("DefinitionSubstitutions")).isEqualTo(expected);

            // What Step Functions will run: the ASL with each placeholder replaced by a step ARN.
            Map<String, String> arns = workflow.steps().stream().collect(Collectors.toMap(
                    WorkflowStep::placeholder, s -> "arn:aws:lambda:us-east-1:123456789012:function:" + s.functionName()));
            String substituted = workflow.aslWith(arns);
            assertThat(substituted).doesNotContain("${");
            JsonNode definition = JSON.readTree(substituted);
            Set<String> taskResources = new HashSet<>();
            definition.findValues("Resource").forEach(r -> taskResources.add(r.asText()));
            assertThat(taskResources).isEqualTo(Set.copyOf(arns.values()));
            assertThat(JSON.readTree(workflow.asl()).get("StartAt")).isEqualTo(definition.get("StartAt"));
        }
    }

    @Test
    void stateMachinesMayInvokeTheirStepsOnly() {
        for (WorkflowDefinition workflow : Workflows.ALL) {
            StateMachineRole role = stateMachineRole(workflow);
            Set<Object> invokable = role.statements().stream()
                    .filter(s -> actions(s).contains("lambda:InvokeFunction"))
                    .flatMap(s -> resourcesOf(s).stream()).collect(Collectors.toSet());
            Set<Object> expected = new HashSet<>();
            for (WorkflowStep step : workflow.steps()) {
                expected.add(arnOf(functionId(step.functionName())));
            }
            // grantInvoke also allows the function's versions and aliases (ARN + ":*").
            assertThat(invokable).containsAll(expected);
            Set<String> referenced = invokable.stream().map(Object::toString).collect(Collectors.toSet());
            for (WorkflowStep other : Workflows.allSteps()) {
                if (!workflow.steps().contains(other)) {
                    assertThat(referenced).noneMatch(r -> r.contains(functionId(other.functionName())));
                }
            }
        }
    }

    // ---- Context ----

    @Test
    void contextTunesSettingsRemovalPolicyAndThrottling() throws IOException {
        Map<String, Object> context = new HashMap<>();
        context.put("removalPolicy", "destroy");
        context.put(GamefleetStack.contextKey(Settings.CLAIM_TTL_SECONDS), "30");
        context.put(GamefleetStack.contextKey(Settings.HEALTH_TIMEOUT_SECONDS), 90);
        context.put(GamefleetStack.CONTEXT_THROTTLE_BURST, 100);
        context.put(GamefleetStack.CONTEXT_THROTTLE_RATE, "50");
        Template tuned = Template.fromStack(stack(context));

        tuned.allResources("AWS::DynamoDB::Table", Map.of("DeletionPolicy", "Delete", "UpdateReplacePolicy", "Delete"));
        tuned.allResourcesProperties("AWS::Lambda::Function", Map.of("Environment", Map.of("Variables",
                Match.objectLike(Map.of(
                        Settings.CLAIM_TTL_SECONDS.environmentVariable(), "30",
                        Settings.HEALTH_TIMEOUT_SECONDS.environmentVariable(), "90",
                        Settings.DELETED_RETENTION_SECONDS.environmentVariable(),
                        Settings.DELETED_RETENTION_SECONDS.defaultValue())))));
        tuned.hasResourceProperties("AWS::ApiGatewayV2::Stage", Map.of("DefaultRouteSettings",
                Map.of("ThrottlingBurstLimit", 100, "ThrottlingRateLimit", 50)));
    }

    @Test
    void contextKeysFollowTheSettingNames() {
        assertThat(GamefleetStack.contextKey(Settings.CLAIM_TTL_SECONDS)).isEqualTo("claimTtlSeconds");
        assertThat(GamefleetStack.contextKey(Settings.HEALTH_TIMEOUT_SECONDS)).isEqualTo("healthTimeoutSeconds");
        assertThat(GamefleetStack.contextKey(Settings.DELETED_RETENTION_SECONDS)).isEqualTo("deletedRetentionSeconds");
    }

    @Test
    void badContextFailsSynthesis() {
        assertThatThrownBy(() -> stack(Map.of("removalPolicy", "snapshot")))
                .hasMessageContaining("removalPolicy");
        assertThatThrownBy(() -> stack(Map.of(GamefleetStack.contextKey(Settings.CLAIM_TTL_SECONDS), "soon")))
                .hasMessageContaining("claimTtlSeconds");
        assertThatThrownBy(() -> stack(Map.of("lambdaJar", temp.resolve("missing.jar").toString())))
                .hasMessageContaining("missing.jar");
    }

    @Test
    void defaultJarIsTheFunctionsShadedJar() {
        assertThat(GamefleetStack.defaultLambdaJar())
                .isEqualTo("../functions/target/gamefleet-functions-" + GamefleetStack.projectVersion() + "-lambda.jar")
                .doesNotContain("${");
    }

    // ---- helpers ----

    private GamefleetStack stack(Map<String, Object> context) throws IOException {
        // Any existing file will do as the code asset: synthesis only hashes and copies it.
        Path jar = temp.resolve("functions-lambda.jar");
        if (!Files.exists(jar)) {
            Files.write(jar, new byte[] {'P', 'K', 5, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        }
        Map<String, Object> all = new HashMap<>(context);
        all.putIfAbsent("lambdaJar", jar.toString());
        App app = new App(AppProps.builder().context(all).outdir(temp.resolve("cdk.out-" + all.hashCode()).toString())
                .build());
        return new GamefleetStack(app, "Gamefleet", StackProps.builder().build());
    }

    private String logicalId(software.constructs.IConstruct construct) {
        return stack.getLogicalId((CfnElement) construct.getNode().getDefaultChild());
    }

    private String functionId(String functionName) {
        return logicalId(stack.functions().get(functionName));
    }

    private static Map<String, Object> arnOf(String logicalId) {
        return Map.of("Fn::GetAtt", List.of(logicalId, "Arn"));
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

    private record StateMachineRole(String roleId, List<Map<String, Object>> statements) {}

    private StateMachineRole stateMachineRole(WorkflowDefinition workflow) {
        Map<String, Object> p = props(resources.get(logicalId(stack.stateMachines().get(workflow.name()))));
        List<Object> roleArn = cast(map(p.get("RoleArn")).get("Fn::GetAtt"));
        String roleId = (String) roleArn.get(0);
        return new StateMachineRole(roleId, statementsOfRole(roleId));
    }

    private List<Map<String, Object>> statementsOfRole(String roleId) {
        Map<String, Object> roleRef = Map.of("Ref", roleId);
        return ofType("AWS::IAM::Policy").values().stream()
                .map(GamefleetStackTest::props)
                .filter(p -> listOf(p.get("Roles")).contains(roleRef))
                .flatMap(p -> listOf(map(p.get("PolicyDocument")).get("Statement")).stream())
                .map(s -> GamefleetStackTest.<Map<String, Object>>cast(s))
                .toList();
    }

    private static List<String> actions(Map<String, Object> statement) {
        Object action = statement.get("Action");
        return action instanceof List<?> list ? list.stream().map(Object::toString).toList() : List.of(action.toString());
    }

    private static List<Object> resourcesOf(Map<String, Object> statement) {
        Object resource = statement.get("Resource");
        return resource instanceof List<?> list ? List.copyOf(list) : List.of(resource);
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

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }
}

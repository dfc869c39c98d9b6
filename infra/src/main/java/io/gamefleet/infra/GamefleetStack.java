package io.gamefleet.infra;

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
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.aws_apigatewayv2_authorizers.HttpIamAuthorizer;
import software.amazon.awscdk.aws_apigatewayv2_integrations.HttpLambdaIntegration;
import software.amazon.awscdk.services.apigatewayv2.AddRoutesOptions;
import software.amazon.awscdk.services.apigatewayv2.HttpApi;
import software.amazon.awscdk.services.apigatewayv2.HttpMethod;
import software.amazon.awscdk.services.apigatewayv2.HttpStage;
import software.amazon.awscdk.services.apigatewayv2.HttpStageOptions;
import software.amazon.awscdk.services.apigatewayv2.ThrottleSettings;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.BillingMode;
import software.amazon.awscdk.services.dynamodb.GlobalSecondaryIndexProps;
import software.amazon.awscdk.services.dynamodb.PointInTimeRecoverySpecification;
import software.amazon.awscdk.services.dynamodb.ProjectionType;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.stepfunctions.DefinitionBody;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.constructs.Construct;

/**
 * Every AWS resource of Gamefleet, built from the catalog ({@link Routes}, {@link Tables},
 * {@link Workflows}, {@link Settings}): nothing here names a route, a table, a key, a workflow step
 * or a setting default of its own.
 *
 * <p>Context values (cdk.json or {@code cdk synth -c key=value}):
 * <ul>
 *   <li>{@code lambdaJar}: the shaded functions jar; default
 *       {@code ../functions/target/gamefleet-functions-<version>-lambda.jar} (relative to the
 *       working directory, which is {@code infra/} when the CDK CLI runs the app);</li>
 *   <li>{@code removalPolicy}: {@code retain} (default) or {@code destroy}, for the tables;</li>
 *   <li>{@code apiThrottleBurstLimit}, {@code apiThrottleRateLimit}: the default stage's throttling;</li>
 *   <li>one key per {@link #CONTEXT_SETTINGS} entry, named by {@link #contextKey(Setting)}
 *       ({@code claimTtlSeconds}, {@code healthTimeoutSeconds}, ...), default the setting's default.</li>
 * </ul>
 *
 * <p>The stack is environment-agnostic and does no lookups: synthesis needs neither AWS
 * credentials nor a network.
 */
public final class GamefleetStack extends Stack {
    public static final String CONTEXT_LAMBDA_JAR = "lambdaJar";
    public static final String CONTEXT_REMOVAL_POLICY = "removalPolicy";
    public static final String CONTEXT_THROTTLE_BURST = "apiThrottleBurstLimit";
    public static final String CONTEXT_THROTTLE_RATE = "apiThrottleRateLimit";
    static final int DEFAULT_THROTTLE_BURST = 40;
    static final int DEFAULT_THROTTLE_RATE = 20;

    static final int MEMORY_MB = 1024;
    static final Duration API_TIMEOUT = Duration.seconds(30);
    static final Duration STEP_TIMEOUT = Duration.seconds(60);

    /**
     * The settings a deployer tunes through context values. Not here: the account id (from the
     * stack), the state machine ARNs (from the workflows), and the page-token HMAC key, which is a
     * secret and must not travel as a plain context value or environment variable (the security
     * issue moves it to a secret; until then the functions use their built-in default).
     */
    public static final List<Setting> CONTEXT_SETTINGS = List.of(Settings.CLAIM_TTL_SECONDS,
            Settings.HEALTH_TIMEOUT_SECONDS, Settings.DELETED_RETENTION_SECONDS,
            Settings.ACTIVATION_TIMEOUT_SECONDS);

    /** The API operations that start a workflow, and which one each starts. */
    static final Map<Route, WorkflowDefinition> WORKFLOW_STARTERS = Map.of(
            Routes.byOperation("CreateGameServerGroup"), Workflows.ACTIVATION,
            Routes.byOperation("DeleteGameServerGroup"), Workflows.DELETION);

    /** What creating, scaling, protecting and deleting a group's Auto Scaling group needs. */
    static final List<String> SCALING_ACTIONS = List.of(
            "autoscaling:CreateAutoScalingGroup",
            "autoscaling:DescribeAutoScalingGroups",
            "autoscaling:UpdateAutoScalingGroup",
            "autoscaling:DeleteAutoScalingGroup",
            "autoscaling:SetDesiredCapacity",
            "autoscaling:SetInstanceProtection",
            "autoscaling:TerminateInstanceInAutoScalingGroup",
            "autoscaling:PutScalingPolicy",
            "autoscaling:CreateOrUpdateTags",
            // CreateAutoScalingGroup with a launch template is authorized against the caller too:
            "ec2:RunInstances",
            "ec2:CreateTags",
            "ec2:DescribeLaunchTemplateVersions");

    private final Map<String, Table> tables = new LinkedHashMap<>();
    private final Map<String, Function> functions = new LinkedHashMap<>();
    private final Map<String, StateMachine> stateMachines = new LinkedHashMap<>();
    private final HttpApi api;
    private final HttpStage stage;

    public GamefleetStack(Construct scope, String id, StackProps props) {
        super(scope, id, props);

        RemovalPolicy removalPolicy = removalPolicy();
        for (TableDefinition definition : Tables.ALL) {
            tables.put(definition.logicalName(), table(definition, removalPolicy));
        }

        // One asset for every function: the shaded jar holds all handlers.
        Code code = Code.fromAsset(lambdaJar().toString());
        Map<String, String> environment = commonEnvironment();

        // Workflow steps first: the state machines name them, and the API functions name the
        // state machines. Nothing points back (steps never start workflows), so no cycle.
        Map<WorkflowStep, Function> stepFunctions = new LinkedHashMap<>();
        for (WorkflowStep step : Workflows.allSteps()) {
            Function fn = function(step.name() + "Function", step.functionName(), step.handlerMethod(),
                    STEP_TIMEOUT, code, environment);
            fn.addToRolePolicy(PolicyStatement.Builder.create()
                    .sid("ManageScalingGroups")
                    .effect(Effect.ALLOW)
                    .actions(SCALING_ACTIONS)
                    // Resource-level scoping (tag conditions on Catalog.MANAGED_TAG_KEY) is the
                    // security issue's; CreateAutoScalingGroup cannot be scoped by ARN anyway.
                    .resources(List.of("*"))
                    .build());
            fn.addToRolePolicy(PolicyStatement.Builder.create()
                    .sid("PassInstanceRoleToEc2")
                    .effect(Effect.ALLOW)
                    .actions(List.of("iam:PassRole"))
                    .resources(List.of("*"))
                    .conditions(Map.of("StringEquals", Map.of("iam:PassedToService", "ec2.amazonaws.com")))
                    .build());
            fn.addToRolePolicy(PolicyStatement.Builder.create()
                    .sid("CreateAutoScalingServiceLinkedRole")
                    .effect(Effect.ALLOW)
                    .actions(List.of("iam:CreateServiceLinkedRole"))
                    .resources(List.of("*"))
                    .conditions(Map.of("StringEquals", Map.of("iam:AWSServiceName", "autoscaling.amazonaws.com")))
                    .build());
            stepFunctions.put(step, fn);
            functions.put(step.functionName(), fn);
        }

        for (WorkflowDefinition workflow : Workflows.ALL) {
            Map<String, String> substitutions = new LinkedHashMap<>();
            for (WorkflowStep step : workflow.steps()) {
                substitutions.put(step.placeholder(), stepFunctions.get(step).getFunctionArn());
            }
            // The ASL file's text as shipped in the functions jar (the file the local profile runs);
            // fromString keeps it byte for byte, with the placeholders left to Step Functions.
            StateMachine stateMachine = StateMachine.Builder.create(this, workflow.name() + "StateMachine")
                    .stateMachineName(workflow.stateMachineName())
                    .definitionBody(DefinitionBody.fromString(workflow.asl()))
                    .definitionSubstitutions(substitutions)
                    .build();
            for (WorkflowStep step : workflow.steps()) {
                stepFunctions.get(step).grantInvoke(stateMachine);
            }
            stateMachines.put(workflow.name(), stateMachine);
        }

        api = HttpApi.Builder.create(this, "Api")
                .apiName("gamefleet")
                .description("Gamefleet: FleetIQ-style game server management (SigV4, service execute-api)")
                .defaultAuthorizer(new HttpIamAuthorizer())
                .createDefaultStage(false)
                .build();
        stage = api.addStage("DefaultStage", HttpStageOptions.builder()
                .stageName("$default")
                .autoDeploy(true)
                .throttle(ThrottleSettings.builder()
                        .burstLimit(intContext(CONTEXT_THROTTLE_BURST, DEFAULT_THROTTLE_BURST))
                        .rateLimit(intContext(CONTEXT_THROTTLE_RATE, DEFAULT_THROTTLE_RATE))
                        .build())
                .build());

        HttpIamAuthorizer iam = new HttpIamAuthorizer();
        for (Route route : Routes.ALL) {
            Map<String, String> env = new LinkedHashMap<>(environment);
            WorkflowDefinition started = WORKFLOW_STARTERS.get(route);
            if (started != null) {
                env.put(started.arnSetting().environmentVariable(),
                        stateMachines.get(started.name()).getStateMachineArn());
            }
            Function fn = function(route.operation() + "Function", route.functionName(), route.handlerMethod(),
                    API_TIMEOUT, code, env);
            if (started != null) {
                stateMachines.get(started.name()).grantStartExecution(fn);
            }
            functions.put(route.functionName(), fn);
            api.addRoutes(AddRoutesOptions.builder()
                    .path(route.path())
                    .methods(List.of(HttpMethod.valueOf(route.method())))
                    .integration(new HttpLambdaIntegration(route.operation() + "Integration", fn))
                    .authorizer(iam)
                    .build());
        }

        CfnOutput.Builder.create(this, "ApiUrl").value(stage.getUrl())
                .description("Base URL of the Gamefleet HTTP API (SigV4-signed requests, service execute-api)")
                .build();
        tables.forEach((name, table) -> CfnOutput.Builder.create(this, name + "TableName")
                .value(table.getTableName())
                .description("Physical name of the " + name + " table")
                .build());
    }

    public Map<String, Table> tables() {
        return Map.copyOf(tables);
    }

    public Map<String, Function> functions() {
        return Map.copyOf(functions);
    }

    public Map<String, StateMachine> stateMachines() {
        return Map.copyOf(stateMachines);
    }

    public HttpApi api() {
        return api;
    }

    /** The context key of a setting: its variable without GAMEFLEET_, in lower camel case. */
    public static String contextKey(Setting setting) {
        String[] words = setting.environmentVariable().replaceFirst("^GAMEFLEET_", "")
                .toLowerCase(Locale.ROOT).split("_");
        StringBuilder key = new StringBuilder(words[0]);
        for (int i = 1; i < words.length; i++) {
            key.append(Character.toUpperCase(words[i].charAt(0))).append(words[i].substring(1));
        }
        return key.toString();
    }

    private Table table(TableDefinition definition, RemovalPolicy removalPolicy) {
        // No physical tableName: CloudFormation generates one, passed to the functions through
        // the definition's environment variable.
        Table.Builder builder = Table.Builder.create(this, definition.logicalName())
                .partitionKey(attribute(definition.partitionKey()))
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .pointInTimeRecoverySpecification(PointInTimeRecoverySpecification.builder()
                        .pointInTimeRecoveryEnabled(true).build())
                .removalPolicy(removalPolicy);
        definition.sortKey().ifPresent(k -> builder.sortKey(attribute(k)));
        definition.ttlAttribute().ifPresent(builder::timeToLiveAttribute);
        Table table = builder.build();
        for (IndexDefinition index : definition.indexes()) {
            GlobalSecondaryIndexProps.Builder gsi = GlobalSecondaryIndexProps.builder()
                    .indexName(index.name())
                    .partitionKey(attribute(index.partitionKey()))
                    .projectionType(ProjectionType.ALL);
            if (index.sortKey() != null) {
                gsi.sortKey(attribute(index.sortKey()));
            }
            table.addGlobalSecondaryIndex(gsi.build());
        }
        return table;
    }

    private static Attribute attribute(KeyAttribute key) {
        AttributeType type = switch (key.type()) {
            case "S" -> AttributeType.STRING;
            case "N" -> AttributeType.NUMBER;
            case "B" -> AttributeType.BINARY;
            default -> throw new IllegalArgumentException("unknown key type " + key.type() + " of " + key.name());
        };
        return Attribute.builder().name(key.name()).type(type).build();
    }

    /**
     * A function under the catalog's name. Explicit names are unique per account and region, so
     * one account/region holds one Gamefleet deployment (a stage prefix would have to go into the
     * catalog, which the local profile shares).
     */
    private Function function(String id, String name, String handler, Duration timeout, Code code,
            Map<String, String> environment) {
        Function fn = Function.Builder.create(this, id)
                .functionName(name)
                .runtime(Runtime.JAVA_21)
                .handler(handler)
                .code(code)
                .memorySize(MEMORY_MB)
                .timeout(timeout)
                .environment(environment)
                .build();
        // Every function gets read/write on every table for now; per-function least privilege
        // (only the tables and actions each handler uses) is the security issue's.
        tables.values().forEach(t -> t.grantReadWriteData(fn));
        return fn;
    }

    private Map<String, String> commonEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        for (TableDefinition definition : Tables.ALL) {
            env.put(definition.environmentVariable(), tables.get(definition.logicalName()).getTableName());
        }
        env.put(Settings.ACCOUNT_ID.environmentVariable(), Stack.of(this).getAccount());
        for (Setting setting : CONTEXT_SETTINGS) {
            String value = stringContext(contextKey(setting), setting.defaultValue());
            try {
                Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("context " + contextKey(setting)
                        + " must be a whole number of seconds, not " + value, e);
            }
            env.put(setting.environmentVariable(), value);
        }
        return env;
    }

    private RemovalPolicy removalPolicy() {
        String value = stringContext(CONTEXT_REMOVAL_POLICY, "retain").toLowerCase(Locale.ROOT);
        return switch (value) {
            case "retain" -> RemovalPolicy.RETAIN;
            case "destroy" -> RemovalPolicy.DESTROY;
            default -> throw new IllegalArgumentException(
                    "context " + CONTEXT_REMOVAL_POLICY + " must be retain or destroy, not " + value);
        };
    }

    private Path lambdaJar() {
        String configured = stringContext(CONTEXT_LAMBDA_JAR, defaultLambdaJar());
        Path jar = Path.of(configured).toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("Lambda jar " + jar + " does not exist: build it with "
                    + "'mvn -pl functions -am install -DskipTests' from the repository root, or pass "
                    + "-c " + CONTEXT_LAMBDA_JAR + "=<path>");
        }
        return jar;
    }

    static String defaultLambdaJar() {
        return "../functions/target/gamefleet-functions-" + projectVersion() + "-lambda.jar";
    }

    static String projectVersion() {
        try (InputStream in = GamefleetStack.class.getResourceAsStream("build.properties")) {
            if (in == null) {
                throw new IllegalStateException("build.properties missing from the infra classpath");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String stringContext(String key, String defaultValue) {
        Object value = getNode().tryGetContext(key);
        return value == null || String.valueOf(value).isBlank() ? defaultValue : String.valueOf(value).trim();
    }

    private int intContext(String key, int defaultValue) {
        String value = stringContext(key, Integer.toString(defaultValue));
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("context " + key + " must be a whole number, not " + value, e);
        }
    }
}

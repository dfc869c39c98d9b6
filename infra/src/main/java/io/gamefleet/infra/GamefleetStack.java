package io.gamefleet.infra;

import io.gamefleet.catalog.FunctionAccess;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.catalog.EventRule;
import io.gamefleet.catalog.IndexDefinition;
import io.gamefleet.catalog.KeyAttribute;
import io.gamefleet.catalog.Role;
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
import io.gamefleet.catalog.FunctionAccess.Access;
import io.gamefleet.catalog.FunctionAccess.TableAccess;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.aws_apigatewayv2_authorizers.HttpIamAuthorizer;
import software.amazon.awscdk.aws_apigatewayv2_integrations.HttpLambdaIntegration;
import software.amazon.awscdk.services.apigateway.AccessLogFormat;
import software.amazon.awscdk.services.apigatewayv2.AddRoutesOptions;
import software.amazon.awscdk.services.apigatewayv2.HttpApi;
import software.amazon.awscdk.services.apigatewayv2.HttpMethod;
import software.amazon.awscdk.services.apigatewayv2.HttpStage;
import software.amazon.awscdk.services.apigatewayv2.HttpStageOptions;
import software.amazon.awscdk.services.apigatewayv2.IAccessLogDestination;
import software.amazon.awscdk.services.apigatewayv2.IAccessLogSettings;
import software.amazon.awscdk.services.apigatewayv2.LogGroupLogDestination;
import software.amazon.awscdk.services.apigatewayv2.ThrottleSettings;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.BillingMode;
import software.amazon.awscdk.services.dynamodb.GlobalSecondaryIndexProps;
import software.amazon.awscdk.services.dynamodb.PointInTimeRecoverySpecification;
import software.amazon.awscdk.services.dynamodb.ProjectionType;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.events.CfnRule;
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.ManagedPolicy;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.Permission;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.lambda.SnapStartConf;
import software.amazon.awscdk.services.lambda.VersionOptions;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.amazon.awscdk.services.scheduler.ScheduleExpression;
import software.amazon.awscdk.services.scheduler.targets.LambdaInvoke;
import software.amazon.awscdk.services.secretsmanager.Secret;
import software.amazon.awscdk.services.secretsmanager.SecretStringGenerator;
import software.amazon.awscdk.services.stepfunctions.DefinitionBody;
import software.amazon.awscdk.services.stepfunctions.LogLevel;
import software.amazon.awscdk.services.stepfunctions.LogOptions;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.constructs.Construct;

/**
 * Every AWS resource of Gamefleet, built from the catalog: {@link Routes}, {@link Tables},
 * {@link Workflows}, {@link Triggers} and {@link Settings}. Nothing here names a route, a table, a
 * key, a workflow step, a schedule, an event pattern or a setting default of its own; what each
 * function may do with the tables and with Auto Scaling comes from {@link FunctionAccess}.
 *
 * <p>Context values are read and checked by {@link DeploymentContext}; the README's "Deploying"
 * section lists them. The stack is environment-agnostic and does no lookups: synthesis needs
 * neither AWS credentials nor a network.
 */
public final class GamefleetStack extends Stack {
    /** The alias every caller invokes (API Gateway, Step Functions, Scheduler, EventBridge). */
    public static final String LIVE_ALIAS = "live";
    /** The HTTP API's only stage. */
    public static final String STAGE = "$default";

    /** How long a function of each kind may run; every function has {@link #MEMORY_MB}. */
    enum Kind {
        /** Below the HTTP API's 30-second integration limit: a stuck call ends (and is logged) in the function. */
        API(Duration.seconds(20)),
        STEP(Duration.seconds(60)),
        /** The default; a scheduled function gets its schedule's period instead (see {@link #scheduledTimeout}). */
        SCHEDULED(Duration.seconds(60)),
        EVENT(Duration.seconds(60));

        final Duration timeout;

        Kind(Duration timeout) {
            this.timeout = timeout;
        }
    }

    /** CPU scales with memory: 1 GB keeps Java's start and the SDK's first calls quick. */
    static final int MEMORY_MB = 1024;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final DeploymentContext context;
    private final Map<Setting, String> settings;
    private final RetentionDays logRetention;
    private final Map<String, Table> tables = new LinkedHashMap<>();
    private final Map<String, Function> functions = new LinkedHashMap<>();
    private final Map<String, Alias> aliases = new LinkedHashMap<>();
    private final Map<String, LogGroup> logGroups = new LinkedHashMap<>();
    private final Map<String, StateMachine> stateMachines = new LinkedHashMap<>();
    private final Map<String, software.amazon.awscdk.services.scheduler.Schedule> schedules = new LinkedHashMap<>();
    private final Map<String, CfnRule> eventRules = new LinkedHashMap<>();
    private final Map<Role, ManagedPolicy> callerPolicies = new EnumMap<>(Role.class);
    private final Secret pageTokenKey;
    private final Monitoring monitoring;
    private final HttpApi api;
    private final HttpStage stage;

    public GamefleetStack(Construct scope, String id, StackProps props) {
        super(scope, id, props);
        context = new DeploymentContext(getNode());
        settings = context.settings();
        logRetention = context.logRetention();
        RemovalPolicy removalPolicy = context.removalPolicy();
        monitoring = new Monitoring(this, "Monitoring", context.alarmEmail());

        for (TableDefinition definition : Tables.ALL) {
            Table table = table(definition, removalPolicy);
            tables.put(definition.logicalName(), table);
            monitoring.tableAlarm(definition, table);
        }

        // Signs pagination tokens (API.md: a token the service did not issue is a 400). Generated
        // by Secrets Manager at deployment, so no two deployments share it and it is in no file;
        // the functions receive it through a dynamic reference that CloudFormation resolves.
        pageTokenKey = Secret.Builder.create(this, "PageTokenKey")
                .description("HMAC key that signs Gamefleet pagination tokens")
                .generateSecretString(SecretStringGenerator.builder().passwordLength(64).excludePunctuation(true)
                        .build())
                .removalPolicy(RemovalPolicy.DESTROY)
                .build();

        // One asset for every function: the shaded jar holds all handlers.
        Code code = Code.fromAsset(context.lambdaJar().toString());
        Map<String, String> environment = commonEnvironment();

        // Workflow steps first: the state machines name them, and the API functions name the
        // state machines. Nothing points back (steps never start workflows), so no cycle.
        for (WorkflowStep step : Workflows.allSteps()) {
            function(step.name(), step.functionName(), step.handlerMethod(), Kind.STEP, Kind.STEP.timeout, code,
                    environment);
        }
        for (WorkflowDefinition workflow : Workflows.ALL) {
            stateMachines.put(workflow.name(), stateMachine(workflow));
        }

        for (Schedule schedule : Triggers.SCHEDULES) {
            long minutes = Long.parseLong(settings.get(schedule.rate())) / 60; // rounded to minutes by DeploymentContext
            function(schedule.name(), schedule.functionName(), schedule.handlerMethod(), Kind.SCHEDULED,
                    scheduledTimeout(minutes), code, environment);
            schedules.put(schedule.name(), schedule(schedule, minutes));
        }
        for (EventRule rule : Triggers.EVENT_RULES) {
            function(rule.name(), rule.functionName(), rule.handlerMethod(), Kind.EVENT, Kind.EVENT.timeout, code,
                    environment);
            eventRules.put(rule.name(), eventRule(rule));
        }

        LogGroup accessLogs = logGroup("ApiAccessLogs", "/" + getStackName() + "/api/access");
        api = HttpApi.Builder.create(this, "Api")
                .apiName(getStackName())
                .description("Gamefleet: FleetIQ-style game server management (SigV4, service execute-api)")
                .defaultAuthorizer(new HttpIamAuthorizer())
                .createDefaultStage(false)
                .build();
        stage = api.addStage("DefaultStage", HttpStageOptions.builder()
                .stageName(STAGE)
                .autoDeploy(true)
                .throttle(ThrottleSettings.builder()
                        .burstLimit(context.throttleBurst())
                        .rateLimit(context.throttleRate())
                        .build())
                .accessLogSettings(accessLogSettings(accessLogs))
                .build());

        Map<String, String> apiEnvironment = new LinkedHashMap<>(environment);
        apiEnvironment.put(Settings.PAGE_TOKEN_KEY.environmentVariable(),
                pageTokenKey.getSecretValue().unsafeUnwrap());
        HttpIamAuthorizer iam = new HttpIamAuthorizer();
        for (Route route : Routes.ALL) {
            Map<String, String> env = new LinkedHashMap<>(apiEnvironment);
            Optional<WorkflowDefinition> started = Workflows.startedBy(route);
            started.ifPresent(w -> env.put(w.arnSetting().environmentVariable(),
                    stateMachines.get(w.name()).getStateMachineArn()));
            Function fn = function(route.operation().fleetIqName(), route.functionName(), route.handlerMethod(), Kind.API,
                    Kind.API.timeout, code, env);
            started.ifPresent(w -> stateMachines.get(w.name()).grantStartExecution(fn));
            api.addRoutes(AddRoutesOptions.builder()
                    .path(route.path())
                    .methods(List.of(HttpMethod.valueOf(route.method())))
                    .integration(new HttpLambdaIntegration(route.operation() + "Integration",
                            aliases.get(route.functionName())))
                    .authorizer(iam)
                    .build());
        }

        for (Role role : Role.values()) {
            callerPolicies.put(role, callerPolicy(role));
        }

        monitoring.functionAlarms(functions);
        monitoring.apiAlarm(api);
        for (WorkflowDefinition workflow : Workflows.ALL) {
            monitoring.stateMachineAlarm(workflow.stateMachineName(), stateMachines.get(workflow.name()));
        }
        monitoring.dashboard(getStackName(), api, functions, stateMachines, tables);

        outputs();
        NagRules.suppress(this);
    }

    // ---- accessors (tests, NagRules) ----

    public Map<String, Table> tables() {
        return Map.copyOf(tables);
    }

    public Map<String, Function> functions() {
        return Map.copyOf(functions);
    }

    public Map<String, Alias> aliases() {
        return Map.copyOf(aliases);
    }

    public Map<String, StateMachine> stateMachines() {
        return Map.copyOf(stateMachines);
    }

    public Map<String, software.amazon.awscdk.services.scheduler.Schedule> schedules() {
        return Map.copyOf(schedules);
    }

    public Map<String, CfnRule> eventRules() {
        return Map.copyOf(eventRules);
    }

    public Map<Role, ManagedPolicy> callerPolicies() {
        return Map.copyOf(callerPolicies);
    }

    public HttpApi api() {
        return api;
    }

    public Map<String, LogGroup> functionLogGroups() {
        return Map.copyOf(logGroups);
    }

    Monitoring monitoring() {
        return monitoring;
    }

    Secret pageTokenKey() {
        return pageTokenKey;
    }

    /** The context key of a setting (see {@link DeploymentContext#contextKey}). */
    public static String contextKey(Setting setting) {
        return DeploymentContext.contextKey(setting);
    }

    /**
     * The execute-api resource of a route, as IAM matches it: path parameters become {@code *}
     * ({@code POST /game-server-groups/{GameServerGroupName}/claim} becomes
     * {@code .../$default/POST/game-server-groups/* /claim}).
     */
    public static String routeResourcePath(Route route) {
        return route.path().replaceAll("\\{[^/}]+}", "*");
    }

    // ---- tables ----

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

    // ---- functions ----

    /**
     * A function under the catalog's name, with its own role (only its log group, tables and
     * actions), its own log group, SnapStart on published versions, and the alias {@value #LIVE_ALIAS}
     * on the current version, which is what every caller invokes. Explicit names are unique per
     * account and region, so one account/region holds one Gamefleet deployment (a stage prefix
     * would have to go into the catalog, which the local profile shares).
     */
    private Function function(String id, String name, String handler, Kind kind, Duration timeout, Code code,
            Map<String, String> environment) {
        Access access = FunctionAccess.of(name);
        LogGroup logs = logGroup(id + "FunctionLogs", "/" + getStackName() + "/lambda/" + name);
        software.amazon.awscdk.services.iam.Role role = software.amazon.awscdk.services.iam.Role.Builder
                .create(this, id + "Role")
                .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
                .description("Gamefleet function " + name + " (" + kind.name().toLowerCase(Locale.ROOT) + ")")
                .build();
        logs.grantWrite(role);
        Function fn = Function.Builder.create(this, id + "Function")
                .functionName(name)
                .description("Gamefleet " + kind.name().toLowerCase(Locale.ROOT) + ": " + handler)
                .runtime(Runtime.JAVA_21)
                .architecture(Architecture.ARM_64)
                .handler(handler)
                .code(code)
                .memorySize(MEMORY_MB)
                .timeout(timeout)
                .environment(environment)
                .role(role)
                .logGroup(logs)
                .snapStart(SnapStartConf.ON_PUBLISHED_VERSIONS)
                // Versions are replaced on every change; keeping old ones would only pile up code storage.
                .currentVersionOptions(VersionOptions.builder().removalPolicy(RemovalPolicy.DESTROY).build())
                .build();
        // Acknowledged: the function is published (currentVersion) and only ever invoked through the alias.
        software.amazon.awscdk.Annotations.of(fn).acknowledgeWarning("@aws-cdk/aws-lambda:snapStartRequirePublish",
                "every function publishes its current version, and callers invoke the live alias on it");
        grantTables(role, access);
        ScalingPermissions.statements(this, access.scaling()).forEach(role::addToPrincipalPolicy);

        Alias.Builder alias = Alias.Builder.create(this, id + "Live")
                .aliasName(LIVE_ALIAS)
                .version(fn.getCurrentVersion());
        if (kind == Kind.SCHEDULED) {
            // A failed balancer run is not retried: the next scheduled run does the same work.
            alias.retryAttempts(0).maxEventAge(Duration.seconds(Math.max(60, timeout.toSeconds().longValue())));
        }
        functions.put(name, fn);
        aliases.put(name, alias.build());
        logGroups.put(name, logs);
        return fn;
    }

    /** One run must end before the next one starts: the period, within Lambda's 15 minutes. */
    static Duration scheduledTimeout(long minutes) {
        return Duration.minutes(Math.min(minutes, 15));
    }

    /** Item actions on the table's ARN; queries of an index on that index's ARN only. */
    private void grantTables(software.amazon.awscdk.services.iam.Role role, Access access) {
        for (TableAccess grant : access.tables()) {
            Table table = tables.get(grant.table().logicalName());
            String sid = grant.table().logicalName();
            if (!grant.actions().isEmpty()) {
                role.addToPrincipalPolicy(PolicyStatement.Builder.create()
                        .sid(sid + "Items")
                        .effect(Effect.ALLOW)
                        .actions(grant.actions().stream().sorted().map(a -> "dynamodb:" + a).toList())
                        .resources(List.of(table.getTableArn()))
                        .build());
            }
            if (!grant.queriedIndexes().isEmpty()) {
                role.addToPrincipalPolicy(PolicyStatement.Builder.create()
                        .sid(sid + "Indexes")
                        .effect(Effect.ALLOW)
                        .actions(List.of("dynamodb:Query"))
                        .resources(grant.queriedIndexes().stream().sorted()
                                .map(index -> table.getTableArn() + "/index/" + index).toList())
                        .build());
            }
        }
    }

    /** Table names, the account and the context settings: what every function's Services reads. */
    private Map<String, String> commonEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        for (TableDefinition definition : Tables.ALL) {
            env.put(definition.environmentVariable(), tables.get(definition.logicalName()).getTableName());
        }
        env.put(Settings.ACCOUNT_ID.environmentVariable(), getAccount());
        settings.forEach((setting, value) -> env.put(setting.environmentVariable(), value));
        return env;
    }

    /** Named after the stack (not /aws/lambda/...) and deleted with it: a redeployment never collides. */
    private LogGroup logGroup(String id, String name) {
        return LogGroup.Builder.create(this, id)
                .logGroupName(name)
                .retention(logRetention)
                .removalPolicy(RemovalPolicy.DESTROY)
                .build();
    }

    // ---- workflows ----

    private StateMachine stateMachine(WorkflowDefinition workflow) {
        Map<String, String> substitutions = new LinkedHashMap<>();
        for (WorkflowStep step : workflow.steps()) {
            substitutions.put(step.placeholder(), aliases.get(step.functionName()).getFunctionArn());
        }
        // Step Functions' own prefix for vended logs keeps CloudWatch Logs' resource policy small.
        LogGroup logs = logGroup(workflow.name() + "StateMachineLogs",
                "/aws/vendedlogs/states/" + getStackName() + "/" + workflow.stateMachineName());
        // The ASL file's text as shipped in the functions jar (the file the local profile runs);
        // fromString keeps it byte for byte, with the placeholders left to Step Functions.
        StateMachine stateMachine = StateMachine.Builder.create(this, workflow.name() + "StateMachine")
                .stateMachineName(workflow.stateMachineName())
                .definitionBody(DefinitionBody.fromString(workflow.asl()))
                .definitionSubstitutions(substitutions)
                .logs(LogOptions.builder().destination(logs).level(LogLevel.ALL).includeExecutionData(true).build())
                .tracingEnabled(true)
                .build();
        for (WorkflowStep step : workflow.steps()) {
            aliases.get(step.functionName()).grantInvoke(stateMachine);
        }
        return stateMachine;
    }

    // ---- triggers ----

    private software.amazon.awscdk.services.scheduler.Schedule schedule(Schedule schedule, long minutes) {
        return software.amazon.awscdk.services.scheduler.Schedule.Builder.create(this, schedule.name() + "Schedule")
                .scheduleName(schedule.functionName())
                .description("Runs " + schedule.functionName() + " every " + minutes + " minute(s) ("
                        + contextKey(schedule.rate()) + " rounded up to whole minutes)")
                .schedule(ScheduleExpression.rate(Duration.minutes(minutes)))
                .target(LambdaInvoke.Builder.create(aliases.get(schedule.functionName()))
                        // Missed runs are not made up: the next run does the same work.
                        .retryAttempts(0)
                        .maxEventAge(Duration.minutes(1))
                        .build())
                .build();
    }

    /** The pattern is the catalog's JSON, parsed as is (the local profile's event router reads the same text). */
    private CfnRule eventRule(EventRule rule) {
        Map<String, Object> pattern;
        try {
            pattern = JSON.readValue(rule.pattern(), new TypeReference<Map<String, Object>>() {});
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the event pattern of " + rule.name() + " is not JSON", e);
        }
        Alias target = aliases.get(rule.functionName());
        CfnRule cfnRule = CfnRule.Builder.create(this, rule.name() + "Rule")
                .name(rule.functionName())
                .description("Routes the catalog's events to " + rule.functionName())
                .state("ENABLED")
                .eventPattern(pattern)
                .targets(List.of(CfnRule.TargetProperty.builder().id(rule.name()).arn(target.getFunctionArn()).build()))
                .build();
        target.addPermission(rule.name() + "Events", Permission.builder()
                .principal(new ServicePrincipal("events.amazonaws.com"))
                .sourceArn(cfnRule.getAttrArn())
                .sourceAccount(getAccount())
                .build());
        return cfnRule;
    }

    // ---- API ----

    private static IAccessLogSettings accessLogSettings(LogGroup logs) {
        LogGroupLogDestination destination = new LogGroupLogDestination(logs);
        // $context.identity.userArn names the caller (an instance-profile session names its instance).
        String format = "{\"requestId\":\"$context.requestId\",\"time\":\"$context.requestTime\","
                + "\"ip\":\"$context.identity.sourceIp\",\"caller\":\"$context.identity.userArn\","
                + "\"routeKey\":\"$context.routeKey\",\"path\":\"$context.path\",\"status\":\"$context.status\","
                + "\"responseLength\":\"$context.responseLength\",\"latency\":\"$context.responseLatency\","
                + "\"integrationLatency\":\"$context.integrationLatency\","
                + "\"integrationError\":\"$context.integrationErrorMessage\",\"error\":\"$context.error.message\"}";
        return new IAccessLogSettings() {
            @Override
            public IAccessLogDestination getDestination() {
                return destination;
            }

            @Override
            public AccessLogFormat getFormat() {
                return AccessLogFormat.custom(format);
            }
        };
    }

    /** execute-api:Invoke on exactly the routes whose catalog roles include this one. */
    private ManagedPolicy callerPolicy(Role role) {
        List<String> resources = new ArrayList<>();
        for (Route route : Routes.ALL) {
            if (route.roles().contains(role)) {
                resources.add(api.arnForExecuteApi(route.method(), routeResourcePath(route), STAGE));
            }
        }
        String title = title(role);
        return ManagedPolicy.Builder.create(this, title + "CallerPolicy")
                .description("Gamefleet " + role + " callers: execute-api:Invoke on their " + resources.size()
                        + " routes of API " + getStackName())
                .statements(List.of(PolicyStatement.Builder.create()
                        .sid("Invoke" + title + "Routes")
                        .effect(Effect.ALLOW)
                        .actions(List.of("execute-api:Invoke"))
                        .resources(resources)
                        .build()))
                .build();
    }

    /** GAME_SERVER as GameServer. */
    static String title(Role role) {
        StringBuilder out = new StringBuilder();
        for (String word : role.name().toLowerCase(Locale.ROOT).split("_")) {
            out.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
        }
        return out.toString();
    }

    // ---- outputs ----

    private void outputs() {
        CfnOutput.Builder.create(this, "ApiUrl").value(stage.getUrl())
                .description("Base URL of the Gamefleet HTTP API (SigV4-signed requests, service execute-api)")
                .build();
        callerPolicies.forEach((role, policy) -> CfnOutput.Builder.create(this, title(role) + "PolicyArn")
                .value(policy.getManagedPolicyArn())
                .description("Attach to the IAM roles or users of " + role + " callers")
                .build());
        tables.forEach((name, table) -> CfnOutput.Builder.create(this, name + "TableName")
                .value(table.getTableName())
                .description("Physical name of the " + name + " table")
                .build());
        CfnOutput.Builder.create(this, "AlarmTopicArn").value(monitoring.topic().getTopicArn())
                .description("Every Gamefleet alarm notifies this SNS topic: subscribe to it")
                .build();
    }
}

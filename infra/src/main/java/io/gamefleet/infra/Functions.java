package io.gamefleet.infra;

import io.gamefleet.catalog.FunctionAccess;
import io.gamefleet.catalog.EventRule;
import io.gamefleet.catalog.ExtensionRoute;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import io.gamefleet.catalog.Schedule;
import io.gamefleet.catalog.Settings;
import io.gamefleet.catalog.Triggers;
import io.gamefleet.catalog.WorkflowStep;
import io.gamefleet.catalog.Workflows;
import io.gamefleet.catalog.FunctionAccess.Access;
import io.gamefleet.catalog.FunctionAccess.TableAccess;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.CfnMapping;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.lambda.Tracing;
import software.amazon.awscdk.services.lambda.CfnFunction;
import software.amazon.awscdk.services.lambda.VersionOptions;
import software.amazon.awscdk.services.logs.LogGroup;
import software.constructs.Construct;

/**
 * One Lambda function per operation, workflow step, schedule, event rule and push channel route of
 * the catalog, and the JSON door's, all from
 * one asset (the shaded jar holds every handler). Each has its own role: its log group, and what
 * {@link FunctionAccess} declares for the tables and for Auto Scaling ({@link ScalingPermissions}).
 */
final class Functions extends Construct {
    /** The alias every caller invokes (API Gateway, Step Functions, Scheduler, EventBridge). */
    static final String LIVE_ALIAS = "live";
    /** CPU scales with memory: 1 GB keeps Java's start and the SDK's first calls quick. */
    static final int MEMORY_MB = 1024;

    /** Below the HTTP API's 30-second integration limit: a stuck call ends (and is logged) in the function. */
    static final Duration API_TIMEOUT = Duration.seconds(20);
    /** Workflow steps and event handlers; a scheduled function gets its period ({@link #scheduledTimeout}). */
    static final Duration TIMEOUT = Duration.seconds(60);

    /** What invokes a function (named in its description and its role's). */
    private enum Kind { API, STEP, SCHEDULED, EVENT, PUSH }

    private final DeploymentContext context;
    private final DataStores data;
    private final Code code;
    private final LaunchAllowance launches;
    private final Map<String, Function> functions = new LinkedHashMap<>();
    private final Map<String, Alias> aliases = new LinkedHashMap<>();
    private CfnMapping snapStartByRegion;

    Functions(Construct scope, String id, DeploymentContext context, DataStores data,
            CallerRoles callerRoles, LaunchAllowance launches) {
        super(scope, id);
        this.context = context;
        this.launches = launches;
        this.data = data;
        code = Code.fromAsset(context.lambdaJar().toString());
        Map<String, String> environment = commonEnvironment();

        for (WorkflowStep step : Workflows.allSteps()) {
            function(step.name(), step.functionName(), step.handlerMethod(), Kind.STEP, TIMEOUT, environment);
        }
        for (Schedule schedule : Triggers.SCHEDULES) {
            function(schedule.name(), schedule.functionName(), schedule.handlerMethod(), Kind.SCHEDULED,
                    scheduledTimeout(context.scheduleMinutes(schedule)), environment);
        }
        for (EventRule rule : Triggers.EVENT_RULES) {
            function(rule.name(), rule.functionName(), rule.handlerMethod(), Kind.EVENT, TIMEOUT, environment);
        }
        // $connect binds the caller as the API does: it tells the caller roles' sessions apart too.
        Map<String, String> pushEnvironment = new LinkedHashMap<>(environment);
        putCallerRoles(pushEnvironment, callerRoles);
        for (PushChannel.WebSocketRoute route : PushChannel.ROUTES) {
            function(route.name(), route.functionName(), route.handlerMethod(), Kind.PUSH, API_TIMEOUT,
                    pushEnvironment);
        }
        Map<String, String> apiEnvironment = new LinkedHashMap<>(environment);
        // The secret's ARN, not its value: the function reads it as it starts (GetSecretValue, below).
        apiEnvironment.put(Settings.PAGE_TOKEN_SECRET_ARN.environmentVariable(), data.pageTokenKey().getSecretArn());
        apiEnvironment.put(Settings.INSTANCE_PROFILE_ARNS.environmentVariable(),
                Fn.join(",", launches.instanceProfileArns()));
        // Every API function tells the caller roles' sessions by partition, account, name and unique id:
        // the JSON door to authorize them, every door to know an ADMIN or an instance's own process.
        putCallerRoles(apiEnvironment, callerRoles);
        for (Route route : Routes.ALL) {
            function(route.operation().fleetIqName(), route.functionName(), route.handlerMethod(), Kind.API, API_TIMEOUT,
                    apiEnvironment);
        }
        for (ExtensionRoute extension : Routes.EXTENSIONS) {
            function(extension.name(), extension.functionName(), extension.handlerMethod(), Kind.API, API_TIMEOUT,
                    apiEnvironment);
        }
        // The JSON door alone tells a console viewer's sessions apart: the REST routes leave them to IAM.
        Map<String, String> doorEnvironment = new LinkedHashMap<>(apiEnvironment);
        callerRoles.viewer().ifPresent(viewer -> {
            doorEnvironment.put(Settings.VIEWER_ROLE_ARN.environmentVariable(), viewer.getRoleArn());
            doorEnvironment.put(Settings.VIEWER_ROLE_ID.environmentVariable(), viewer.getRoleId());
        });
        function(Routes.JSON_DOOR.name(), Routes.JSON_DOOR.functionName(), Routes.JSON_DOOR.handlerMethod(), Kind.API,
                API_TIMEOUT, doorEnvironment);
    }

    /**
     * The functions that post notices get the push channel's management URL and may post to its
     * connections (execute-api:ManageConnections on that stage's {@code POST @connections/*} only).
     */
    void postNotices(PushApi push) {
        for (Map.Entry<String, Function> entry : functions.entrySet()) {
            if (FunctionAccess.postsNotices(entry.getKey())) {
                entry.getValue().addEnvironment(Settings.PUSH_ENDPOINT.environmentVariable(), push.managementUrl());
                entry.getValue().getRole().addToPrincipalPolicy(PolicyStatement.Builder.create()
                        .sid("PostNotices")
                        .effect(Effect.ALLOW)
                        .actions(List.of("execute-api:ManageConnections"))
                        .resources(List.of(push.connectionsArn()))
                        .build());
                NagRules.noticePoster(entry.getValue(), push.connectionsArn());
            }
        }
    }

    /**
     * The functions that ask for standby evaluations get the balancer's alias and may invoke it
     * (lambda:InvokeFunction on that alias alone; Lambda queues the event, retried never, as the
     * schedule's are not).
     */
    void requestStandbyEvaluations() {
        Alias balancer = alias(Triggers.BALANCER.functionName());
        for (Map.Entry<String, Function> entry : functions.entrySet()) {
            if (FunctionAccess.requestsStandbyEvaluations(entry.getKey())) {
                entry.getValue().addEnvironment(Settings.STANDBY_FUNCTION.environmentVariable(), balancer.getFunctionArn());
                entry.getValue().getRole().addToPrincipalPolicy(PolicyStatement.Builder.create()
                        .sid("RequestStandbyEvaluations")
                        .effect(Effect.ALLOW)
                        .actions(List.of("lambda:InvokeFunction"))
                        .resources(List.of(balancer.getFunctionArn()))
                        .build());
            }
        }
    }

    /**
     * The functions that call peers ({@link FunctionAccess#callsPeers}) get the peers as
     * {@link Settings#PEERS} and may assume their MATCHMAKER roles (sts:AssumeRole on those roles
     * alone), to sign their calls to the peers' APIs with. Their roles are the output
     * {@code PeerForwarderRoleArns}, peers or not: a peer's context names them, and its MATCHMAKER
     * role admits them.
     */
    void callPeers(List<PeerRegion> peers) {
        List<String> forwarders = new ArrayList<>();
        for (Map.Entry<String, Function> entry : functions.entrySet()) {
            if (FunctionAccess.callsPeers(entry.getKey())) {
                forwarders.add(entry.getValue().getRole().getRoleArn());
                if (!peers.isEmpty()) {
                    entry.getValue().addEnvironment(Settings.PEERS.environmentVariable(), PeerRegion.setting(peers));
                    entry.getValue().getRole().addToPrincipalPolicy(PolicyStatement.Builder.create()
                            .sid("AssumePeerMatchmakerRoles")
                            .effect(Effect.ALLOW)
                            .actions(List.of("sts:AssumeRole"))
                            .resources(peers.stream().map(PeerRegion::matchmakerRoleArn).toList())
                            .build());
                }
            }
        }
        CfnOutput.Builder.create(this, "PeerForwarderRoleArns").value(Fn.join(",", forwarders))
                .description("The roles of the functions that call peer regions (comma-separated): each peer's context"
                        + " peerRegions names them as this stage's forwarderRoleArns")
                .build();
    }

    /** Every function by name: steps, schedules, event rules, push routes, then API routes (Gamefleet's own too). */
    Map<String, Function> all() {
        return functions;
    }

    Function function(String name) {
        return functions.get(name);
    }

    /** The {@value #LIVE_ALIAS} alias of a function. */
    Alias alias(String name) {
        return aliases.get(name);
    }

    private static void putCallerRoles(Map<String, String> environment, CallerRoles callerRoles) {
        for (io.gamefleet.catalog.Role role : io.gamefleet.catalog.Role.values()) {
            environment.put(Settings.roleArn(role).environmentVariable(), callerRoles.role(role).getRoleArn());
            environment.put(Settings.roleId(role).environmentVariable(), callerRoles.role(role).getRoleId());
        }
    }

    /** One run must end before the next one starts: the period, within Lambda's 15 minutes. */
    static Duration scheduledTimeout(long minutes) {
        return Duration.minutes(Math.min(minutes, 15));
    }

    /**
     * A function under the catalog's name, with its own role (only its log group, tables and
     * actions), its own log group, SnapStart on published versions, and the alias {@value #LIVE_ALIAS}
     * on the current version, which is what every caller invokes. Its name is the catalog's with the
     * stage in it ({@link StageNames}).
     */
    private void function(String id, String name, String handler, Kind kind, Duration timeout,
            Map<String, String> environment) {
        Access access = FunctionAccess.of(name);
        LogGroup logs = Logs.group(this, id + "FunctionLogs", "/" + Stack.of(this).getStackName() + "/lambda/" + name,
                context.logRetention());
        Role role = Role.Builder.create(this, id + "Role")
                .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
                .description("Gamefleet function " + name + " (" + kind.name().toLowerCase(Locale.ROOT) + ")")
                .build();
        logs.grantWrite(role);
        Function fn = Function.Builder.create(this, id + "Function")
                .functionName(context.names().of(name))
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
                .tracing(context.tracing() ? Tracing.ACTIVE : Tracing.DISABLED)
                // Versions are replaced on every change; keeping old ones would only pile up code storage.
                .currentVersionOptions(VersionOptions.builder().removalPolicy(RemovalPolicy.DESTROY).build())
                .build();
        snapStart(fn);
        grantTables(role, access);
        if (kind == Kind.API) {
            data.pageTokenKey().grantRead(role);
        }
        ScalingPermissions.statements(Stack.of(this), access.scaling(), context.names().stage(), launches)
                .forEach(role::addToPrincipalPolicy);
        boolean readsMetrics = FunctionAccess.readsMetrics(name);
        if (readsMetrics) {
            // GetMetricData has no resource-level permissions: it is granted on "*" or not at all.
            role.addToPrincipalPolicy(PolicyStatement.Builder.create()
                    .sid("ReadGroupMetrics")
                    .effect(Effect.ALLOW)
                    .actions(List.of("cloudwatch:GetMetricData"))
                    .resources(List.of("*"))
                    .build());
        }
        NagRules.function(fn, access.scaling(), context.names().stage(), context.tracing(), readsMetrics);

        Alias.Builder alias = Alias.Builder.create(this, id + "Live")
                .aliasName(LIVE_ALIAS)
                .version(fn.getCurrentVersion());
        if (kind == Kind.SCHEDULED) {
            // A failed balancer run is not retried: the next scheduled run does the same work.
            alias.retryAttempts(0).maxEventAge(Duration.seconds(Math.max(60, timeout.toSeconds().longValue())));
        }
        functions.put(name, fn);
        aliases.put(name, alias.build());
    }

    /**
     * SnapStart on published versions where the region has it: decided by the template's mapping
     * unless context {@code snapStart} says on or off.
     */
    private void snapStart(Function fn) {
        if (context.snapStart() == DeploymentContext.SnapStart.OFF) {
            return;
        }
        // Acknowledged: the function is published (currentVersion) and only ever invoked through the alias.
        Annotations.of(fn).acknowledgeWarning("@aws-cdk/aws-lambda:snapStartRequirePublish",
                "every function publishes its current version, and callers invoke the live alias on it");
        CfnFunction cfn = (CfnFunction) fn.getNode().getDefaultChild();
        Map<String, String> onPublishedVersions = Map.of("ApplyOn", "PublishedVersions");
        if (context.snapStart() == DeploymentContext.SnapStart.ON) {
            cfn.addPropertyOverride("SnapStart", onPublishedVersions);
        } else {
            if (snapStartByRegion == null) {
                snapStartByRegion = SupportedRegions.snapStartByRegion(this);
            }
            cfn.addPropertyOverride("SnapStart.ApplyOn", snapStartByRegion.findInMap(Aws.REGION, "ApplyOn"));
        }
    }

    /** Item actions on the table's ARN; queries of an index on that index's ARN only. */
    private void grantTables(Role role, Access access) {
        for (TableAccess grant : access.tables()) {
            Table table = data.table(grant.table());
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

    /** Table names, the account and the settings: what every function's Services reads. */
    private Map<String, String> commonEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        data.tables().forEach((definition, table) -> env.put(definition.environmentVariable(), table.getTableName()));
        env.put(Settings.ACCOUNT_ID.environmentVariable(), Stack.of(this).getAccount());
        context.functionSettings().forEach((setting, value) -> env.put(setting.environmentVariable(), value));
        env.put(Settings.SCALING_GROUP_PREFIX.environmentVariable(), context.names().scalingGroupPrefix());
        if (context.tracing()) {
            env.put(Settings.TRACING.environmentVariable(), "true");
        }
        env.put(Settings.STAGE.environmentVariable(), context.names().stage());
        return env;
    }
}

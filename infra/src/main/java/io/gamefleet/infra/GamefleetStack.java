package io.gamefleet.infra;

import io.gamefleet.catalog.FunctionAccess;
import io.gamefleet.catalog.Routes;
import io.gamefleet.catalog.Settings;
import io.gamefleet.catalog.Tables;
import io.gamefleet.catalog.Triggers;
import io.gamefleet.catalog.Workflows;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.constructs.Construct;

/**
 * Every AWS resource of Gamefleet, built from the catalog: {@link Routes}, {@link Tables},
 * {@link Workflows}, {@link Triggers}, {@link io.gamefleet.catalog.PushChannel} and {@link Settings}. Nothing here names a route, a table, a
 * key, a workflow step, a schedule, an event pattern or a setting default of its own; what each
 * function may do with the tables and with Auto Scaling comes from {@link FunctionAccess}.
 *
 * <p>Context values are read and checked by {@link DeploymentContext}; docs/deploy.md's "Deploy"
 * section lists them. The stack is environment-agnostic and does no lookups: synthesis needs
 * neither AWS credentials nor a network.
 */
public final class GamefleetStack extends Stack {
    public GamefleetStack(Construct scope, String id, StackProps props) {
        super(scope, id, props);
        DeploymentContext context = new DeploymentContext(getNode());
        Optional<ContainerOptions> containers = context.containers();
        Monitoring monitoring = new Monitoring(this, "Monitoring", context.alarmEmail(), context.names());
        // The parts' resources keep the logical ids they had when they sat in the stack itself
        // (see LogicalIds), each part's as soon as it is built: the next parts refer to them.
        // The functions are the stack's Default child, which CDK leaves out of logical ids: a
        // function version's id is fixed by CDK as the version is created.
        DataStores data = LogicalIds.leaveOut(new DataStores(this, "DataStores", context.removalPolicy()));
        CallerRoles callerRoles = LogicalIds.leaveOut(new CallerRoles(this, "CallerRoles"));
        // Before the functions (the JSON door knows its viewer role) and the API (whose CORS admits its origin).
        Optional<ConsoleSite> console = context.console()
                ? Optional.of(new ConsoleSite(this, "Console", context, callerRoles)) : Optional.empty();
        Functions functions = new Functions(this, "Default", context, data, callerRoles,
                callerRoles.ownLaunches().plus(context.launchAllowance()));
        StateMachines workflows = LogicalIds.leaveOut(
                new StateMachines(this, "Workflows", functions, context));
        EventTriggers triggers = LogicalIds.leaveOut(new EventTriggers(this, "Triggers", functions, context));
        List<String> origins = new ArrayList<>();
        console.ifPresent(site -> origins.add(site.origin()));
        origins.addAll(context.consoleOrigins());
        Api api = LogicalIds.leaveOut(new Api(this, "HttpApi", functions, context, origins));
        console.ifPresent(site -> site.serve(api, api.url()));
        PushApi push = new PushApi(this, "PushChannel", functions, context);
        functions.postNotices(push);
        functions.requestStandbyEvaluations();
        List<PeerRegion> peers = context.peerRegions();
        functions.callPeers(peers);
        callerRoles.admitPeerForwarders(peers);
        if (!peers.isEmpty()) {
            PeerRegion.refuseHomeRegion(this, peers);
        }
        CallerPolicies callerPolicies = LogicalIds.leaveOut(new CallerPolicies(this, "CallerPolicies", api, push,
                callerRoles));
        containers.ifPresent(options -> new GameServerContainers(this, "Containers", context, options,
                functions, callerRoles));
        new AgentInstall(this, "AgentInstall", context, callerRoles);

        data.tables().forEach(monitoring::tableAlarm);
        monitoring.apiAlarms(api.httpApi(), api.accessLogs());
        monitoring.pushAlarms(push.stage());
        monitoring.crashLoopAlarm(context.crashLoop());
        monitoring.balancerAlarm(functions.function(Triggers.BALANCER.functionName()),
                context.scheduleMinutes(Triggers.BALANCER));
        monitoring.failedEventsAlarm(triggers.failedEvents());
        workflows.all().forEach((workflow, stateMachine) ->
                monitoring.stateMachineAlarm(workflow.stateMachineName(), stateMachine));
        monitoring.dashboard(getStackName(), api.httpApi(), push.stage(), functions.all().values(),
                workflows.all().values(), data.tables().values());
        CfnOutput.Builder.create(this, "AlarmTopicArn").value(monitoring.topic().getTopicArn())
                .description("Every Gamefleet alarm notifies this SNS topic: subscribe to it")
                .build();
    }
}

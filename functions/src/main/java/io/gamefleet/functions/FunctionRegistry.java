package io.gamefleet.functions;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2WebSocketEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2WebSocketResponse;
import io.gamefleet.api.ApiHandler;
import io.gamefleet.api.ClaimGameServerHandler;
import io.gamefleet.api.CreateContainerGroupHandler;
import io.gamefleet.api.CreateGameServerGroupHandler;
import io.gamefleet.api.CreateSessionHandler;
import io.gamefleet.api.DeleteGameServerGroupHandler;
import io.gamefleet.api.DeregisterGameServerHandler;
import io.gamefleet.api.DescribeClaimStrategyHandler;
import io.gamefleet.api.DescribeGameServerGroupHandler;
import io.gamefleet.api.DescribeGameServerGroupMetricsHandler;
import io.gamefleet.api.DescribeGameServerGroupSummaryHandler;
import io.gamefleet.api.DescribeGameServerHandler;
import io.gamefleet.api.DescribeGameServerInstancesHandler;
import io.gamefleet.api.DescribeGameServerProcessHandler;
import io.gamefleet.api.DescribeGameServerSessionHandler;
import io.gamefleet.api.DescribeSessionHandler;
import io.gamefleet.api.DescribeStandbyPolicyHandler;
import io.gamefleet.api.ListGameServerGroupsHandler;
import io.gamefleet.api.ListGameServersHandler;
import io.gamefleet.api.ListQosServersHandler;
import io.gamefleet.api.ListRegionsHandler;
import io.gamefleet.api.ListSessionsHandler;
import io.gamefleet.api.PutClaimStrategyHandler;
import io.gamefleet.api.PutStandbyPolicyHandler;
import io.gamefleet.api.RegisterGameServerHandler;
import io.gamefleet.api.ResumeGameServerGroupHandler;
import io.gamefleet.api.SuspendGameServerGroupHandler;
import io.gamefleet.api.UpdateGameServerGroupHandler;
import io.gamefleet.api.UpdateGameServerHandler;
import io.gamefleet.catalog.EventRule;
import io.gamefleet.catalog.ExtensionRoute;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.catalog.Routes;
import io.gamefleet.catalog.Schedule;
import io.gamefleet.catalog.Triggers;
import io.gamefleet.catalog.WorkflowStep;
import io.gamefleet.catalog.Workflows;
import io.gamefleet.push.ConnectHandler;
import io.gamefleet.push.DisconnectHandler;
import io.gamefleet.push.MessageHandler;
import io.gamefleet.triggers.BalancerHandler;
import io.gamefleet.triggers.InstanceEventHandler;
import io.gamefleet.wiring.Services;
import io.gamefleet.workflow.CheckActivationStep;
import io.gamefleet.workflow.CheckReadyToDeleteStep;
import io.gamefleet.workflow.CompleteActivationStep;
import io.gamefleet.workflow.CompleteDeletionStep;
import io.gamefleet.workflow.CreateScalingGroupStep;
import io.gamefleet.workflow.DeleteScalingGroupStep;
import io.gamefleet.workflow.PurgeGroupRecordsStep;
import io.gamefleet.workflow.RecordFailureStep;
import io.gamefleet.workflow.StartActivationStep;
import io.gamefleet.workflow.StartDeletingStep;
import java.util.Map;
import java.util.function.Function;

/**
 * Every function of the catalog built on its {@link Services}, without reflection: what Lambda
 * makes of a handler string in AWS, made here for the local profile and the tests. The catalog
 * names each handler class once (for the CDK app); a test checks that this registry builds
 * exactly those classes. The services are one for all, or (the local profile) each function's
 * own, as each is its own Lambda function with its own role.
 */
public final class FunctionRegistry {

    private static final Map<WorkflowStep, Function<Services, RequestHandler<Map<String, Object>, Map<String, Object>>>>
            STEPS = Map.of(
                    Workflows.START_ACTIVATION, StartActivationStep::new,
                    Workflows.CREATE_SCALING_GROUP, CreateScalingGroupStep::new,
                    Workflows.CHECK_ACTIVATION, CheckActivationStep::new,
                    Workflows.COMPLETE_ACTIVATION, CompleteActivationStep::new,
                    Workflows.CHECK_READY_TO_DELETE, CheckReadyToDeleteStep::new,
                    Workflows.START_DELETING, StartDeletingStep::new,
                    Workflows.DELETE_SCALING_GROUP, DeleteScalingGroupStep::new,
                    Workflows.PURGE_GROUP_RECORDS, PurgeGroupRecordsStep::new,
                    Workflows.COMPLETE_DELETION, CompleteDeletionStep::new,
                    Workflows.RECORD_FAILURE, RecordFailureStep::new);

    private final Function<String, Services> servicesOf;

    public FunctionRegistry(Services services) {
        this(functionName -> services);
    }

    /** {@code servicesOf}: the services of a function, by its catalog name. */
    public FunctionRegistry(Function<String, Services> servicesOf) {
        this.servicesOf = servicesOf;
    }

    public ApiHandler api(Operation operation) {
        Services services = servicesOf.apply(operation.functionName());
        return switch (operation) {
            case CREATE_GAME_SERVER_GROUP -> new CreateGameServerGroupHandler(services);
            case LIST_GAME_SERVER_GROUPS -> new ListGameServerGroupsHandler(services);
            case DESCRIBE_GAME_SERVER_GROUP -> new DescribeGameServerGroupHandler(services);
            case UPDATE_GAME_SERVER_GROUP -> new UpdateGameServerGroupHandler(services);
            case DELETE_GAME_SERVER_GROUP -> new DeleteGameServerGroupHandler(services);
            case SUSPEND_GAME_SERVER_GROUP -> new SuspendGameServerGroupHandler(services);
            case RESUME_GAME_SERVER_GROUP -> new ResumeGameServerGroupHandler(services);
            case DESCRIBE_GAME_SERVER_INSTANCES -> new DescribeGameServerInstancesHandler(services);
            case REGISTER_GAME_SERVER -> new RegisterGameServerHandler(services);
            case LIST_GAME_SERVERS -> new ListGameServersHandler(services);
            case DESCRIBE_GAME_SERVER -> new DescribeGameServerHandler(services);
            case UPDATE_GAME_SERVER -> new UpdateGameServerHandler(services);
            case DEREGISTER_GAME_SERVER -> new DeregisterGameServerHandler(services);
            case CLAIM_GAME_SERVER -> new ClaimGameServerHandler(services);
        };
    }

    /** A Gamefleet route of its own ({@link Routes#EXTENSIONS}). */
    public RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> extension(ExtensionRoute route) {
        Services services = servicesOf.apply(route.functionName());
        if (route.equals(Routes.DESCRIBE_GAME_SERVER_PROCESS)) {
            return new DescribeGameServerProcessHandler(services);
        } else if (route.equals(Routes.CREATE_SESSION)) {
            return new CreateSessionHandler(services);
        } else if (route.equals(Routes.DESCRIBE_SESSION)) {
            return new DescribeSessionHandler(services);
        } else if (route.equals(Routes.DESCRIBE_GAME_SERVER_SESSION)) {
            return new DescribeGameServerSessionHandler(services);
        } else if (route.equals(Routes.PUT_STANDBY_POLICY)) {
            return new PutStandbyPolicyHandler(services);
        } else if (route.equals(Routes.DESCRIBE_STANDBY_POLICY)) {
            return new DescribeStandbyPolicyHandler(services);
        } else if (route.equals(Routes.PUT_CLAIM_STRATEGY)) {
            return new PutClaimStrategyHandler(services);
        } else if (route.equals(Routes.DESCRIBE_CLAIM_STRATEGY)) {
            return new DescribeClaimStrategyHandler(services);
        } else if (route.equals(Routes.LIST_SESSIONS)) {
            return new ListSessionsHandler(services);
        } else if (route.equals(Routes.LIST_QOS_SERVERS)) {
            return new ListQosServersHandler(services);
        } else if (route.equals(Routes.LIST_REGIONS)) {
            return new ListRegionsHandler(services);
        } else if (route.equals(Routes.DESCRIBE_GROUP_SUMMARY)) {
            return new DescribeGameServerGroupSummaryHandler(services);
        } else if (route.equals(Routes.DESCRIBE_GROUP_METRICS)) {
            return new DescribeGameServerGroupMetricsHandler(services);
        } else if (route.equals(Routes.CREATE_CONTAINER_GROUP)) {
            return new CreateContainerGroupHandler(services);
        }
        throw new IllegalArgumentException("no handler for route " + route.routeKey());
    }

    /** The AWS JSON 1.1 door, which runs every operation in-process. */
    public GameLiftJsonHandler jsonDoor() {
        return new GameLiftJsonHandler(servicesOf.apply(Routes.JSON_DOOR.functionName()));
    }

    public RequestHandler<Map<String, Object>, Map<String, Object>> step(WorkflowStep step) {
        var constructor = STEPS.get(step);
        if (constructor == null) {
            throw new IllegalArgumentException("no handler for workflow step " + step.name());
        }
        return constructor.apply(servicesOf.apply(step.functionName()));
    }

    public RequestHandler<Map<String, Object>, Map<String, Object>> schedule(Schedule schedule) {
        if (schedule.equals(Triggers.BALANCER)) {
            return new BalancerHandler(servicesOf.apply(schedule.functionName()));
        }
        throw new IllegalArgumentException("no handler for schedule " + schedule.name());
    }

    /** A route of the push channel's WebSocket API. */
    public RequestHandler<APIGatewayV2WebSocketEvent, APIGatewayV2WebSocketResponse> push(
            PushChannel.WebSocketRoute route) {
        Services services = servicesOf.apply(route.functionName());
        if (route.equals(PushChannel.CONNECT)) {
            return new ConnectHandler(services);
        } else if (route.equals(PushChannel.DISCONNECT)) {
            return new DisconnectHandler(services);
        } else if (route.equals(PushChannel.MESSAGE)) {
            return new MessageHandler(services);
        }
        throw new IllegalArgumentException("no handler for WebSocket route " + route.routeKey());
    }

    public RequestHandler<Map<String, Object>, Map<String, Object>> eventRule(EventRule rule) {
        if (rule.equals(Triggers.INSTANCE_EVENTS)) {
            return new InstanceEventHandler(servicesOf.apply(rule.functionName()));
        }
        throw new IllegalArgumentException("no handler for event rule " + rule.name());
    }
}

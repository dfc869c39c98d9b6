package io.gamefleet.infra;

import io.gamefleet.catalog.PushChannel;
import io.gamefleet.catalog.PushChannel.WebSocketRoute;
import io.gamefleet.catalog.Throttles;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.aws_apigatewayv2_authorizers.WebSocketIamAuthorizer;
import software.amazon.awscdk.aws_apigatewayv2_integrations.WebSocketLambdaIntegration;
import software.amazon.awscdk.services.apigatewayv2.CfnRoute;
import software.amazon.awscdk.services.apigatewayv2.CfnStage;
import software.amazon.awscdk.services.apigatewayv2.ThrottleSettings;
import software.amazon.awscdk.services.apigatewayv2.WebSocketApi;
import software.amazon.awscdk.services.apigatewayv2.WebSocketRouteOptions;
import software.amazon.awscdk.services.apigatewayv2.WebSocketStage;
import software.amazon.awscdk.services.logs.LogGroup;
import software.constructs.Construct;
import software.constructs.IConstruct;

/**
 * The push channel's WebSocket API ({@link PushChannel}): {@code $connect} authorized by IAM
 * (SigV4), each route integrating the live alias of its own function, one throttled,
 * access-logged stage named after the deployment's stage. Who may connect is granted in
 * {@link CallerPolicies}; who may post notices in {@link Functions#postNotices}.
 */
final class PushApi extends Construct {
    /** One JSON line per connect, message and disconnect; the caller's ARN names its instance session. */
    static final String ACCESS_LOG_FORMAT = "{\"requestId\":\"$context.requestId\",\"time\":\"$context.requestTime\","
            + "\"ip\":\"$context.identity.sourceIp\",\"caller\":\"$context.identity.userArn\","
            + "\"connectionId\":\"$context.connectionId\",\"eventType\":\"$context.eventType\","
            + "\"routeKey\":\"$context.routeKey\",\"status\":\"$context.status\","
            + "\"integrationLatency\":\"$context.integrationLatency\",\"error\":\"$context.error.message\"}";

    private final WebSocketApi api;
    private final WebSocketStage stage;
    private final LogGroup accessLogs;

    PushApi(Construct scope, String id, Functions functions, DeploymentContext context) {
        super(scope, id);
        String stackName = Stack.of(this).getStackName();
        accessLogs = Logs.group(this, "PushAccessLogs", "/" + stackName + "/push/access", context.logRetention());
        api = WebSocketApi.Builder.create(this, "PushApi")
                .apiName(stackName + "-push")
                .description("Gamefleet push channel: notices to the agents (SigV4 on $connect, service execute-api)")
                .connectRouteOptions(route(functions, PushChannel.CONNECT, false)
                        .authorizer(new WebSocketIamAuthorizer()).build())
                .disconnectRouteOptions(route(functions, PushChannel.DISCONNECT, false).build())
                // The pong is the route's response: the route needs a route response for it.
                .defaultRouteOptions(route(functions, PushChannel.MESSAGE, true).build())
                .build();
        for (IConstruct child : api.getNode().findAll()) {
            if (child instanceof CfnRoute route && !PushChannel.CONNECT.routeKey().equals(route.getRouteKey())) {
                NagRules.pushRoute(route);
            }
        }
        Throttles.Limit all = context.throttling().pushStage();
        stage = WebSocketStage.Builder.create(this, "PushStage")
                .webSocketApi(api)
                .stageName(context.names().stage())
                .autoDeploy(true)
                .throttle(ThrottleSettings.builder().rateLimit(all.rate()).burstLimit(all.burst()).build())
                .accessLogSettings(Logs.accessLogSettings(accessLogs, ACCESS_LOG_FORMAT))
                .build();
        Map<String, Object> routeSettings = new LinkedHashMap<>();
        context.throttling().pushRoutes().forEach((routeKey, limit) -> routeSettings.put(routeKey, Api.routeSettings(limit)));
        ((CfnStage) stage.getNode().getDefaultChild()).setRouteSettings(routeSettings);

        // On the stack, so that the output's name is exactly the agents' contract's.
        CfnOutput.Builder.create(Stack.of(this), "PushEndpoint").value(stage.getUrl())
                .description("The push channel's WebSocket URL (wss://), which the agents connect to (SigV4 on $connect)")
                .build();
    }

    WebSocketApi webSocketApi() {
        return api;
    }

    WebSocketStage stage() {
        return stage;
    }

    LogGroup accessLogs() {
        return accessLogs;
    }

    /** The management API's URL (https://), which the notices are posted to: GAMEFLEET_PUSH_ENDPOINT. */
    String managementUrl() {
        return stage.getCallbackUrl();
    }

    /** The execute-api ARN of {@code $connect} on the stage: what a caller needs execute-api:Invoke on. */
    String connectArn() {
        return executeApiArn(stage.getStageName() + "/" + PushChannel.CONNECT.routeKey());
    }

    /** The stage's connections as PostToConnection reaches them (execute-api:ManageConnections). */
    String connectionsArn() {
        return executeApiArn(stage.getStageName() + "/POST" + PushChannel.CONNECTIONS_PATH + "*");
    }

    private String executeApiArn(String resourceName) {
        return Stack.of(this).formatArn(ArnComponents.builder().service("execute-api").resource(api.getApiId())
                .arnFormat(ArnFormat.SLASH_RESOURCE_NAME).resourceName(resourceName).build());
    }

    private static WebSocketRouteOptions.Builder route(Functions functions, WebSocketRoute route, boolean responds) {
        return WebSocketRouteOptions.builder()
                .integration(new WebSocketLambdaIntegration(route.name() + "Integration",
                        functions.alias(route.functionName())))
                .returnResponse(responds);
    }
}

package io.gamefleet.infra;

import io.gamefleet.catalog.ExtensionRoute;
import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import io.gamefleet.catalog.Throttles;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.aws_apigatewayv2_authorizers.HttpIamAuthorizer;
import software.amazon.awscdk.aws_apigatewayv2_integrations.HttpLambdaIntegration;
import software.amazon.awscdk.services.apigatewayv2.AddRoutesOptions;
import software.amazon.awscdk.services.apigatewayv2.CfnStage;
import software.amazon.awscdk.services.apigatewayv2.CorsHttpMethod;
import software.amazon.awscdk.services.apigatewayv2.CorsPreflightOptions;
import software.amazon.awscdk.services.apigatewayv2.HttpApi;
import software.amazon.awscdk.services.apigatewayv2.HttpMethod;
import software.amazon.awscdk.services.apigatewayv2.HttpStage;
import software.amazon.awscdk.services.apigatewayv2.HttpStageOptions;
import software.amazon.awscdk.services.apigatewayv2.IAccessLogSettings;
import software.amazon.awscdk.services.apigatewayv2.ThrottleSettings;
import software.amazon.awscdk.services.logs.LogGroup;
import software.constructs.Construct;

/**
 * The HTTP API: each operation's REST {@link Routes route} and Smithy RPC v2 CBOR path, integrating
 * the live alias of its function, Gamefleet's own routes, and the AWS JSON 1.1 door; all authorized
 * by IAM (SigV4); one throttled, access-logged stage.
 */
final class Api extends Construct {
    /** The HTTP API's only stage. */
    static final String STAGE = "$default";

    private final HttpApi api;
    private final LogGroup accessLogs;
    private final String url;

    /**
     * {@code consoleOrigins}: the origins whose pages may call the API (CORS), the stack's own
     * console's first where it serves one, then context consoleOrigins'.
     */
    Api(Construct scope, String id, Functions functions, DeploymentContext context, List<String> consoleOrigins) {
        super(scope, id);
        String stackName = Stack.of(this).getStackName();
        accessLogs = Logs.group(this, "ApiAccessLogs", "/" + stackName + "/api/access",
                context.logRetention());
        api = HttpApi.Builder.create(this, "Api")
                .apiName(stackName)
                .description("Gamefleet: FleetIQ-style game server management (SigV4, service execute-api)")
                .defaultAuthorizer(new HttpIamAuthorizer())
                .createDefaultStage(false)
                .corsPreflight(cors(consoleOrigins))
                .build();
        HttpStage stage = api.addStage("DefaultStage", HttpStageOptions.builder()
                .stageName(STAGE)
                .autoDeploy(true)
                // Routes without their own limits (none today) get the JSON door's, the sum of all.
                .throttle(ThrottleSettings.builder()
                        .burstLimit(context.throttling().jsonDoor().burst())
                        .rateLimit(context.throttling().jsonDoor().rate())
                        .build())
                .accessLogSettings(accessLogSettings(accessLogs))
                .build());

        // Every route has the API's default authorizer, IAM. An operation's REST route and its
        // CBOR path reach the same function, which tells the two apart by the route.
        for (Route route : Routes.ALL) {
            HttpLambdaIntegration integration = new HttpLambdaIntegration(route.operation() + "Integration",
                    functions.alias(route.functionName()));
            api.addRoutes(AddRoutesOptions.builder()
                    .path(route.path())
                    .methods(List.of(HttpMethod.valueOf(route.method())))
                    .integration(integration)
                    .build());
            api.addRoutes(AddRoutesOptions.builder()
                    .path(route.operation().cborPath())
                    .methods(List.of(HttpMethod.POST))
                    .integration(integration)
                    .build());
        }
        // Gamefleet's own routes: in no FleetIQ model, so no CBOR path.
        for (ExtensionRoute extension : Routes.EXTENSIONS) {
            api.addRoutes(AddRoutesOptions.builder()
                    .path(extension.path())
                    .methods(List.of(HttpMethod.valueOf(extension.method())))
                    .integration(new HttpLambdaIntegration(extension.name() + "Integration",
                            functions.alias(extension.functionName())))
                    .build());
        }
        api.addRoutes(AddRoutesOptions.builder()
                .path(Routes.JSON_DOOR.path())
                .methods(List.of(HttpMethod.valueOf(Routes.JSON_DOOR.method())))
                .integration(new HttpLambdaIntegration("JsonDoorIntegration",
                        functions.alias(Routes.JSON_DOOR.functionName())))
                .build());

        routeThrottles(stage, context.throttling());

        url = stage.getUrl();
        CfnOutput.Builder.create(this, "ApiUrl").value(url)
                .description("Base URL of the Gamefleet HTTP API (SigV4-signed requests, service execute-api)")
                .build();
    }

    HttpApi httpApi() {
        return api;
    }

    /** The stage's base URL (ending in /), as the ApiUrl output names it. */
    String url() {
        return url;
    }

    /** One JSON line per request, with its status. */
    LogGroup accessLogs() {
        return accessLogs;
    }

    /**
     * The execute-api ARN of a route, as IAM matches it: path parameters become {@code ?*}, at
     * least one character ({@code POST /game-server-groups/{GameServerGroupName}/claim} becomes
     * {@code .../$default/POST/game-server-groups/?* /claim}). A bare {@code *} would also match
     * the empty string, so {@code GET .../game-servers/} would pass as DescribeGameServer, and
     * HTTP APIs may route it as ListGameServers.
     */
    String arnOf(Route route) {
        return arnOf(route.method(), route.path());
    }

    /** The execute-api ARN of one of Gamefleet's own routes, matched as an operation's is. */
    String arnOf(ExtensionRoute route) {
        return arnOf(route.method(), route.path());
    }

    /** What a Deny of one of Gamefleet's own routes names: each path parameter {@code *}, matching any segments. */
    String denyArnOf(ExtensionRoute route) {
        return api.arnForExecuteApi(route.method(), route.path().replaceAll("\\{[^/}]+}", "*"), STAGE);
    }

    private String arnOf(String method, String path) {
        return api.arnForExecuteApi(method, path.replaceAll("\\{[^/}]+}", "?*"), STAGE);
    }

    /** The execute-api ARN of an operation's CBOR path. */
    String cborArnOf(Route route) {
        return api.arnForExecuteApi("POST", route.operation().cborPath(), STAGE);
    }

    /** The execute-api ARN of the JSON door. */
    String jsonDoorArn() {
        return api.arnForExecuteApi(Routes.JSON_DOOR.method(), Routes.JSON_DOOR.path(), STAGE);
    }

    /**
     * CORS for the given origins (none: no CORS, as before): API Gateway answers their preflights
     * itself, unauthenticated, and adds the headers to every response. The methods are the routes'
     * (PUT: the console's standby and claim strategy forms); the headers are those the AWS SDK for
     * JavaScript signs and sends from a browser.
     */
    private static CorsPreflightOptions cors(List<String> origins) {
        if (origins.isEmpty()) {
            return null;
        }
        return CorsPreflightOptions.builder()
                .allowOrigins(origins)
                .allowMethods(List.of(CorsHttpMethod.GET, CorsHttpMethod.POST, CorsHttpMethod.PUT, CorsHttpMethod.PATCH,
                        CorsHttpMethod.DELETE))
                .allowHeaders(List.of("authorization", "content-type", "x-amz-date", "x-amz-security-token",
                        "x-amz-target", "x-amz-user-agent", "x-amz-content-sha256", "amz-sdk-invocation-id",
                        "amz-sdk-request", "smithy-protocol"))
                .exposeHeaders(List.of("x-amzn-requestid", "x-amzn-errortype"))
                .maxAge(Duration.hours(1))
                .build();
    }

    /** Each route's own limits ({@link Throttles}), on the stage as API Gateway keys them: by route key. */
    private static void routeThrottles(HttpStage stage, Throttles throttling) {
        Map<String, Object> settings = new LinkedHashMap<>();
        throttling.httpRoutes().forEach((routeKey, limit) -> settings.put(routeKey, routeSettings(limit)));
        ((CfnStage) stage.getNode().getDefaultChild()).setRouteSettings(settings);
    }

    /** A route's throttle as the stage's RouteSettings take it. */
    static Map<String, Object> routeSettings(Throttles.Limit limit) {
        return Map.of("ThrottlingRateLimit", limit.rate(), "ThrottlingBurstLimit", limit.burst());
    }

    private static IAccessLogSettings accessLogSettings(LogGroup logs) {
        // $context.identity.userArn names the caller (an instance-profile session names its instance).
        String format = "{\"requestId\":\"$context.requestId\",\"time\":\"$context.requestTime\","
                + "\"ip\":\"$context.identity.sourceIp\",\"caller\":\"$context.identity.userArn\","
                + "\"routeKey\":\"$context.routeKey\",\"path\":\"$context.path\",\"status\":\"$context.status\","
                + "\"responseLength\":\"$context.responseLength\",\"latency\":\"$context.responseLatency\","
                + "\"integrationLatency\":\"$context.integrationLatency\","
                + "\"integrationError\":\"$context.integrationErrorMessage\",\"error\":\"$context.error.message\"}";
        return Logs.accessLogSettings(logs, format);
    }
}

package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.Catalog;
import io.gamefleet.catalog.FunctionAccess;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Settings;
import io.gamefleet.catalog.Throttles;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * The push channel (PushApi, Functions.postNotices, CallerPolicies): the WebSocket API, its routes
 * on the catalog's functions, who may connect and who may post, the stage's throttles, logs and alarms.
 */
class PushChannelStackTest extends SynthesizedStack {
    private static final String ARN_PREFIX = "arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:";

    @Test
    void aWebSocketApiRoutesOnTheMessagesAction() {
        Map<String, Object> api = props(resources.get(pushApiId()));
        assertThat(api).containsEntry("ProtocolType", "WEBSOCKET")
                .containsEntry("RouteSelectionExpression", "$request.body.action");
    }

    @Test
    void eachRouteIntegratesTheLiveAliasOfItsOwnFunctionAndOnlyConnectIsAuthorized() {
        Map<String, Map<String, Object>> routes = ofApi("AWS::ApiGatewayV2::Route", pushApiId());
        Map<String, Map<String, Object>> byKey = routes.values().stream().map(SynthesizedStack::props)
                .collect(Collectors.toMap(p -> (String) p.get("RouteKey"), p -> p));
        assertThat(byKey.keySet()).containsExactlyInAnyOrderElementsOf(
                PushChannel.ROUTES.stream().map(PushChannel.WebSocketRoute::routeKey).toList());
        for (PushChannel.WebSocketRoute route : PushChannel.ROUTES) {
            Map<String, Object> p = byKey.get(route.routeKey());
            assertThat(p.get("AuthorizationType")).as(route.routeKey())
                    .isEqualTo(route == PushChannel.CONNECT ? "AWS_IAM" : "NONE");
            List<Object> join = cast(map(p.get("Target")).get("Fn::Join"));
            String integrationId = (String) map(SynthesizedStack.<List<Object>>cast(join.get(1)).get(1)).get("Ref");
            Map<String, Object> integration = props(resources.get(integrationId));
            assertThat(integration).as(route.routeKey()).containsEntry("IntegrationType", "AWS_PROXY")
                    .containsEntry("ApiId", ref(pushApiId()));
            assertThat(render(integration.get("IntegrationUri"))).as(route.routeKey())
                    .contains("<" + aliasId(route.functionName()) + ">");
            // API Gateway may invoke the alias, from this API only.
            assertThat(ofType("AWS::Lambda::Permission").values().stream().map(SynthesizedStack::props)
                    .filter(perm -> ref(aliasId(route.functionName())).equals(perm.get("FunctionName"))))
                    .as(route.routeKey()).isNotEmpty()
                    .allSatisfy(perm -> {
                        assertThat(perm).containsEntry("Principal", "apigateway.amazonaws.com");
                        assertThat(render(perm.get("SourceArn"))).startsWith(ARN_PREFIX + "<" + pushApiId() + ">/");
                    });
        }
        // The pong is $default's route response.
        Map<String, Object> message = byKey.get(PushChannel.MESSAGE.routeKey());
        assertThat(message).containsEntry("RouteResponseSelectionExpression", "$default");
        assertThat(ofApi("AWS::ApiGatewayV2::RouteResponse", pushApiId())).hasSize(1);
    }

    @Test
    void onlyTheNoticePostersGetTheManagementUrlAndPostOnlyToTheStagesConnections() {
        String connections = ARN_PREFIX + "<" + pushApiId() + ">/" + STAGE.stage() + "/POST/@connections/*";
        String managementUrl = "https://<" + pushApiId() + ">.execute-api.<AWS::Region>.<AWS::URLSuffix>/"
                + STAGE.stage();
        for (String name : functionNames()) {
            Map<String, Object> variables = variables(resources.get(functionId(name)));
            List<Map<String, Object>> manage = statementsOf(name).stream()
                    .filter(s -> actions(s).stream().anyMatch(a -> a.startsWith("execute-api:"))).toList();
            if (FunctionAccess.postsNotices(name)) {
                assertThat(render(variables.get(Settings.PUSH_ENDPOINT.environmentVariable()))).as(name)
                        .isEqualTo(managementUrl);
                assertThat(manage).as(name).hasSize(1);
                assertThat(actions(manage.get(0))).containsExactly("execute-api:ManageConnections");
                assertThat(resourcesOf(manage.get(0)).stream().map(SynthesizedStack::render)).as(name)
                        .containsExactly(connections);
            } else {
                assertThat(variables).as(name).doesNotContainKey(Settings.PUSH_ENDPOINT.environmentVariable());
                assertThat(manage).as(name).isEmpty();
            }
        }
        assertThat(functionNames().stream().filter(FunctionAccess::postsNotices)).as("the claims (ClaimGameServer and a"
                + " session's), the deregistration, the JSON door and the balancer").hasSize(5);
    }

    @Test
    void theAgentsAndAdminsMayConnectAndNoCallerReachesTheOtherRoutes() {
        String connect = ARN_PREFIX + "<" + pushApiId() + ">/" + STAGE.stage() + "/$connect";
        for (Role role : Role.values()) {
            List<Map<String, Object>> statements = listOf(map(props(resources.get(callerPolicyId(role)))
                    .get("PolicyDocument")).get("Statement")).stream().map(SynthesizedStack::map).toList();
            List<Map<String, Object>> connects = statements.stream()
                    .filter(s -> "ConnectPushChannel".equals(s.get("Sid"))).toList();
            if (PushChannel.CONNECTING_ROLES.contains(role)) {
                assertThat(connects).as(role.name()).hasSize(1);
                assertThat(actions(connects.get(0))).containsExactly("execute-api:Invoke");
                assertThat(resourcesOf(connects.get(0)).stream().map(SynthesizedStack::render)).containsExactly(connect);
            } else {
                assertThat(connects).as(role.name()).isEmpty();
            }
            List<Pattern> patterns = statements.stream().flatMap(s -> resourcesOf(s).stream())
                    .map(SynthesizedStack::render).map(SynthesizedStack::iamGlob).toList();
            for (String other : List.of("$default", "$disconnect", "POST/@connections/abc=")) {
                String arn = ARN_PREFIX + "<" + pushApiId() + ">/" + STAGE.stage() + "/" + other;
                assertThat(patterns).as(role + " -> " + other).noneMatch(p -> p.matcher(arn).matches());
            }
        }
        assertThat(PushChannel.CONNECTING_ROLES).containsExactlyInAnyOrder(Role.GAME_SERVER, Role.ADMIN);
    }

    @Test
    void theStageIsThrottledFromTheFleetAndAccessLogged() {
        Map<String, Map<String, Object>> stages = ofApi("AWS::ApiGatewayV2::Stage", pushApiId());
        assertThat(stages).hasSize(1);
        Map<String, Object> stage = props(stages.values().iterator().next());
        Throttles throttling = Throttles.of(Settings.Setting::defaultValue);
        assertThat(stage).containsEntry("StageName", STAGE.stage()).containsEntry("AutoDeploy", true);
        // 10,000 agents reconnecting within a minute, and reporting health every 30 s and pinging
        // every 30 s (as if each server had its own agent), with 20% headroom.
        assertThat(throttling.pushConnects()).isEqualTo(new Throttles.Limit(200, 400));
        assertThat(throttling.pushMessages()).isEqualTo(new Throttles.Limit(800, 1600));
        assertThat(map(stage.get("DefaultRouteSettings"))).containsEntry("ThrottlingRateLimit", 1000)
                .containsEntry("ThrottlingBurstLimit", 2000);
        Map<String, Object> routes = map(stage.get("RouteSettings"));
        assertThat(routes).containsOnlyKeys(PushChannel.CONNECT.routeKey(), PushChannel.MESSAGE.routeKey());
        assertThat(map(routes.get(PushChannel.CONNECT.routeKey()))).containsEntry("ThrottlingRateLimit", 200)
                .containsEntry("ThrottlingBurstLimit", 400);
        assertThat(map(routes.get(PushChannel.MESSAGE.routeKey()))).containsEntry("ThrottlingRateLimit", 800)
                .containsEntry("ThrottlingBurstLimit", 1600);

        Map<String, Object> logs = map(stage.get("AccessLogSettings"));
        Map<String, Object> logGroup = props(resources.get(getAttId(logs.get("DestinationArn"))));
        assertThat(logGroup).containsEntry("LogGroupName", "/Gamefleet/push/access")
                .containsEntry("RetentionInDays", DeploymentContext.DEFAULT_LOG_RETENTION_DAYS);
        assertThat((String) logs.get("Format")).contains("$context.requestId", "$context.identity.userArn",
                "$context.connectionId", "$context.eventType", "$context.routeKey", "$context.status");
    }

    @Test
    void aSmallerFleetGetsSmallerThrottles() {
        Template small = Template.fromStack(stack(Map.of(DeploymentContext.EXPECTED_GAME_SERVERS, 300)));
        Map<String, Map<String, Object>> stages = small.findResources("AWS::ApiGatewayV2::Stage",
                Map.of("Properties", Map.of("StageName", STAGE.stage())));
        Map<String, Object> routes = map(props(stages.values().iterator().next()).get("RouteSettings"));
        // ceil(1.2 * 300 / 60) = 6 connects; ceil(1.2 * (300 / 30 + 300 / 30)) = 24 messages per second.
        assertThat(map(routes.get(PushChannel.CONNECT.routeKey()))).containsEntry("ThrottlingRateLimit", 6)
                .containsEntry("ThrottlingBurstLimit", 12);
        assertThat(map(routes.get(PushChannel.MESSAGE.routeKey()))).containsEntry("ThrottlingRateLimit", 24)
                .containsEntry("ThrottlingBurstLimit", 48);
    }

    @Test
    void alarmsForTheChannelsFailuresRefusalsAndUndeliveredNotices() {
        Map<String, Map<String, Object>> alarms = new HashMap<>();
        ofType("AWS::CloudWatch::Alarm").values().forEach(a -> alarms.put((String) props(a).get("AlarmName"), props(a)));
        Object stageDimension = Map.of("Name", "Stage", "Value", STAGE.stage());

        // The handlers answer their faults with a 500: IntegrationError counts those, ExecutionError
        // only a function API Gateway could not call.
        Map<String, Object> errors = alarms.get(STAGE.prefix() + "Push-Errors");
        assertThat(errors).containsEntry("DatapointsToAlarm", 2).containsEntry("EvaluationPeriods", 3)
                .containsEntry("Threshold", 5);
        assertThat(String.valueOf(errors.get("Metrics"))).contains("integration + execution", "IntegrationError",
                "ExecutionError", "AWS/ApiGateway", "Name=ApiId, Value=" + ref(pushApiId()), "Name=Stage, Value=" + STAGE.stage());

        String refused = String.valueOf(alarms.get(STAGE.prefix() + "Push-Refused-Rate").get("Metrics"));
        assertThat(refused).contains("IF(requests >= 100, 100 * (client + integration) / requests, 0)",
                "connects + messages", "ClientError", "IntegrationError", "ConnectCount", "MessageCount",
                ref(pushApiId()).toString());

        Map<String, Object> undelivered = alarms.get(STAGE.prefix() + "Push-UndeliveredNotices");
        assertThat(undelivered).containsEntry("Namespace", Catalog.METRICS_NAMESPACE)
                .containsEntry("MetricName", Catalog.UNDELIVERED_NOTICES).containsEntry("Threshold", 10);
        assertThat(listOf(undelivered.get("Dimensions"))).containsExactly(stageDimension);
        assertThat(Set.of(errors, undelivered)).allSatisfy(a -> assertThat(a.get("AlarmActions"))
                .isEqualTo(List.of(ref(onlyResourceOf("AWS::SNS::Topic")))));
    }

    @Test
    void theDashboardShowsTheChannelsTrafficErrorsAndUndeliveredNotices() {
        String body = render(props(resources.get(onlyResourceOf("AWS::CloudWatch::Dashboard"))).get("DashboardBody"));
        assertThat(body).contains("ConnectCount", "MessageCount", "ClientError", "IntegrationError", "ExecutionError",
                Catalog.UNDELIVERED_NOTICES, "<" + pushApiId() + ">");
    }

    @Test
    void outputsTheWssUrlTheAgentsConnectTo() {
        // The output's name is the agents' contract (docs/agent.md's user data reads it).
        Map<String, Object> outputs = cast(template.toJSON().get("Outputs"));
        String endpoint = render(map(outputs.get("PushEndpoint")).get("Value"));
        assertThat(endpoint).isEqualTo("wss://<" + pushApiId() + ">.execute-api.<AWS::Region>.<AWS::URLSuffix>/"
                + STAGE.stage());
    }
}

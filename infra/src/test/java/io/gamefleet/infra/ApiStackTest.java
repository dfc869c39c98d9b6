package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The HTTP API (Api, the catalog's Throttles): its routes, their integrations and the default stage. */
class ApiStackTest extends SynthesizedStack {
    @Test
    void oneIamAuthorizedRoutePerRestRouteAndCborPathAndTheJsonDoor() {
        assertThat(ofApi("AWS::ApiGatewayV2::Route", httpApiId())).hasSize(2 * Routes.ALL.size()
                + Routes.EXTENSIONS.size() + 1);
        Set<String> routeKeys = new HashSet<>();
        for (Map<String, Object> route : ofApi("AWS::ApiGatewayV2::Route", httpApiId()).values()) {
            assertThat(props(route)).containsEntry("AuthorizationType", "AWS_IAM");
            routeKeys.add((String) props(route).get("RouteKey"));
        }
        Set<String> expected = new HashSet<>();
        Routes.ALL.forEach(r -> expected.add(r.method() + " " + r.path()));
        Routes.ALL.forEach(r -> expected.add("POST /service/GameLift/operation/" + r.operation().fleetIqName()));
        Routes.EXTENSIONS.forEach(e -> expected.add(e.routeKey()));
        expected.add("POST /");
        assertThat(routeKeys).isEqualTo(expected);
    }

    @Test
    void eachRouteIntegratesTheLiveAliasOfItsOwnHandler() {
        for (Map<String, Object> routeResource : ofApi("AWS::ApiGatewayV2::Route", httpApiId()).values()) {
            Map<String, Object> p = props(routeResource);
            String functionName = Routes.ALL.stream()
                    .filter(r -> (r.method() + " " + r.path()).equals(p.get("RouteKey"))
                            || ("POST " + r.operation().cborPath()).equals(p.get("RouteKey")))
                    .map(Route::functionName).findFirst()
                    .or(() -> Routes.EXTENSIONS.stream().filter(e -> e.routeKey().equals(p.get("RouteKey")))
                            .map(e -> e.functionName()).findFirst())
                    .orElse(Routes.JSON_DOOR.functionName());
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
        assertThat(ofApi("AWS::ApiGatewayV2::Stage", httpApiId())).hasSize(1);
        Map<String, Object> stage = props(ofApi("AWS::ApiGatewayV2::Stage", httpApiId()).values().iterator().next());
        assertThat(stage).containsEntry("StageName", "$default").containsEntry("AutoDeploy", true)
                .containsKey("DefaultRouteSettings");
        Map<String, Object> logs = map(stage.get("AccessLogSettings"));
        String logGroupId = getAttId(logs.get("DestinationArn"));
        assertThat(props(resources.get(logGroupId))).containsEntry("RetentionInDays",
                DeploymentContext.DEFAULT_LOG_RETENTION_DAYS);
        assertThat((String) logs.get("Format")).contains("$context.requestId", "$context.identity.userArn",
                "$context.routeKey", "$context.status");
    }
}

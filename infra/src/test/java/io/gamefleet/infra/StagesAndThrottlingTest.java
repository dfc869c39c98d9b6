package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.assertions.Template;

/** Two stages live side by side in one account and region; the API's throttles hold the fleet they were sized for. */
class StagesAndThrottlingTest {
    /** Properties that CloudFormation takes as physical names, unique per account and region. */
    private static final Pattern PHYSICAL_NAME = Pattern.compile(
            "\"(FunctionName|StateMachineName|Name|AlarmName|LogGroupName|DashboardName)\":\"([^\"]+)\"");
    private static final Pattern SCALING_GROUP_ARN = Pattern.compile("autoScalingGroupName/([^\"*]+)\\*");

    @TempDir
    static Path temp;

    @Test
    void twoStagesShareNoNameAndEachReachesOnlyItsOwnScalingGroups() throws IOException {
        String prod = synth(Map.of(), "Gamefleet-prod");
        String staging = synth(Map.of(DeploymentContext.STAGE, "staging"), "Gamefleet-staging");

        Set<String> prodNames = names(prod);
        Set<String> stagingNames = names(staging);
        assertThat(prodNames).hasSizeGreaterThan(30);
        assertThat(stagingNames).doesNotContainAnyElementsOf(prodNames);
        assertThat(prodNames).contains("gamefleet-prod-ClaimGameServer");
        assertThat(stagingNames).contains("gamefleet-staging-ClaimGameServer");

        // Its own prefix, and its former one for the groups it created before (the stage tag keeps those apart).
        assertThat(scalingGroupPrefixes(prod)).containsExactlyInAnyOrder("gamefleet-prod_", "gamefleet-prod-");
        assertThat(scalingGroupPrefixes(staging)).containsExactlyInAnyOrder("gamefleet-staging_", "gamefleet-staging-");
        assertThat(staging).contains("\"GAMEFLEET_SCALING_GROUP_PREFIX\":\"gamefleet-staging_\"");
    }

    @Test
    void twoStagesGroupsNeverShareAScalingGroupName() throws IOException {
        // prod + eu-arena and prod-eu + arena were both gamefleet-prod-eu-arena.
        String prod = synth(Map.of(), "Gamefleet-prod");
        String prodEu = synth(Map.of(DeploymentContext.STAGE, "prod-eu"), "Gamefleet-prod-eu");
        String prodPrefix = prefixSetting(prod);
        String prodEuPrefix = prefixSetting(prodEu);
        assertThat(prodPrefix + "eu-arena").isEqualTo("gamefleet-prod_eu-arena").isNotEqualTo(prodEuPrefix + "arena");
        assertThat(prodEuPrefix + "arena").isEqualTo("gamefleet-prod-eu_arena");
        assertThat(prodEuPrefix).doesNotStartWith(prodPrefix);
    }

    private static String prefixSetting(String template) {
        Matcher m = Pattern.compile("\"GAMEFLEET_SCALING_GROUP_PREFIX\":\"([^\"]+)\"").matcher(template);
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    @Test
    void snapStartIsOnWhereTheRegionHasItUnlessContextSaysOtherwise() throws IOException {
        Map<String, Object> byRegion = template(Map.of(), "Gamefleet-prod").findMappings("*").values().iterator().next();
        assertThat(byRegion).containsEntry("us-east-1", Map.of("ApplyOn", "PublishedVersions"))
                .containsEntry("mx-central-1", Map.of("ApplyOn", "None"))
                .containsOnlyKeys(SupportedRegions.ALL);
        assertThat(synth(Map.of(DeploymentContext.SNAP_START, "on"), "Gamefleet-prod"))
                .contains("\"SnapStart\":{\"ApplyOn\":\"PublishedVersions\"}").doesNotContain("SnapStartByRegion");
        assertThat(synth(Map.of(DeploymentContext.SNAP_START, "off"), "Gamefleet-prod")).doesNotContain("\"SnapStart\":");
        assertThatThrownBy(() -> synth(Map.of(DeploymentContext.SNAP_START, "maybe"), "Gamefleet-x"))
                .hasMessageContaining(DeploymentContext.SNAP_START);
    }

    @Test
    void aStageMustBeAShortLowerCaseName() {
        assertThatThrownBy(() -> synth(Map.of(DeploymentContext.STAGE, "Prod_1"), "Gamefleet-x"))
                .hasMessageContaining("context stage");
        assertThatThrownBy(() -> new StageNames("a-very-long-stage-name-x")).hasMessageContaining("1 to 20");
    }

    @Test
    void theDefaultsHoldTenThousandGameServersHeartbeatingEvery30Seconds() throws IOException {
        Map<String, Map<String, Object>> routes = routeSettings(Map.of());
        double heartbeats = 10_000 / 30.0;
        for (String key : List.of(routeKey(Operation.UPDATE_GAME_SERVER), "POST " + Operation.UPDATE_GAME_SERVER.cborPath(),
                "POST /")) {
            assertThat(rate(routes, key)).as(key).isGreaterThanOrEqualTo(heartbeats);
            assertThat(((Number) routes.get(key).get("ThrottlingBurstLimit")).intValue()).as(key)
                    .isGreaterThanOrEqualTo((int) (2 * heartbeats));
        }
        // What no fleet size changes keeps FleetIQ's published quotas.
        assertThat(rate(routes, routeKey(Operation.CREATE_GAME_SERVER_GROUP))).isEqualTo(0.1);
        assertThat(routes.get(routeKey(Operation.CREATE_GAME_SERVER_GROUP))).containsEntry("ThrottlingBurstLimit", 5);
        assertThat(rate(routes, routeKey(Operation.CLAIM_GAME_SERVER))).isEqualTo(24.0);
        assertThat(routes.get(routeKey(Operation.CLAIM_GAME_SERVER))).containsEntry("ThrottlingBurstLimit", 48);
        // Every REST route, CBOR path, Gamefleet route and the JSON door has its own limits.
        assertThat(routes).hasSize(2 * Routes.ALL.size() + Routes.EXTENSIONS.size() + 1);
        assertThat(routes.get(Routes.DESCRIBE_GAME_SERVER_PROCESS.routeKey())).containsEntry("ThrottlingBurstLimit", 30);
        // A session is a claim: ClaimGameServer's limits.
        assertThat(rate(routes, Routes.CREATE_SESSION.routeKey())).isEqualTo(24.0);
        assertThat(routes.get(Routes.CREATE_SESSION.routeKey())).containsEntry("ThrottlingBurstLimit", 48);
    }

    @Test
    void throttlesFollowTheFleetTheDeployerDescribes() throws IOException {
        Map<String, Map<String, Object>> routes = routeSettings(Map.of(DeploymentContext.EXPECTED_GAME_SERVERS, "50000",
                DeploymentContext.HEARTBEAT_SECONDS, "10", DeploymentContext.CLAIMS_PER_SECOND, "500"));
        assertThat(rate(routes, routeKey(Operation.UPDATE_GAME_SERVER))).isEqualTo(Math.ceil(1.2 * (5_000 + 2 * 500)));
        assertThat(rate(routes, routeKey(Operation.CLAIM_GAME_SERVER))).isEqualTo(600.0);
        assertThatThrownBy(() -> synth(Map.of(DeploymentContext.HEARTBEAT_SECONDS, "0"), "Gamefleet-x"))
                .hasMessageContaining(DeploymentContext.HEARTBEAT_SECONDS);
    }

    /** What one instance may do: two context keys, checked at synthesis, and given to the functions. */
    @Test
    void theInstanceLimitsAreContextKeysCheckedAtSynthesis() {
        assertThatThrownBy(() -> synth(Map.of("maxGameServersPerInstance", "0"), "Gamefleet-x"))
                .hasMessage("context maxGameServersPerInstance must be at least 1");
        assertThatThrownBy(() -> synth(Map.of("connectionInfoCheck", "maybe"), "Gamefleet-x"))
                .hasMessage("context connectionInfoCheck must be on or off, not maybe");
        assertThat(DeploymentContext.CONTEXT_SETTINGS).contains(io.gamefleet.catalog.Settings.MAX_GAME_SERVERS_PER_INSTANCE,
                io.gamefleet.catalog.Settings.CONNECTION_INFO_CHECK);
    }

    private static double rate(Map<String, Map<String, Object>> routes, String key) {
        return ((Number) routes.get(key).get("ThrottlingRateLimit")).doubleValue();
    }

    private static String routeKey(Operation operation) {
        Route route = Routes.of(operation);
        return route.method() + " " + route.path();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> routeSettings(Map<String, Object> context) throws IOException {
        Map<String, Map<String, Object>> stages = template(context, "Gamefleet-prod")
                .findResources("AWS::ApiGatewayV2::Stage", Map.of("Properties", Map.of("StageName", Api.STAGE)));
        Map<String, Object> stage = stages.values().iterator().next();
        return (Map<String, Map<String, Object>>) ((Map<String, Object>) stage.get("Properties")).get("RouteSettings");
    }

    private static Set<String> names(String template) {
        Set<String> names = new HashSet<>();
        Matcher m = PHYSICAL_NAME.matcher(template);
        while (m.find()) {
            // Alias names are per function; a bare word is an alarm dimension's name, not a resource's.
            if (!m.group(2).equals("live") && !m.group(2).matches("[A-Za-z]+")) {
                names.add(m.group(2));
            }
        }
        return names;
    }

    private static Set<String> scalingGroupPrefixes(String template) {
        Set<String> prefixes = new HashSet<>();
        Matcher m = SCALING_GROUP_ARN.matcher(template);
        while (m.find()) {
            prefixes.add(m.group(1));
        }
        return prefixes;
    }

    private static String synth(Map<String, Object> context, String stackName) throws IOException {
        return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(template(context, stackName).toJSON());
    }

    private static Template template(Map<String, Object> context, String stackName) {
        return Template.fromStack(TestApps.stack(temp, context, stackName));
    }
}

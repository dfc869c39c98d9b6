package io.gamefleet.api;

import static io.gamefleet.api.RestEvents.event;
import static io.gamefleet.api.RestEvents.json;
import static io.gamefleet.api.RestEvents.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.Workflows;
import io.gamefleet.domain.AutoScalingPolicy;
import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.DeleteOption;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerProtectionPolicy;
import io.gamefleet.domain.InstanceDefinition;
import io.gamefleet.domain.LaunchTemplate;
import io.gamefleet.domain.Tag;
import io.gamefleet.domain.fakes.RecordingWorkflowStarter;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.wiring.TestServices;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every API handler's mapping of its request to the domain call and of the result to the FleetIQ
 * output shape, through the REST routes on in-memory fakes; the group workflows' steps move the
 * group along as Step Functions would.
 */
class HandlersTest {
    private static final String ARENA = "/game-server-groups/arena";
    private static final String ARENA_ARN = "arn:aws:gamelift:us-east-1:000000000000:gameservergroup/arena";
    private static final String I0 = "i-0123456789abcdef0";
    private static final String I1 = "i-0123456789abcdef1";
    private static final Map<String, String> ARENA_PATH = Map.of("GameServerGroupName", "arena");
    /** A session of the local account's ADMIN role: the caller of every request here. */
    static final String ADMIN = "arn:aws:sts::" + io.gamefleet.catalog.LocalAccount.ACCOUNT_ID + ":assumed-role/"
            + io.gamefleet.catalog.LocalAccount.roleArn(io.gamefleet.catalog.Role.ADMIN).replaceAll(".*/", "") + "/ops";

    private final TestServices t = new TestServices();
    private final FunctionRegistry functions = new FunctionRegistry(t.services);

    private APIGatewayV2HTTPResponse call(Operation operation, String method, String path, Map<String, String> pathParameters,
            Map<String, String> query, String body) {
        return functions.api(operation).handleRequest(event(method, path, pathParameters, query, body, ADMIN), null);
    }

    private JsonNode create(String name, String body) {
        return ok(call(Operation.CREATE_GAME_SERVER_GROUP, "POST", "/game-server-groups", null, null, body)
                ).get("GameServerGroup");
    }

    private static String minimal(String name) {
        return """
                {"GameServerGroupName": "%s", "RoleArn": "arn:aws:iam::123456789012:role/fleetiq",
                 "MinSize": 0, "MaxSize": 4, "LaunchTemplate": {"LaunchTemplateName": "arena-lt"},
                 "InstanceDefinitions": [{"InstanceType": "c5.large"}, {"InstanceType": "m5.large"}]}""".formatted(name);
    }

    private Map<String, Object> step(io.gamefleet.catalog.WorkflowStep step, Map<String, Object> input) {
        return functions.step(step).handleRequest(input, null);
    }

    /** A group taken through its activation workflow, with two instances in service. */
    private void activeArena() {
        activate("arena", I0, I1);
    }

    private void activate(String group, String first, String second) {
        create(group, minimal(group));
        Map<String, Object> name = Map.of("GameServerGroupName", group);
        assertThat(step(Workflows.START_ACTIVATION, name)).isEmpty();
        Object asgArn = step(Workflows.CREATE_SCALING_GROUP, name).get("AutoScalingGroupArn");
        assertThat(asgArn).isInstanceOf(String.class);
        String asg = t.services.settings().autoScalingGroupName(group);
        assertThat(step(Workflows.CHECK_ACTIVATION, name)).isEqualTo(Map.of("Ready", false));
        t.compute.addInstance(asg, new ComputeInstance(first, "c5.large", "us-east-1a", true, false),
                Instant.parse("2099-12-31T23:00:00Z"));
        t.compute.addInstance(asg, new ComputeInstance(second, "m5.large", "us-east-1b", true, false),
                Instant.parse("2099-12-31T23:30:00Z"));
        assertThat(step(Workflows.CHECK_ACTIVATION, name)).isEqualTo(Map.of("Ready", true));
        assertThat(step(Workflows.COMPLETE_ACTIVATION, Map.of("GameServerGroupName", group, "AutoScalingGroupArn", asgArn)))
                .isEmpty();
        assertThat(t.groups.find(group).orElseThrow().autoScalingGroupArn()).isEqualTo(asgArn);
    }

    @Test
    void answersAndRefusalsCarryApiGatewaysRequestId() {
        var event = event("GET", "/game-server-groups/none", Map.of("GameServerGroupName", "none"), null, null);
        event.getRequestContext().setRequestId("Kq3bLgZZoAMEJzw=");
        APIGatewayV2HTTPResponse refused = functions.api(Operation.DESCRIBE_GAME_SERVER_GROUP).handleRequest(event, null);
        assertThat(refused.getStatusCode()).isEqualTo(404);
        assertThat(refused.getHeaders()).containsEntry("x-amzn-RequestId", "Kq3bLgZZoAMEJzw=");

        create("arena", minimal("arena"));
        var described = event("GET", "/game-server-groups/arena", ARENA_PATH, null, null);
        described.getRequestContext().setRequestId("LmN0pQrStUvWxYz=");
        assertThat(functions.api(Operation.DESCRIBE_GAME_SERVER_GROUP).handleRequest(described, null).getHeaders())
                .containsEntry("x-amzn-RequestId", "LmN0pQrStUvWxYz=").containsKey("Content-Type");
        // Without an id (not through API Gateway) the header is left out.
        assertThat(call(Operation.DESCRIBE_GAME_SERVER_GROUP, "GET", "/game-server-groups/arena", ARENA_PATH, null, null)
                .getHeaders()).doesNotContainKey("x-amzn-RequestId");
    }

    @Test
    void createMapsEveryMemberAndAnswersTheNewGroup() {
        JsonNode group = create("arena", """
                {"GameServerGroupName": "arena", "RoleArn": "arn:aws:iam::123456789012:role/fleetiq",
                 "MinSize": 1, "MaxSize": 4,
                 "LaunchTemplate": {"LaunchTemplateId": "lt-0123456789abcdef0", "Version": "3"},
                 "InstanceDefinitions": [{"InstanceType": "c5.large", "WeightedCapacity": "2"}, {"InstanceType": "m5.large"}],
                 "AutoScalingPolicy": {"EstimatedInstanceWarmup": 90, "TargetTrackingConfiguration": {"TargetValue": 0}},
                 "BalancingStrategy": "ON_DEMAND_ONLY", "GameServerProtectionPolicy": "FULL_PROTECTION",
                 "VpcSubnets": ["subnet-0123abcd"], "Tags": [{"Key": "team", "Value": "blue"}]}""");

        assertThat(group.get("GameServerGroupName").asText()).isEqualTo("arena");
        assertThat(group.get("GameServerGroupArn").asText()).isEqualTo(ARENA_ARN);
        assertThat(group.get("RoleArn").asText()).isEqualTo("arn:aws:iam::123456789012:role/fleetiq");
        assertThat(group.get("InstanceDefinitions")).hasToString(
                "[{\"InstanceType\":\"c5.large\",\"WeightedCapacity\":\"2\"},{\"InstanceType\":\"m5.large\"}]");
        assertThat(group.get("BalancingStrategy").asText()).isEqualTo("ON_DEMAND_ONLY");
        assertThat(group.get("GameServerProtectionPolicy").asText()).isEqualTo("FULL_PROTECTION");
        assertThat(group.get("Status").asText()).isEqualTo("NEW");
        assertThat(group.get("SuspendedActions")).hasToString("[]");
        assertThat(group.get("CreationTime").decimalValue()).isEqualByComparingTo("4102444800.000");
        assertThat(group.get("LastUpdatedTime").decimalValue()).isEqualByComparingTo("4102444800.000");
        assertThat(group.has("AutoScalingGroupArn")).isFalse();
        assertThat(group.has("StatusReason")).isFalse();

        GameServerGroup stored = t.groups.find("arena").orElseThrow();
        assertThat(stored.minSize()).isEqualTo(1);
        assertThat(stored.maxSize()).isEqualTo(4);
        assertThat(stored.launchTemplate()).isEqualTo(new LaunchTemplate("lt-0123456789abcdef0", null, "3"));
        assertThat(stored.instanceDefinitions()).containsExactly(new InstanceDefinition("c5.large", "2"),
                new InstanceDefinition("m5.large", null));
        assertThat(stored.autoScalingPolicy()).isEqualTo(new AutoScalingPolicy(90, 0.0));
        assertThat(stored.balancingStrategy()).isEqualTo(BalancingStrategy.ON_DEMAND_ONLY);
        assertThat(stored.protectionPolicy()).isEqualTo(GameServerProtectionPolicy.FULL_PROTECTION);
        assertThat(stored.vpcSubnets()).containsExactly("subnet-0123abcd");
        assertThat(stored.tags()).containsExactly(new Tag("team", "blue"));
        assertThat(t.workflows.started(RecordingWorkflowStarter.Workflow.ACTIVATION)).containsExactly("arena");
    }

    @Test
    void createLeavesOutWhatTheRequestLeavesOut() {
        create("arena", minimal("arena"));
        GameServerGroup stored = t.groups.find("arena").orElseThrow();
        assertThat(stored.launchTemplate()).isEqualTo(new LaunchTemplate(null, "arena-lt", null));
        assertThat(stored.autoScalingPolicy()).isNull();
        assertThat(stored.vpcSubnets()).isEmpty();
        assertThat(stored.tags()).isEmpty();
        assertThat(stored.balancingStrategy()).isEqualTo(GameServerGroup.builder().build().balancingStrategy());
        assertThat(stored.protectionPolicy()).isEqualTo(GameServerGroup.builder().build().protectionPolicy());

        create("other", minimal("other").replace("\"MinSize\"",
                "\"AutoScalingPolicy\": {\"TargetTrackingConfiguration\": {\"TargetValue\": 62.5}}, \"MinSize\""));
        assertThat(t.groups.find("other").orElseThrow().autoScalingPolicy()).isEqualTo(new AutoScalingPolicy(null, 62.5));
    }

    @Test
    void describeAndListGroups() {
        activeArena();
        create("blue", minimal("blue"));
        JsonNode arena = ok(call(Operation.DESCRIBE_GAME_SERVER_GROUP, "GET", ARENA, ARENA_PATH, null, null))
                .get("GameServerGroup");
        assertThat(arena.get("Status").asText()).isEqualTo("ACTIVE");
        assertThat(arena.get("AutoScalingGroupArn").asText()).isEqualTo(t.groups.find("arena").orElseThrow()
                .autoScalingGroupArn());

        JsonNode first = ok(call(Operation.LIST_GAME_SERVER_GROUPS, "GET", "/game-server-groups", null,
                Map.of("Limit", "1"), null));
        assertThat(first.get("GameServerGroups")).hasSize(1);
        assertThat(first.get("GameServerGroups").get(0).get("GameServerGroupName").asText()).isEqualTo("arena");
        String token = first.get("NextToken").asText();
        JsonNode second = ok(call(Operation.LIST_GAME_SERVER_GROUPS, "GET", "/game-server-groups", null,
                Map.of("NextToken", token), null));
        assertThat(second.get("GameServerGroups")).hasSize(1);
        assertThat(second.get("GameServerGroups").get(0).get("GameServerGroupName").asText()).isEqualTo("blue");
        assertThat(second.has("NextToken")).isFalse();
    }

    @Test
    void updateSuspendAndResumeAGroup() {
        activeArena();
        JsonNode updated = ok(call(Operation.UPDATE_GAME_SERVER_GROUP, "PATCH", ARENA, ARENA_PATH, null, """
                {"RoleArn": "arn:aws:iam::123456789012:role/other",
                 "InstanceDefinitions": [{"InstanceType": "c5.xlarge", "WeightedCapacity": "2"}, {"InstanceType": "m5.xlarge"}],
                 "GameServerProtectionPolicy": "FULL_PROTECTION", "BalancingStrategy": "SPOT_ONLY"}""")).get("GameServerGroup");
        assertThat(updated.get("RoleArn").asText()).isEqualTo("arn:aws:iam::123456789012:role/other");
        assertThat(updated.get("InstanceDefinitions").get(0).get("InstanceType").asText()).isEqualTo("c5.xlarge");
        assertThat(updated.get("GameServerProtectionPolicy").asText()).isEqualTo("FULL_PROTECTION");
        assertThat(updated.get("BalancingStrategy").asText()).isEqualTo("SPOT_ONLY");

        JsonNode suspended = ok(call(Operation.SUSPEND_GAME_SERVER_GROUP, "POST", ARENA + "/suspend", ARENA_PATH, null,
                "{\"SuspendActions\": [\"REPLACE_INSTANCE_TYPES\"]}")).get("GameServerGroup");
        assertThat(suspended.get("SuspendedActions")).hasToString("[\"REPLACE_INSTANCE_TYPES\"]");
        JsonNode resumed = ok(call(Operation.RESUME_GAME_SERVER_GROUP, "POST", ARENA + "/resume", ARENA_PATH, null,
                "{\"ResumeActions\": [\"REPLACE_INSTANCE_TYPES\"]}")).get("GameServerGroup");
        assertThat(resumed.get("SuspendedActions")).hasToString("[]");
    }

    @Test
    void describeInstancesPagesAndFilters() {
        activeArena();
        JsonNode all = ok(call(Operation.DESCRIBE_GAME_SERVER_INSTANCES, "GET", ARENA + "/instances", ARENA_PATH, null,
                null));
        assertThat(all.get("GameServerInstances")).hasSize(2);
        assertThat(all.has("NextToken")).isFalse();
        JsonNode first = ok(call(Operation.DESCRIBE_GAME_SERVER_INSTANCES, "GET", ARENA + "/instances", ARENA_PATH,
                Map.of("Limit", "1"), null));
        assertThat(first.get("GameServerInstances")).hasSize(1);
        assertThat(first.has("NextToken")).isTrue();

        JsonNode one = ok(call(Operation.DESCRIBE_GAME_SERVER_INSTANCES, "GET", ARENA + "/instances", ARENA_PATH,
                Map.of("InstanceIds", I1), null)).get("GameServerInstances");
        assertThat(one).hasSize(1);
        JsonNode instance = one.get(0);
        assertThat(instance.get("GameServerGroupName").asText()).isEqualTo("arena");
        assertThat(instance.get("GameServerGroupArn").asText()).isEqualTo(ARENA_ARN);
        assertThat(instance.get("InstanceId").asText()).isEqualTo(I1);
        assertThat(instance.get("InstanceStatus").asText()).isEqualTo("ACTIVE");
        assertThat(instance.get("InstanceType").asText()).isEqualTo("m5.large");
        assertThat(instance.get("LaunchTime").decimalValue()).isEqualByComparingTo("4102443000.000");
    }

    @Test
    void gameServersFromRegistrationToDeregistration() {
        activeArena();
        JsonNode registered = ok(call(Operation.REGISTER_GAME_SERVER, "POST", ARENA + "/game-servers", ARENA_PATH, null,
                "{\"GameServerId\": \"gs-1\", \"InstanceId\": \"" + I0 + "\", \"ConnectionInfo\": \"10.0.0.1:7777\","
                        + " \"GameServerData\": \"map=dust\"}")).get("GameServer");
        assertThat(registered.get("GameServerGroupName").asText()).isEqualTo("arena");
        assertThat(registered.get("GameServerGroupArn").asText()).isEqualTo(ARENA_ARN);
        assertThat(registered.get("GameServerId").asText()).isEqualTo("gs-1");
        assertThat(registered.get("InstanceId").asText()).isEqualTo(I0);
        assertThat(registered.get("ConnectionInfo").asText()).isEqualTo("10.0.0.1:7777");
        assertThat(registered.get("GameServerData").asText()).isEqualTo("map=dust");
        assertThat(registered.get("UtilizationStatus").asText()).isEqualTo("AVAILABLE");
        assertThat(registered.get("InstanceStatus").asText()).isEqualTo("ACTIVE");
        assertThat(registered.get("RegistrationTime").decimalValue()).isEqualByComparingTo("4102444800.000");
        assertThat(registered.get("LastHealthCheckTime").decimalValue()).isEqualByComparingTo("4102444800.000");
        assertThat(registered.has("ClaimStatus")).isFalse();
        assertThat(registered.has("LastClaimTime")).isFalse();

        t.clock.advance(Duration.ofMillis(1500));
        JsonNode plain = ok(call(Operation.REGISTER_GAME_SERVER, "POST", ARENA + "/game-servers", ARENA_PATH, null,
                "{\"GameServerId\": \"gs-2\", \"InstanceId\": \"" + I1 + "\"}")).get("GameServer");
        assertThat(plain.has("ConnectionInfo")).isFalse();
        assertThat(plain.has("GameServerData")).isFalse();
        assertThat(plain.get("RegistrationTime").decimalValue()).isEqualByComparingTo("4102444801.500");

        Map<String, String> gs1 = Map.of("GameServerGroupName", "arena", "GameServerId", "gs-1");
        JsonNode described = ok(call(Operation.DESCRIBE_GAME_SERVER, "GET", ARENA + "/game-servers/gs-1", gs1, null, null))
                .get("GameServer");
        assertThat(described).isEqualTo(registered);

        JsonNode descending = ok(call(Operation.LIST_GAME_SERVERS, "GET", ARENA + "/game-servers", ARENA_PATH,
                Map.of("SortOrder", "DESCENDING", "Limit", "1"), null));
        assertThat(descending.get("GameServers")).hasSize(1);
        assertThat(descending.get("GameServers").get(0).get("GameServerId").asText()).isEqualTo("gs-2");
        assertThat(descending.get("GameServers").get(0).get("GameServerGroupArn").asText()).isEqualTo(ARENA_ARN);
        assertThat(descending.has("NextToken")).isTrue();
        JsonNode ascending = ok(call(Operation.LIST_GAME_SERVERS, "GET", ARENA + "/game-servers", ARENA_PATH, null, null));
        List<String> ids = new ArrayList<>();
        ascending.get("GameServers").forEach(s -> ids.add(s.get("GameServerId").asText()));
        assertThat(ids).containsExactly("gs-1", "gs-2");

        t.clock.advance(Duration.ofSeconds(10));
        JsonNode updated = ok(call(Operation.UPDATE_GAME_SERVER, "PATCH", ARENA + "/game-servers/gs-1", gs1, null,
                "{\"UtilizationStatus\": \"UTILIZED\", \"HealthCheck\": \"HEALTHY\", \"GameServerData\": \"map=nuke\"}"))
                .get("GameServer");
        assertThat(updated.get("UtilizationStatus").asText()).isEqualTo("UTILIZED");
        assertThat(updated.get("GameServerData").asText()).isEqualTo("map=nuke");
        assertThat(updated.get("LastHealthCheckTime").decimalValue()).isEqualByComparingTo("4102444811.500");
        JsonNode dataOnly = ok(call(Operation.UPDATE_GAME_SERVER, "PATCH", ARENA + "/game-servers/gs-1", gs1, null,
                "{\"GameServerData\": \"map=inferno\"}")).get("GameServer");
        assertThat(dataOnly.get("UtilizationStatus").asText()).isEqualTo("UTILIZED");
        assertThat(dataOnly.get("GameServerData").asText()).isEqualTo("map=inferno");

        APIGatewayV2HTTPResponse deregistered = call(Operation.DEREGISTER_GAME_SERVER, "DELETE",
                ARENA + "/game-servers/gs-1", gs1, null, null);
        assertThat(ok(deregistered)).hasToString("{}");
        assertThat(t.servers.find("gs-1")).isEmpty();
        assertThat(call(Operation.DESCRIBE_GAME_SERVER, "GET", ARENA + "/game-servers/gs-1", gs1, null, null)
                .getStatusCode()).isEqualTo(404);
    }

    @Test
    void claimTakesAnAvailableServerOfTheFilteredInstanceStatuses() {
        activeArena();
        APIGatewayV2HTTPResponse none = call(Operation.CLAIM_GAME_SERVER, "POST", ARENA + "/claim", ARENA_PATH, null, "{}");
        assertThat(none.getStatusCode()).as(none.getBody()).isEqualTo(409);
        assertThat(json(none).get("__type").asText()).isEqualTo("OutOfCapacityException");
        ok(call(Operation.REGISTER_GAME_SERVER, "POST", ARENA + "/game-servers", ARENA_PATH, null,
                "{\"GameServerId\": \"gs-1\", \"InstanceId\": \"" + I0 + "\"}"));
        APIGatewayV2HTTPResponse drainingOnly = call(Operation.CLAIM_GAME_SERVER, "POST", ARENA + "/claim", ARENA_PATH,
                null, "{\"FilterOption\": {\"InstanceStatuses\": [\"DRAINING\"]}}");
        assertThat(json(drainingOnly).get("Message").asText()).isEqualTo("FilterOption.InstanceStatuses must contain ACTIVE");

        JsonNode claimed = ok(call(Operation.CLAIM_GAME_SERVER, "POST", ARENA + "/claim", ARENA_PATH, null,
                "{\"FilterOption\": {\"InstanceStatuses\": [\"ACTIVE\"]}, \"GameServerData\": \"team=red\"}"))
                .get("GameServer");
        assertThat(claimed.get("GameServerId").asText()).isEqualTo("gs-1");
        assertThat(claimed.get("ClaimStatus").asText()).isEqualTo("CLAIMED");
        assertThat(claimed.get("GameServerData").asText()).isEqualTo("team=red");
        assertThat(claimed.get("LastClaimTime").decimalValue()).isEqualByComparingTo("4102444800.000");
        assertThat(claimed.get("GameServerGroupArn").asText()).isEqualTo(ARENA_ARN);

        t.clock.advance(Duration.ofSeconds(61));
        JsonNode expired = ok(call(Operation.DESCRIBE_GAME_SERVER, "GET", ARENA + "/game-servers/gs-1",
                Map.of("GameServerGroupName", "arena", "GameServerId", "gs-1"), null, null)).get("GameServer");
        assertThat(expired.has("ClaimStatus")).isFalse();
        JsonNode named = ok(call(Operation.CLAIM_GAME_SERVER, "POST", ARENA + "/claim", ARENA_PATH, null,
                "{\"GameServerId\": \"gs-1\"}")).get("GameServer");
        assertThat(named.get("ClaimStatus").asText()).isEqualTo("CLAIMED");
    }

    @Test
    void deleteIsSafeUnlessTheQuerySaysOtherwiseAndTheDeletionWorkflowEndsIt() {
        activeArena();
        activate("blue", "i-0123456789abcdef2", "i-0123456789abcdef3");
        JsonNode safe = ok(call(Operation.DELETE_GAME_SERVER_GROUP, "DELETE", "/game-server-groups/blue",
                Map.of("GameServerGroupName", "blue"), null, null)).get("GameServerGroup");
        assertThat(safe.get("Status").asText()).isEqualTo("DELETE_SCHEDULED");
        assertThat(t.groups.find("blue").orElseThrow().deleteOption()).isEqualTo(DeleteOption.SAFE_DELETE);

        ok(call(Operation.DELETE_GAME_SERVER_GROUP, "DELETE", ARENA, ARENA_PATH, Map.of("DeleteOption", "FORCE_DELETE"),
                null));
        assertThat(t.groups.find("arena").orElseThrow().deleteOption()).isEqualTo(DeleteOption.FORCE_DELETE);
        assertThat(t.workflows.started(RecordingWorkflowStarter.Workflow.DELETION)).containsExactly("blue", "arena");

        Map<String, Object> name = Map.of("GameServerGroupName", "arena");
        assertThat(step(Workflows.CHECK_READY_TO_DELETE, name)).isEqualTo(Map.of("Ready", true));
        assertThat(step(Workflows.START_DELETING, name)).isEmpty();
        assertThat(t.groups.find("arena").orElseThrow().status()).isEqualTo(GameServerGroupStatus.DELETING);
        assertThat(step(Workflows.DELETE_SCALING_GROUP, name)).isEqualTo(Map.of("Ready", true));
        assertThat(step(Workflows.PURGE_GROUP_RECORDS, name)).isEqualTo(Map.of("Ready", true));
        assertThat(t.instances.listAll("arena")).isEmpty();
        assertThat(step(Workflows.COMPLETE_DELETION, name)).isEmpty();
        assertThat(t.groups.find("arena").orElseThrow().status()).isEqualTo(GameServerGroupStatus.DELETED);
    }

    @Test
    void anErrorIsItsRestStatusWithTypeAndMessage() {
        APIGatewayV2HTTPResponse missing = call(Operation.DESCRIBE_GAME_SERVER_GROUP, "GET", ARENA, ARENA_PATH, null, null);
        assertThat(missing.getStatusCode()).isEqualTo(404);
        assertThat(missing.getHeaders()).containsEntry("Content-Type", "application/json");
        JsonNode body = json(missing);
        assertThat(body.get("__type").asText()).isEqualTo("NotFoundException");
        assertThat(body.get("Message").asText()).contains("arena");
    }
}

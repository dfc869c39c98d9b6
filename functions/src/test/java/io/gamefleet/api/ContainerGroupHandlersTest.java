package io.gamefleet.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.catalog.Workflows;
import io.gamefleet.domain.AutoScalingPolicy;
import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.ContainerCompute;
import io.gamefleet.domain.ContainerCompute.ContainerCapacity;
import io.gamefleet.domain.TaskDefinitions.Container;
import io.gamefleet.domain.TaskDefinitions.TaskDefinition;
import io.gamefleet.domain.fakes.FakeTaskDefinitions;
import io.gamefleet.domain.fakes.RecordingWorkflowStarter.Workflow;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.wiring.TestServices;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * CreateContainerGroup through its handler: a container group stored and activated, then read
 * with FleetIQ's operations (its tasks as instances); every refusal a 400 naming its member, with
 * nothing stored and no workflow started.
 */
class ContainerGroupHandlersTest {
    private static final String ADMIN = RestEvents.session(Role.ADMIN, "alice");
    private static final String TASK = "i-0123456789abcdef0";
    private static final Map<String, String> PATH = Map.of("GameServerGroupName", "arena");

    private final TestServices test = new TestServices();
    private final FunctionRegistry registry = new FunctionRegistry(test.services);

    @BeforeEach
    void definitions() {
        TaskDefinition runnable = FakeTaskDefinitions.runnable("game");
        test.taskDefinitions.put("game", runnable);
        test.taskDefinitions.put("arm", new TaskDefinition(FakeTaskDefinitions.arn("arm"), runnable.containers(),
                Set.of("FARGATE", "EC2"), "ARM64", "awsvpc"));
        test.taskDefinitions.put("bridge", new TaskDefinition(FakeTaskDefinitions.arn("bridge"), runnable.containers(),
                Set.of("EC2"), "X86_64", "bridge"));
        test.taskDefinitions.put("ec2-only", new TaskDefinition(FakeTaskDefinitions.arn("ec2-only"), runnable.containers(),
                Set.of("EC2"), "X86_64", "awsvpc"));
        test.taskDefinitions.put("fargate-only", new TaskDefinition(FakeTaskDefinitions.arn("fargate-only"),
                runnable.containers(), Set.of("FARGATE"), "X86_64", "awsvpc"));
        test.taskDefinitions.put("portless", new TaskDefinition(FakeTaskDefinitions.arn("portless"),
                List.of(new Container("server", "x", true, List.of())), Set.of("FARGATE"), "X86_64", "awsvpc"));
        test.taskDefinitions.put("helpers", new TaskDefinition(FakeTaskDefinitions.arn("helpers"),
                List.of(new Container("helper", "x", false, List.of(1))), Set.of("FARGATE"), "X86_64", "awsvpc"));
    }

    private APIGatewayV2HTTPResponse create(String body, String caller) {
        return registry.extension(Routes.CREATE_CONTAINER_GROUP).handleRequest(
                RestEvents.event("POST", "/container-groups", Map.of(), null, body, caller), null);
    }

    private Map<String, Object> step(io.gamefleet.catalog.WorkflowStep step, Map<String, Object> input) {
        return registry.step(step).handleRequest(input, null);
    }

    @Test
    void aContainerGroupIsCreatedAnsweredAsFleetIqsGroupAndReadWithFleetIqsOperations() {
        JsonNode created = RestEvents.ok(create("""
                {"GameServerGroupName": "arena", "MinSize": 1, "MaxSize": 8, "TaskDefinition": "game",
                 "OnDemandBase": 2, "BalancingStrategy": "SPOT_ONLY", "GameServerProtectionPolicy": "FULL_PROTECTION",
                 "AutoScalingPolicy": {"EstimatedInstanceWarmup": 60, "TargetTrackingConfiguration": {"TargetValue": 62.5}},
                 "VpcSubnets": ["subnet-0123456789abcdef0"], "Tags": [{"Key": "team", "Value": "blue"}]}""", ADMIN))
                .get("GameServerGroup");

        assertThat(created.get("GameServerGroupName").asText()).isEqualTo("arena");
        assertThat(created.get("GameServerGroupArn").asText()).isEqualTo(test.services.settings().groupArn("arena"));
        assertThat(created.get("InstanceDefinitions")).isEmpty();
        assertThat(created.has("RoleArn")).isFalse();
        assertThat(created.get("Status").asText()).isEqualTo("NEW");
        assertThat(created.get("BalancingStrategy").asText()).isEqualTo("SPOT_ONLY");
        assertThat(created.get("GameServerProtectionPolicy").asText()).isEqualTo("FULL_PROTECTION");
        var stored = test.groups.find("arena").orElseThrow();
        assertThat(stored.containers()).isEqualTo(new ContainerCompute(FakeTaskDefinitions.arn("game"), "server",
                ContainerCapacity.FARGATE_SPOT, 2));
        assertThat(stored.autoScalingGroupName()).isEqualTo(test.services.settings().containerServiceName("arena"));
        assertThat(stored.autoScalingPolicy()).as("the balancer tracks it").isEqualTo(new AutoScalingPolicy(60, 62.5));
        assertThat(stored.vpcSubnets()).containsExactly("subnet-0123456789abcdef0");
        assertThat(stored.tags()).hasSize(1);
        assertThat(test.workflows.started()).singleElement().satisfies(s -> assertThat(s.workflow()).isEqualTo(Workflow.ACTIVATION));

        // The activation, as Step Functions runs it, with one running task.
        Map<String, Object> name = Map.of("GameServerGroupName", "arena");
        step(Workflows.START_ACTIVATION, name);
        Object serviceArn = step(Workflows.CREATE_SCALING_GROUP, name).get("AutoScalingGroupArn");
        test.compute.addInstance(stored.autoScalingGroupName(), new ComputeInstance(TASK, "FARGATE_SPOT", "us-east-1a",
                true, false), Instant.parse("2099-12-31T23:00:00Z"));
        assertThat(step(Workflows.CHECK_ACTIVATION, name)).isEqualTo(Map.of("Ready", true));
        step(Workflows.COMPLETE_ACTIVATION, Map.of("GameServerGroupName", "arena", "AutoScalingGroupArn", serviceArn));

        JsonNode described = RestEvents.ok(registry.api(Operation.DESCRIBE_GAME_SERVER_GROUP).handleRequest(
                RestEvents.event("GET", "/game-server-groups/arena", PATH, null, null, ADMIN), null)).get("GameServerGroup");
        assertThat(described.get("Status").asText()).isEqualTo("ACTIVE");
        assertThat(described.get("AutoScalingGroupArn").asText()).isEqualTo(serviceArn);
        assertThat(described.get("InstanceDefinitions")).isEmpty();

        JsonNode listed = RestEvents.ok(registry.api(Operation.LIST_GAME_SERVER_GROUPS).handleRequest(
                RestEvents.event("GET", "/game-server-groups", null, null, null, ADMIN), null)).get("GameServerGroups");
        assertThat(listed).singleElement().satisfies(g -> assertThat(g).isEqualTo(described));

        JsonNode instances = RestEvents.ok(registry.api(Operation.DESCRIBE_GAME_SERVER_INSTANCES).handleRequest(
                RestEvents.event("GET", "/game-server-groups/arena/instances", PATH, null, null, ADMIN), null))
                .get("GameServerInstances");
        assertThat(instances).singleElement().satisfies(i -> {
            assertThat(i.get("InstanceId").asText()).isEqualTo(TASK);
            assertThat(i.get("InstanceType").asText()).isEqualTo("FARGATE_SPOT");
            assertThat(i.get("InstanceStatus").asText()).isEqualTo("ACTIVE");
        });

        // The task's agent, in its task role's session (named after the task), registers a game server with
        // the task's instance id; another task's session may not; a claim takes it.
        String register = "{\"GameServerId\": \"gs-1\", \"InstanceId\": \"" + TASK + "\", \"ConnectionInfo\": \"10.0.0.1:7777\"}";
        assertThat(registry.api(Operation.REGISTER_GAME_SERVER).handleRequest(RestEvents.event("POST",
                "/game-server-groups/arena/game-servers", PATH, null, register,
                RestEvents.session(Role.GAME_SERVER, "fedcba9876543210fedcba9876543210")), null).getStatusCode())
                .isEqualTo(403);
        RestEvents.ok(registry.api(Operation.REGISTER_GAME_SERVER).handleRequest(RestEvents.event("POST",
                "/game-server-groups/arena/game-servers", PATH, null, register,
                RestEvents.session(Role.GAME_SERVER, "0123456789abcdef0123456789abcdef")), null));
        JsonNode claimed = RestEvents.ok(registry.api(Operation.CLAIM_GAME_SERVER).handleRequest(RestEvents.event("POST",
                "/game-server-groups/arena/claim", PATH, null, "{}", ADMIN), null)).get("GameServer");
        assertThat(claimed.get("InstanceId").asText()).isEqualTo(TASK);
    }

    @Test
    void theDefaultsAreFargateSpotWithoutABaseAndTheOnlyEssentialContainer() {
        RestEvents.ok(create("{\"GameServerGroupName\": \"arena\", \"MinSize\": 0, \"MaxSize\": 2,"
                + " \"TaskDefinition\": \"game\"}", ADMIN));
        assertThat(test.groups.find("arena").orElseThrow().containers()).isEqualTo(new ContainerCompute(
                FakeTaskDefinitions.arn("game"), "server", ContainerCapacity.FARGATE_SPOT, 0));
        assertThat(test.groups.find("arena").orElseThrow().autoScalingPolicy()).as("no target tracking").isNull();
        assertThat(test.taskDefinitions.asked()).containsExactly("game");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "\"TaskDefinition\": \"missing\"                                  | TaskDefinition: missing is not a task definition",
        "\"TaskDefinition\": \"helpers\"                                  | TaskDefinition: it has no essential container",
        "\"TaskDefinition\": \"game\", \"GameServerContainerName\": \"x\"   | GameServerContainerName: the task definition has no container x",
        "\"TaskDefinition\": \"game\", \"GameServerContainerName\": \"log-router\" | GameServerContainerName: container log-router is not essential",
        "\"TaskDefinition\": \"portless\"                                 | TaskDefinition: container server has no port mapping",
        "\"TaskDefinition\": \"arm\"                                      | Capacity: Fargate Spot runs x86-64 only",
        "\"TaskDefinition\": \"ec2-only\"                                 | Capacity: FARGATE_SPOT needs a task definition compatible with FARGATE",
        "\"TaskDefinition\": \"fargate-only\", \"Capacity\": \"EC2\"        | Capacity: EC2 needs a task definition compatible with EC2",
        "\"TaskDefinition\": \"bridge\", \"Capacity\": \"EC2\"              | TaskDefinition: its network mode is bridge",
        "\"TaskDefinition\": \"game\", \"Capacity\": \"EC2\", \"OnDemandBase\": 1 | OnDemandBase: only FARGATE_SPOT has an On-Demand base",
        "\"TaskDefinition\": \"game\", \"Capacity\": \"FARGATE\"            | Capacity: must be one of [FARGATE_SPOT, EC2]",
        "\"TaskDefinition\": \"game\", \"OnDemandBase\": -1                | OnDemandBase: must be a whole number from 0 to 100000",
        "\"TaskDefinition\": \"game lobby\"                               | TaskDefinition: must be a string matching",
        "\"TaskDefinition\": \"game\", \"GameServerContainerName\": 7      | GameServerContainerName: must be a string matching",
        "\"TaskDefinition\": \"game\", \"BalancingStrategy\": \"CHEAP\"     | BalancingStrategy",
        "\"TaskDefinition\": \"game\", \"Tags\": [{\"Key\": \"gamefleet:x\", \"Value\": \"y\"}] | Tags: the key gamefleet:x is reserved",
        "\"TaskDefinition\": \"game\", \"RoleArn\": \"arn:aws:iam::1:role/x\" | RoleArn: is not a member of CreateContainerGroup's input",
        "\"Capacity\": \"EC2\"                                            | TaskDefinition: is required",
        "\"TaskDefinition\": \"game\", \"AutoScalingPolicy\": {}            | AutoScalingPolicy.TargetTrackingConfiguration: is required",
        "\"TaskDefinition\": \"game\", \"AutoScalingPolicy\": {\"TargetTrackingConfiguration\": {\"TargetValue\": -1}} | AutoScalingPolicy.TargetTrackingConfiguration.TargetValue: must be at least 0",
        "\"TaskDefinition\": \"game\", \"AutoScalingPolicy\": {\"TargetTrackingConfiguration\": {\"TargetValue\": \"50\"}} | AutoScalingPolicy.TargetTrackingConfiguration.TargetValue: must be a number",
        "\"TaskDefinition\": \"game\", \"AutoScalingPolicy\": {\"EstimatedInstanceWarmup\": 0, \"TargetTrackingConfiguration\": {\"TargetValue\": 50}} | AutoScalingPolicy.EstimatedInstanceWarmup: must be at least 1",
        "\"TaskDefinition\": \"game\", \"AutoScalingPolicy\": {\"TargetTrackingConfiguration\": {\"TargetValue\": 50, \"DisableScaleIn\": true}} | AutoScalingPolicy.TargetTrackingConfiguration.DisableScaleIn: is not a member",
    })
    void aRefusalIsA400NamingTheMemberWithNothingStoredNorStarted(String members, String message) {
        APIGatewayV2HTTPResponse refused = create("{\"GameServerGroupName\": \"arena\", \"MinSize\": 0, \"MaxSize\": 2, "
                + members + "}", ADMIN);

        assertThat(refused.getStatusCode()).as(refused.getBody()).isEqualTo(400);
        assertThat(RestEvents.json(refused).get("__type").asText()).isEqualTo("InvalidRequestException");
        assertThat(RestEvents.json(refused).get("Message").asText()).startsWith(message);
        assertThat(test.groups.find("arena")).isEmpty();
        assertThat(test.workflows.started()).isEmpty();
    }

    @Test
    void theSizesAndNameAreHeldToCreateGameServerGroupsRules() {
        for (String body : List.of("{\"GameServerGroupName\": \"arena\", \"MaxSize\": 2, \"TaskDefinition\": \"game\"}",
                "{\"GameServerGroupName\": \"arena\", \"MinSize\": 3, \"MaxSize\": 2, \"TaskDefinition\": \"game\"}",
                "{\"GameServerGroupName\": \"arena\", \"MinSize\": 0, \"MaxSize\": 0, \"TaskDefinition\": \"game\"}",
                "{\"GameServerGroupName\": \"are_na\", \"MinSize\": 0, \"MaxSize\": 2, \"TaskDefinition\": \"game\"}")) {
            APIGatewayV2HTTPResponse refused = create(body, ADMIN);
            assertThat(refused.getStatusCode()).as(body).isEqualTo(400);
        }
        assertThat(test.groups.find("arena")).isEmpty();
        assertThat(test.groups.find("are_na")).isEmpty();
        assertThat(test.workflows.started()).isEmpty();
    }

    @Test
    void onlyAnAdministratorCreatesOne() {
        for (Role role : List.of(Role.MATCHMAKER, Role.GAME_SERVER)) {
            APIGatewayV2HTTPResponse refused = create("{\"GameServerGroupName\": \"arena\", \"MinSize\": 0,"
                    + " \"MaxSize\": 2, \"TaskDefinition\": \"game\"}", RestEvents.session(role, "i-0aaaaaaaaaaaaaaaa"));
            assertThat(refused.getStatusCode()).isEqualTo(403);
        }
        assertThat(test.groups.find("arena")).isEmpty();
        assertThat(test.taskDefinitions.asked()).isEmpty();
    }
}

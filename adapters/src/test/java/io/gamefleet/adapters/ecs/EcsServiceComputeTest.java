package io.gamefleet.adapters.ecs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.ContainerTasks;
import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.Compute.ComputeException;
import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.Compute.LaunchedInstance;
import io.gamefleet.domain.Compute.ScalingGroupState;
import io.gamefleet.domain.ContainerCompute;
import io.gamefleet.domain.ContainerCompute.ContainerCapacity;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.InstanceDefinition;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The ECS adapter through the SDK's ECS client, against {@link EcsStub} on a socket. */
class EcsServiceComputeTest {
    static final String SERVICE = SidecarTaskDefinitionTest.SERVICE;
    static final String SERVICE_ARN = "arn:aws:ecs:us-east-1:123456789012:service/gamefleet-prod/" + SERVICE;
    static final String TASK_DEFINITION = "arn:aws:ecs:us-east-1:123456789012:task-definition/" + SERVICE + ":1";
    static final String TASK_1 = "arn:aws:ecs:us-east-1:123456789012:task/gamefleet-prod/0123456789abcdef0123456789abcdef";
    static final String TASK_2 = "arn:aws:ecs:us-east-1:123456789012:task/gamefleet-prod/fedcba9876543210fedcba9876543210";
    static final Instant NOW = Instant.parse("2026-12-02T12:00:00Z");

    private final EcsStub ecs = new EcsStub();
    private final EcsServiceCompute compute = new EcsServiceCompute(ecs.client(), SidecarTaskDefinitionTest.SETTINGS, "prod",
            group -> "gamefleet-prod_tasks_" + group, this::publicAddresses, Clock.fixed(NOW, ZoneOffset.UTC));
    /** EC2's answer for the public addresses of the interfaces asked, and what was asked. */
    private final List<List<String>> askedInterfaces = new java.util.ArrayList<>();

    private Map<String, List<String>> publicAddresses(java.util.Collection<String> interfaces) {
        askedInterfaces.add(List.copyOf(interfaces));
        return Map.of("eni-1", List.of("54.20.1.9", "ec2-54-20-1-9.compute-1.amazonaws.com"));
    }

    @AfterEach
    void stop() {
        ecs.close();
    }

    // --- Creation ---------------------------------------------------------------------------

    @Test
    void createRegistersTheDerivedDefinitionAndCreatesTheServiceOnItsCapacityProviders() {
        ecs.answer("DescribeServices", missing())
                .answer("DescribeTaskDefinition", "{\"taskDefinition\": " + STUDIO + "}")
                .answer("RegisterTaskDefinition", "{\"taskDefinition\": {\"taskDefinitionArn\": \"" + TASK_DEFINITION + "\"}}")
                .answer("CreateService", "{\"service\": {\"serviceArn\": \"" + SERVICE_ARN + "\"}}");

        assertThat(compute.createScalingGroup(SidecarTaskDefinitionTest.group())).isEqualTo(SERVICE_ARN);

        assertThat(ecs.operations()).containsExactly("DescribeServices", "DescribeTaskDefinition",
                "RegisterTaskDefinition", "CreateService");
        assertThat(ecs.only("DescribeServices").toString()).isEqualTo(
                "{\"cluster\":\"gamefleet-prod\",\"services\":[\"" + SERVICE + "\"],\"include\":[\"TAGS\"]}");
        assertThat(ecs.only("DescribeTaskDefinition").toString()).isEqualTo("{\"taskDefinition\":\"arena:3\"}");
        JsonNode registered = ecs.only("RegisterTaskDefinition");
        assertThat(registered.get("family").asText()).isEqualTo(SERVICE);
        assertThat(registered.get("taskRoleArn").asText()).isEqualTo("arn:aws:iam::123456789012:role/gamefleet-prod-task");
        assertThat(registered.findValuesAsText("name")).contains("server", "gamefleet-agent", "GSDK_CONFIG_FILE");
        assertThat(registered.get("containerDefinitions").get(0).get("dependsOn").toString())
                .isEqualTo("[{\"containerName\":\"gamefleet-agent\",\"condition\":\"HEALTHY\"}]");

        assertThat(ecs.only("CreateService").get("deploymentConfiguration").toString())
                .as("a new strategy's deployment keeps every task running until its replacements start")
                .isEqualTo("{\"maximumPercent\":200,\"minimumHealthyPercent\":100}");
        assertThat(ecs.only("CreateService").toString()).isEqualTo(("{'cluster':'gamefleet-prod','serviceName':'" + SERVICE
                + "','taskDefinition':'" + TASK_DEFINITION + "','desiredCount':1,'capacityProviderStrategy':["
                + "{'capacityProvider':'FARGATE','weight':0,'base':2},{'capacityProvider':'FARGATE_SPOT','weight':1}],"
                + "'deploymentConfiguration':{'maximumPercent':200,'minimumHealthyPercent':100},"
                + "'networkConfiguration':{'awsvpcConfiguration':{'subnets':['subnet-a','subnet-b'],"
                + "'securityGroups':['sg-tasks'],'assignPublicIp':'ENABLED'}},'tags':["
                + "{'key':'gamefleet:game-server-group','value':'arena'},{'key':'gamefleet:stage','value':'prod'},"
                + "{'key':'gamefleet:min-size','value':'1'},{'key':'gamefleet:max-size','value':'10'}],"
                + "'enableECSManagedTags':true,'propagateTags':'SERVICE'}").replace('\'', '"'));
    }

    @Test
    void everyRequestIsEcsJson11SignedWithTheStaticCredentialsForTheRegion() {
        ecs.answer("DescribeServices", missing());

        compute.describeScalingGroup(SERVICE);

        EcsStub.Call call = ecs.calls().get(0);
        assertThat(call.method() + " " + call.path()).isEqualTo("POST /");
        assertThat(call.header("X-Amz-Target")).isEqualTo("AmazonEC2ContainerServiceV20141113.DescribeServices");
        assertThat(call.header("Content-Type")).isEqualTo("application/x-amz-json-1.1");
        assertThat(call.header("Authorization")).startsWith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")
                .contains("/us-east-1/ecs/aws4_request");
        assertThat(System.getenv("AWS_EC2_METADATA_DISABLED")).as("the build keeps the metadata address out of reach")
                .isEqualTo("true");
    }

    @Test
    void anEcsGroupOnEc2CapacityGivesNoStrategyAndNoPublicAddress() {
        ecs.answer("DescribeServices", missing())
                .answer("DescribeTaskDefinition", "{\"taskDefinition\": " + STUDIO.replace("FARGATE", "EC2") + "}")
                .answer("RegisterTaskDefinition", "{\"taskDefinition\": {\"taskDefinitionArn\": \"" + TASK_DEFINITION + "\"}}")
                .answer("CreateService", "{\"service\": {\"serviceArn\": \"" + SERVICE_ARN + "\"}}");
        GameServerGroup onEc2 = SidecarTaskDefinitionTest.group().toBuilder().vpcSubnets(List.of("subnet-own"))
                .containers(new ContainerCompute("arena:3", "server", ContainerCapacity.EC2, 0)).build();

        compute.createScalingGroup(onEc2);

        JsonNode created = ecs.only("CreateService");
        assertThat(created.has("capacityProviderStrategy")).isFalse();
        assertThat(created.at("/networkConfiguration/awsvpcConfiguration").toString())
                .isEqualTo("{\"subnets\":[\"subnet-own\"],\"securityGroups\":[\"sg-tasks\"]}");
        assertThat(ecs.only("RegisterTaskDefinition").get("requiresCompatibilities").toString()).isEqualTo("[\"EC2\"]");
    }

    @Test
    void aRetriedCreateFindsTheActiveServiceOfItsFirstAttempt() {
        ecs.answer("DescribeServices", services(service("ACTIVE", 1, 0, "arena", "prod")));

        assertThat(compute.createScalingGroup(SidecarTaskDefinitionTest.group())).isEqualTo(SERVICE_ARN);
        assertThat(ecs.operations()).containsExactly("DescribeServices");
    }

    @Test
    void createRefusesToAdoptAServiceGamefleetDidNotCreateAndWaitsForOneBeingDeleted() {
        for (String foreign : List.of(service("ACTIVE", 1, 0, "arena", "prod-eu"), service("ACTIVE", 1, 0, "other", "prod"),
                service("ACTIVE", 1, 0, null, null))) {
            ecs.answer("DescribeServices", services(foreign));
            ComputeException e = catchThrowableOfType(ComputeException.class,
                    () -> compute.createScalingGroup(SidecarTaskDefinitionTest.group()));
            assertThat(e).hasMessageContaining("was not created by Gamefleet for game server group arena of stage prod");
            assertThat(e.retryable()).isFalse();
        }
        ecs.answer("DescribeServices", services(service("DRAINING", 0, 0, "arena", "prod")));
        assertThat(catchThrowableOfType(ComputeException.class,
                () -> compute.createScalingGroup(SidecarTaskDefinitionTest.group())).retryable()).isTrue();
        assertThat(ecs.operations()).containsOnly("DescribeServices");
    }

    @Test
    void aMissingTaskDefinitionOrOneThatCannotTakeTheSidecarIsRefusedBeforeAnyRegistration() {
        ecs.answer("DescribeServices", missing())
                .fail("DescribeTaskDefinition", 400, "ClientException", "Unable to describe task definition.");
        ComputeException missing = catchThrowableOfType(ComputeException.class,
                () -> compute.createScalingGroup(SidecarTaskDefinitionTest.group()));
        assertThat(missing).hasMessage("Task definition arena:3 does not exist");
        assertThat(missing.retryable()).isFalse();

        ecs.answer("DescribeServices", missing()).answer("DescribeTaskDefinition",
                "{\"taskDefinition\": " + STUDIO.replace("\"name\": \"server\"", "\"name\": \"gamefleet-agent\"") + "}");
        assertThat(catchThrowableOfType(ComputeException.class,
                () -> compute.createScalingGroup(SidecarTaskDefinitionTest.group())).retryable()).isFalse();
        assertThat(ecs.operations()).doesNotContain("RegisterTaskDefinition", "CreateService");
    }

    @Test
    void aStageWithoutAClusterCreatesNothing() {
        EcsClusterSettings none = EcsClusterSettings.from(io.gamefleet.catalog.Settings.Setting::defaultValue, "us-east-1");
        EcsServiceCompute noContainers = new EcsServiceCompute(ecs.client(), none, "prod", group -> "gamefleet-prod_tasks_" + group,
                EcsServiceCompute.PublicAddresses.NONE, Clock.fixed(NOW, ZoneOffset.UTC));
        ComputeException e = catchThrowableOfType(ComputeException.class,
                () -> noContainers.createScalingGroup(SidecarTaskDefinitionTest.group()));
        assertThat(e).hasMessage("Stage prod runs no containers (GAMEFLEET_CONTAINER_CLUSTER is empty): " + SERVICE
                + " was not created");
        assertThat(e.retryable()).isFalse();
        assertThat(ecs.calls()).isEmpty();
    }

    // --- Errors -----------------------------------------------------------------------------

    @Test
    void throttlingAndEcsFaultsAreRetryableAndItsRefusalsAreNot() {
        Map<String, Boolean> retryable = Map.of("ThrottlingException", true, "ServerException", true,
                "ClientException", false, "InvalidParameterException", false);
        retryable.forEach((type, expected) -> {
            ecs.fail("DescribeServices", "ServerException".equals(type) ? 500 : 400, type, type + " says so");
            ComputeException e = catchThrowableOfType(ComputeException.class, () -> compute.setDesiredCapacity(SERVICE, 3));
            assertThat(e.retryable()).as(type).isEqualTo(expected);
            assertThat(e).hasMessage("ECS refused to describe " + SERVICE + ": " + type + " says so");
        });
        assertThat(ecs.operations()).as("no retry by the SDK, and nothing changed").hasSize(4).containsOnly("DescribeServices");
    }

    @Test
    void anUnreachableEcsIsRetryable() {
        ecs.close();
        ComputeException e = catchThrowableOfType(ComputeException.class, () -> compute.describeScalingGroup(SERVICE));
        assertThat(e).hasMessageStartingWith("Could not reach ECS to describe " + SERVICE);
        assertThat(e.retryable()).isTrue();
    }

    // --- Reads ------------------------------------------------------------------------------

    @Test
    void describeMapsTheServiceAndItsTasksReportingAProtectionNearItsEndAsNone() {
        ecs.answer("DescribeServices", services(service("ACTIVE", 2, 0, "arena", "prod")))
                .answer("ListTasks", "{\"taskArns\": [\"" + TASK_1 + "\"], \"nextToken\": \"page2\"}")
                .answer("ListTasks", "{\"taskArns\": [\"" + TASK_2 + "\"]}")
                .answer("DescribeTasks", "{\"tasks\": [" + task(TASK_1, "RUNNING", "FARGATE_SPOT", "us-east-1a") + ", "
                        + task(TASK_2, "PROVISIONING", "FARGATE", "us-east-1b") + "]}")
                .answer("GetTaskProtection", "{\"protectedTasks\": ["
                        + protection(TASK_1, true, NOW.plusSeconds(31 * 60)) + ", "
                        + protection(TASK_2, true, NOW.plusSeconds(29 * 60)) + "]}");

        ScalingGroupState state = compute.describeScalingGroup(SERVICE).orElseThrow();

        assertThat(state).isEqualTo(new ScalingGroupState(2, 1, 10,
                List.of(new InstanceDefinition("FARGATE", "0"), new InstanceDefinition("FARGATE_SPOT", "1")), false, List.of(
                        new ComputeInstance("i-0123456789abcdef0", "FARGATE_SPOT", "us-east-1a", true, true),
                        new ComputeInstance("i-fedcba9876543210f", "FARGATE", "us-east-1b", false, false))));
        assertThat(ecs.operations()).containsExactly("DescribeServices", "ListTasks", "ListTasks", "DescribeTasks",
                "GetTaskProtection");
        List<EcsStub.Call> lists = ecs.calls().stream().filter(c -> c.operation().equals("ListTasks")).toList();
        assertThat(lists.get(0).body().toString()).isEqualTo(
                "{\"cluster\":\"gamefleet-prod\",\"serviceName\":\"" + SERVICE + "\",\"desiredStatus\":\"RUNNING\"}");
        assertThat(lists.get(1).body().get("nextToken").asText()).isEqualTo("page2");
        assertThat(ecs.only("DescribeTasks").get("tasks")).hasSize(2);
        assertThat(ecs.only("GetTaskProtection").toString()).isEqualTo(
                "{\"cluster\":\"gamefleet-prod\",\"tasks\":[\"" + TASK_1 + "\",\"" + TASK_2 + "\"]}");
    }

    @Test
    void protectionIsAskedTenTasksAtATime() {
        List<String> arns = java.util.stream.IntStream.range(0, 12)
                .mapToObj(n -> TASK_1.substring(0, TASK_1.length() - 2) + String.format("%02x", n)).toList();
        ecs.answer("DescribeServices", services(service("ACTIVE", 12, 12, "arena", "prod")))
                .answer("ListTasks", "{\"taskArns\": [\"" + String.join("\", \"", arns) + "\"]}")
                .answer("DescribeTasks", "{\"tasks\": [" + String.join(", ",
                        arns.stream().map(a -> task(a, "RUNNING", "FARGATE_SPOT", "us-east-1a")).toList()) + "]}");

        assertThat(compute.describeInstances(SERVICE)).hasSize(12).noneMatch(ComputeInstance::protectedFromScaleIn);

        assertThat(ecs.calls().stream().filter(c -> c.operation().equals("GetTaskProtection"))
                .map(c -> c.body().get("tasks").size())).containsExactly(10, 2);
    }

    @Test
    void describeIsEmptyForAMissingInactiveOrForeignService() {
        for (String answer : List.of(missing(), services(service("INACTIVE", 0, 0, "arena", "prod")),
                services(service("ACTIVE", 1, 0, "arena", "prod-eu")))) {
            ecs.answer("DescribeServices", answer);
            assertThat(compute.describeScalingGroup(SERVICE)).as(answer).isEmpty();
            assertThat(compute.describeInstances(SERVICE)).isEmpty();
        }
        assertThat(ecs.operations()).containsOnly("DescribeServices");
    }

    @Test
    void launchedAnswersTheAskedRunningTasksCreationTimesAndAddresses() {
        String task3 = TASK_2.replace("fedcba", "abcdef");
        ecs.answer("ListTasks", "{\"taskArns\": [\"" + TASK_1 + "\", \"" + TASK_2 + "\", \"" + task3 + "\"]}")
                .answer("DescribeTasks", "{\"tasks\": [" + task(TASK_1, "RUNNING", "FARGATE_SPOT", "us-east-1a") + ", "
                        + task(TASK_2, "RUNNING", "FARGATE", "us-east-1b") + ", "
                        + task(task3, "PENDING", "FARGATE", "us-east-1b") + "]}");

        Map<String, LaunchedInstance> launched = compute.launched(SERVICE,
                List.of("i-0123456789abcdef0", ContainerTasks.instanceId(task3), "i-00000000000000000"));

        assertThat(launched).as("not yet RUNNING: asked again later").containsOnlyKeys("i-0123456789abcdef0");
        assertThat(launched.get("i-0123456789abcdef0")).isEqualTo(new LaunchedInstance(
                Instant.parse("2026-12-02T11:00:00.250Z"), List.of("10.0.1.23", "ip-10-0-1-23.ec2.internal",
                        "54.20.1.9", "ec2-54-20-1-9.compute-1.amazonaws.com")));
        assertThat(askedInterfaces).as("once, for the asked tasks' interfaces").containsExactly(List.of("eni-1"));
    }

    @Test
    void aTaskOnAnInterfaceEc2DoesNotDescribeYetIsLeftOutAndOneWithoutPublicAddressHasItsPrivateOnes() {
        ecs.answer("ListTasks", "{\"taskArns\": [\"" + TASK_1 + "\", \"" + TASK_2 + "\"]}")
                .answer("DescribeTasks", "{\"tasks\": [" + task(TASK_1, "RUNNING", "FARGATE_SPOT", "us-east-1a") + ", "
                        + task(TASK_2, "RUNNING", "FARGATE", "us-east-1b") + "]}");
        EcsServiceCompute ec2Lags = new EcsServiceCompute(ecs.client(), SidecarTaskDefinitionTest.SETTINGS, "prod",
                group -> "gamefleet-prod_tasks_" + group, ids -> Map.of("eni-2", List.of()), Clock.fixed(NOW, ZoneOffset.UTC));

        Map<String, LaunchedInstance> launched = ec2Lags.launched(SERVICE, List.of("i-0123456789abcdef0", "i-fedcba9876543210f"));

        assertThat(launched).containsOnlyKeys("i-fedcba9876543210f");
        assertThat(launched.get("i-fedcba9876543210f").addresses()).containsExactly("10.0.1.23", "ip-10-0-1-23.ec2.internal");
        assertThat(EcsServiceCompute.PublicAddresses.NONE.of(List.of("eni-1", "eni-1")))
                .isEqualTo(Map.of("eni-1", List.of()));
    }

    // --- Changes ----------------------------------------------------------------------------

    @Test
    void protectionIsSetForAnHourAndLiftedOnTheTaskOfThatInstanceId() {
        for (boolean on : List.of(true, false)) {
            ecs.answer("DescribeServices", services(service("ACTIVE", 2, 0, "arena", "prod")))
                    .answer("ListTasks", "{\"taskArns\": [\"" + TASK_2 + "\", \"" + TASK_1 + "\"]}");
            compute.setInstanceProtection(SERVICE, "i-0123456789abcdef0", on);
        }
        List<String> updates = ecs.calls().stream().filter(c -> c.operation().equals("UpdateTaskProtection"))
                .map(c -> c.body().toString()).toList();
        assertThat(updates).containsExactly(
                "{\"cluster\":\"gamefleet-prod\",\"tasks\":[\"" + TASK_1 + "\"],\"protectionEnabled\":true,\"expiresInMinutes\":60}",
                "{\"cluster\":\"gamefleet-prod\",\"tasks\":[\"" + TASK_1 + "\"],\"protectionEnabled\":false}");
    }

    @Test
    void aProtectionEcsDidNotSetIsAnError() {
        ecs.answer("DescribeServices", services(service("ACTIVE", 2, 0, "arena", "prod")))
                .answer("ListTasks", "{\"taskArns\": [\"" + TASK_1 + "\"]}")
                .answer("UpdateTaskProtection", "{\"failures\": [{\"arn\": \"" + TASK_1 + "\", \"reason\": \"TASK_NOT_VALID\"}]}");
        assertThatThrownBy(() -> compute.setInstanceProtection(SERVICE, "i-0123456789abcdef0", true))
                .isInstanceOf(ComputeException.class).hasMessageContaining("TASK_NOT_VALID");
    }

    @Test
    void terminationStopsTheTaskAndThenDecrementsTheDesiredCount() {
        ecs.answer("DescribeServices", services(service("ACTIVE", 3, 0, "arena", "prod")))
                .answer("ListTasks", "{\"taskArns\": [\"" + TASK_1 + "\"]}");

        compute.terminateInstance(SERVICE, "i-0123456789abcdef0", true);

        assertThat(ecs.operations()).containsExactly("DescribeServices", "ListTasks", "StopTask", "UpdateService");
        assertThat(ecs.only("UpdateService").toString())
                .isEqualTo("{\"cluster\":\"gamefleet-prod\",\"service\":\"" + SERVICE + "\",\"desiredCount\":2}");
        assertThat(ecs.only("StopTask").toString()).isEqualTo("{\"cluster\":\"gamefleet-prod\",\"task\":\"" + TASK_1
                + "\",\"reason\":\"Gamefleet terminated instance i-0123456789abcdef0\"}");
    }

    @Test
    void anInstanceIdOfNoTaskOfTheServiceIsRefusedAndNothingIsStopped() {
        ecs.answer("DescribeServices", services(service("ACTIVE", 3, 0, "arena", "prod")))
                .answer("ListTasks", "{\"taskArns\": [\"" + TASK_1 + "\"]}");
        assertThatThrownBy(() -> compute.terminateInstance(SERVICE, "i-fedcba9876543210f", true))
                .isInstanceOf(ComputeException.class)
                .hasMessage("Instance i-fedcba9876543210f is not a task of ECS service " + SERVICE + "; it was not stopped");
        assertThat(ecs.operations()).containsExactly("DescribeServices", "ListTasks");
    }

    @Test
    void theDesiredCountIsTheServicesAndTheTargetTrackingIsNone() {
        ecs.answer("DescribeServices", services(service("ACTIVE", 3, 0, "arena", "prod")));
        compute.setDesiredCapacity(SERVICE, 7);
        compute.setTargetTrackingScaleIn(SidecarTaskDefinitionTest.group(), false);
        assertThat(ecs.operations()).containsExactly("DescribeServices", "UpdateService");
        assertThat(ecs.only("UpdateService").get("desiredCount").asInt()).isEqualTo(7);
    }

    @Test
    void theBalancersProvidersBecomeTheStrategyWithTheirBasesAndAnUnchangedOneSendsNothing() {
        ContainerCompute containers = SidecarTaskDefinitionTest.group().containers();
        String fargateAlone = service("ACTIVE", 3, 0, "arena", "prod").replace("{\"capacityProvider\": \"FARGATE\", \"weight\": 0,"
                + " \"base\": 2}, {\"capacityProvider\": \"FARGATE_SPOT\", \"weight\": 1, \"base\": 0}",
                "{\"capacityProvider\": \"FARGATE\", \"weight\": 1, \"base\": 2}");
        ecs.answer("DescribeServices", services(service("ACTIVE", 3, 0, "arena", "prod")));
        compute.setInstanceTypes(SERVICE, containers.capacityProviders(BalancingStrategy.SPOT_PREFERRED),
                BalancingStrategy.SPOT_PREFERRED);
        ecs.answer("DescribeServices", services(service("ACTIVE", 3, 0, "arena", "prod")));
        compute.setInstanceTypes(SERVICE, containers.capacityProviders(BalancingStrategy.ON_DEMAND_ONLY),
                BalancingStrategy.ON_DEMAND_ONLY);
        ecs.answer("DescribeServices", services(fargateAlone));
        compute.setInstanceTypes(SERVICE, containers.capacityProviders(BalancingStrategy.SPOT_PREFERRED),
                BalancingStrategy.SPOT_PREFERRED);
        ecs.answer("DescribeServices", services(service("ACTIVE", 3, 0, "arena", "prod")));
        compute.setInstanceTypes(SERVICE, List.of(), BalancingStrategy.SPOT_PREFERRED);

        assertThat(ecs.operations()).as("the strategy it has, and the group's own (empty) definitions, send nothing")
                .containsExactly("DescribeServices", "DescribeServices", "UpdateService", "DescribeServices",
                        "UpdateService", "DescribeServices");
        List<JsonNode> updates = ecs.calls().stream().filter(c -> c.operation().equals("UpdateService"))
                .map(EcsStub.Call::body).toList();
        assertThat(updates.get(0).get("capacityProviderStrategy").toString()).as("Fargate Spot not viable: Fargate alone")
                .isEqualTo("[{\"capacityProvider\":\"FARGATE\",\"weight\":1,\"base\":2}]");
        assertThat(updates.get(1).get("capacityProviderStrategy").toString()).as("viable again: the group's own")
                .isEqualTo("[{\"capacityProvider\":\"FARGATE\",\"weight\":0,\"base\":2},"
                        + "{\"capacityProvider\":\"FARGATE_SPOT\",\"weight\":1}]");
        assertThat(updates).allSatisfy(u -> assertThat(u.get("forceNewDeployment").asBoolean()).isTrue());
    }

    @Test
    void everyChangeRefusesAServiceOfAnotherStageOrGroupAndSendsNothing() {
        List<Consumer<EcsServiceCompute>> changes = List.of(c -> c.setDesiredCapacity(SERVICE, 3),
                c -> c.setInstanceProtection(SERVICE, "i-0123456789abcdef0", true),
                c -> c.terminateInstance(SERVICE, "i-0123456789abcdef0", false),
                c -> c.setInstanceTypes(SERVICE, List.of(new InstanceDefinition("FARGATE", "1")), BalancingStrategy.ON_DEMAND_ONLY));
        for (String foreign : List.of(service("ACTIVE", 1, 0, "arena", "prod-eu"), service("ACTIVE", 1, 0, "other", "prod"),
                service("ACTIVE", 1, 0, null, null))) {
            for (Consumer<EcsServiceCompute> change : changes) {
                ecs.answer("DescribeServices", services(foreign));
                assertThatThrownBy(() -> change.accept(compute)).isInstanceOf(ComputeException.class)
                        .hasMessageContaining("it was not changed");
            }
        }
        assertThat(ecs.operations()).containsOnly("DescribeServices");
    }

    // --- Deletion ---------------------------------------------------------------------------

    @Test
    void safeDeletionShrinksTheServiceAndWaitsForItsTasks() {
        ecs.answer("DescribeServices", services(service("ACTIVE", 3, 2, "arena", "prod")))
                .answer("DescribeServices", services(service("ACTIVE", 0, 1, "arena", "prod")));

        assertThat(compute.deleteScalingGroup(SERVICE, false)).isFalse();
        assertThat(compute.deleteScalingGroup(SERVICE, false)).as("already shrunk: nothing sent").isFalse();

        assertThat(ecs.operations()).containsExactly("DescribeServices", "UpdateService", "DescribeServices");
        assertThat(ecs.only("UpdateService").get("desiredCount").asInt()).isZero();
    }

    @Test
    void deletionDeletesTheServiceAndItsDefinitionAndIsDoneOnceInactive() {
        ecs.answer("DescribeServices", services(service("ACTIVE", 0, 0, "arena", "prod")))
                .answer("DescribeServices", services(service("INACTIVE", 0, 0, "arena", "prod")));

        assertThat(compute.deleteScalingGroup(SERVICE, false)).isTrue();

        assertThat(ecs.operations()).containsExactly("DescribeServices", "DeleteService", "DeregisterTaskDefinition",
                "DescribeServices");
        assertThat(ecs.only("DeleteService").toString())
                .isEqualTo("{\"cluster\":\"gamefleet-prod\",\"service\":\"" + SERVICE + "\",\"force\":true}");
        assertThat(ecs.only("DeregisterTaskDefinition").toString()).isEqualTo("{\"taskDefinition\":\"" + TASK_DEFINITION + "\"}");
    }

    @Test
    void aDefinitionDeregisteredAlreadyIsNoFailureButAnEcsFaultIs() {
        ecs.answer("DescribeServices", services(service("ACTIVE", 0, 0, "arena", "prod")))
                .fail("DeregisterTaskDefinition", 400, "ClientException", "The specified task definition is inactive.")
                .answer("DescribeServices", services(service("DRAINING", 0, 0, "arena", "prod")));
        assertThat(compute.deleteScalingGroup(SERVICE, true)).isFalse();

        ecs.answer("DescribeServices", services(service("ACTIVE", 0, 0, "arena", "prod")))
                .fail("DeregisterTaskDefinition", 500, "ServerException", "try later");
        assertThat(catchThrowableOfType(ComputeException.class, () -> compute.deleteScalingGroup(SERVICE, true)).retryable())
                .isTrue();
    }

    @Test
    void forceDeletionDeletesAtOnceAndIsNotDoneWhileTheServiceDrains() {
        ecs.answer("DescribeServices", services(service("ACTIVE", 3, 3, "arena", "prod")))
                .answer("DescribeServices", services(service("DRAINING", 0, 3, "arena", "prod")))
                .answer("DescribeServices", services(service("DRAINING", 0, 3, "arena", "prod")))
                .answer("DescribeServices", missing());

        assertThat(compute.deleteScalingGroup(SERVICE, true)).isFalse();
        assertThat(compute.deleteScalingGroup(SERVICE, true)).as("draining: nothing sent again").isFalse();
        assertThat(compute.deleteScalingGroup(SERVICE, true)).as("gone").isTrue();

        assertThat(ecs.operations()).containsExactly("DescribeServices", "UpdateService", "DeleteService",
                "DeregisterTaskDefinition", "DescribeServices", "DescribeServices", "DescribeServices");
    }

    @Test
    void deletionLeavesAForeignServiceAloneAndIsDone() {
        ecs.answer("DescribeServices", services(service("ACTIVE", 3, 3, "arena", "prod-eu")));
        assertThat(compute.deleteScalingGroup(SERVICE, true)).isTrue();
        assertThat(ecs.operations()).containsExactly("DescribeServices");
    }

    // --- Fixtures ---------------------------------------------------------------------------

    /** The studio's definition as DescribeTaskDefinition answers it. */
    static final String STUDIO = """
            {"taskDefinitionArn": "arn:aws:ecs:us-east-1:123456789012:task-definition/arena:3", "family": "arena",
             "revision": 3, "status": "ACTIVE", "networkMode": "awsvpc", "requiresCompatibilities": ["FARGATE"],
             "cpu": "2048", "memory": "4096", "taskRoleArn": "arn:aws:iam::123456789012:role/studio-admin",
             "containerDefinitions": [{"name": "server", "image": "studio/arena:7", "essential": true,
               "portMappings": [{"containerPort": 7777, "protocol": "udp"}]}]}""";

    static String missing() {
        return "{\"services\": [], \"failures\": [{\"arn\": \"" + SERVICE_ARN + "\", \"reason\": \"MISSING\"}]}";
    }

    static String services(String service) {
        return "{\"services\": [" + service + "], \"failures\": []}";
    }

    /** {@code group}, {@code stage}: its tags' (null: no tags); its strategy SPOT_PREFERRED's with a base of 2. */
    static String service(String status, int desired, int running, String group, String stage) {
        String tags = group == null ? "[]" : "[{\"key\": \"gamefleet:game-server-group\", \"value\": \"" + group + "\"},"
                + " {\"key\": \"gamefleet:stage\", \"value\": \"" + stage + "\"},"
                + " {\"key\": \"gamefleet:min-size\", \"value\": \"1\"}, {\"key\": \"gamefleet:max-size\", \"value\": \"10\"}]";
        return "{\"serviceName\": \"" + SERVICE + "\", \"serviceArn\": \"" + SERVICE_ARN + "\", \"status\": \"" + status
                + "\", \"desiredCount\": " + desired + ", \"runningCount\": " + running + ", \"pendingCount\": 0,"
                + " \"taskDefinition\": \"" + TASK_DEFINITION + "\", \"capacityProviderStrategy\": ["
                + "{\"capacityProvider\": \"FARGATE\", \"weight\": 0, \"base\": 2},"
                + " {\"capacityProvider\": \"FARGATE_SPOT\", \"weight\": 1, \"base\": 0}], \"tags\": " + tags + "}";
    }

    static String task(String arn, String lastStatus, String provider, String zone) {
        return "{\"taskArn\": \"" + arn + "\", \"lastStatus\": \"" + lastStatus + "\", \"capacityProviderName\": \"" + provider
                + "\", \"availabilityZone\": \"" + zone + "\", \"createdAt\": 1796209200.25, \"attachments\": ["
                + "{\"type\": \"ElasticNetworkInterface\", \"status\": \"ATTACHED\", \"details\": ["
                + "{\"name\": \"subnetId\", \"value\": \"subnet-a\"}, {\"name\": \"networkInterfaceId\", \"value\": \""
                + (arn.equals(TASK_1) ? "eni-1" : "eni-2") + "\"}, {\"name\": \"privateIPv4Address\", \"value\": \"10.0.1.23\"},"
                + " {\"name\": \"privateDnsName\", \"value\": \"ip-10-0-1-23.ec2.internal\"}]}]}";
    }

    static String protection(String arn, boolean enabled, Instant expires) {
        return "{\"taskArn\": \"" + arn + "\", \"protectionEnabled\": " + enabled + ", \"expirationDate\": "
                + expires.getEpochSecond() + "}";
    }
}

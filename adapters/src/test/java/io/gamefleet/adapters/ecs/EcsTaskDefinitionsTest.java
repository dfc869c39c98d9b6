package io.gamefleet.adapters.ecs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gamefleet.domain.Compute.ComputeException;
import io.gamefleet.domain.TaskDefinitions.Container;
import io.gamefleet.domain.TaskDefinitions.TaskDefinition;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The task definitions port through the SDK's ECS client, against {@link EcsStub} on a socket. */
class EcsTaskDefinitionsTest {
    private final EcsStub ecs = new EcsStub();
    private final EcsTaskDefinitions definitions = new EcsTaskDefinitions(ecs.client());

    @AfterEach
    void stop() {
        ecs.close();
    }

    @Test
    void aDefinitionIsReadWithItsContainersPortsCompatibilitiesPlatformAndNetworkMode() {
        ecs.answer("DescribeTaskDefinition", """
                {"taskDefinition": {"taskDefinitionArn": "arn:aws:ecs:us-east-1:123456789012:task-definition/arena:3",
                 "status": "ACTIVE", "networkMode": "awsvpc", "requiresCompatibilities": ["FARGATE", "EC2"],
                 "runtimePlatform": {"cpuArchitecture": "ARM64", "operatingSystemFamily": "LINUX"},
                 "containerDefinitions": [
                   {"name": "server", "image": "studio/arena:7", "essential": true,
                    "portMappings": [{"containerPort": 7777, "protocol": "udp"}, {"containerPort": 7778}]},
                   {"name": "metrics", "image": "studio/metrics:1", "essential": false},
                   {"name": "relay", "image": "studio/relay:2"}]}}""");

        assertThat(definitions.describe("arena:3")).contains(new TaskDefinition(
                "arn:aws:ecs:us-east-1:123456789012:task-definition/arena:3",
                List.of(new Container("server", "studio/arena:7", true, List.of(7777, 7778)),
                        new Container("metrics", "studio/metrics:1", false, List.of()),
                        new Container("relay", "studio/relay:2", true, List.of())),
                Set.of("FARGATE", "EC2"), "ARM64", "awsvpc"));
        assertThat(ecs.only("DescribeTaskDefinition").toString()).isEqualTo("{\"taskDefinition\":\"arena:3\"}");
    }

    @Test
    void aDefinitionNamingNoPlatformOrModeHasNone() {
        ecs.answer("DescribeTaskDefinition", """
                {"taskDefinition": {"taskDefinitionArn": "arn:aws:ecs:us-east-1:123456789012:task-definition/arena:1",
                 "status": "ACTIVE", "containerDefinitions": []}}""");
        TaskDefinition found = definitions.describe("arena:1").orElseThrow();
        assertThat(found.cpuArchitecture()).isNull();
        assertThat(found.networkMode()).isNull();
        assertThat(found.compatibilities()).isEmpty();
    }

    @Test
    void anUnknownOrDeregisteredDefinitionIsNotFound() {
        ecs.fail("DescribeTaskDefinition", 400, "ClientException", "Unable to describe task definition.");
        assertThat(definitions.describe("nope:1")).isEmpty();
        ecs.answer("DescribeTaskDefinition", """
                {"taskDefinition": {"taskDefinitionArn": "arn:aws:ecs:us-east-1:123456789012:task-definition/arena:2",
                 "status": "INACTIVE", "containerDefinitions": []}}""");
        assertThat(definitions.describe("arena:2")).isEmpty();
    }

    @Test
    void anEcsFaultIsARetryableError() {
        ecs.fail("DescribeTaskDefinition", 500, "ServerException", "try later");
        ComputeException e = catchThrowableOfType(ComputeException.class, () -> definitions.describe("arena:3"));
        assertThat(e).hasMessage("ECS refused to describe task definition arena:3: try later");
        assertThat(e.retryable()).isTrue();
    }
}

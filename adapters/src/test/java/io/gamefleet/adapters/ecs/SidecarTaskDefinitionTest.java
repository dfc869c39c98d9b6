package io.gamefleet.adapters.ecs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.catalog.AgentSidecar;
import io.gamefleet.catalog.Catalog;
import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.ContainerCompute;
import io.gamefleet.domain.ContainerCompute.ContainerCapacity;
import io.gamefleet.domain.GameServerGroup;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ecs.model.Compatibility;
import software.amazon.awssdk.services.ecs.model.ContainerCondition;
import software.amazon.awssdk.services.ecs.model.ContainerDefinition;
import software.amazon.awssdk.services.ecs.model.ContainerDependency;
import software.amazon.awssdk.services.ecs.model.KeyValuePair;
import software.amazon.awssdk.services.ecs.model.LogConfiguration;
import software.amazon.awssdk.services.ecs.model.LogDriver;
import software.amazon.awssdk.services.ecs.model.MountPoint;
import software.amazon.awssdk.services.ecs.model.NetworkMode;
import software.amazon.awssdk.services.ecs.model.PortMapping;
import software.amazon.awssdk.services.ecs.model.RegisterTaskDefinitionRequest;
import software.amazon.awssdk.services.ecs.model.Tag;
import software.amazon.awssdk.services.ecs.model.TaskDefinition;
import software.amazon.awssdk.services.ecs.model.Volume;

class SidecarTaskDefinitionTest {
    static final EcsClusterSettings SETTINGS = new EcsClusterSettings("gamefleet-prod", List.of("subnet-a", "subnet-b"),
            "sg-tasks", "123456789012.dkr.ecr.us-east-1.amazonaws.com/gamefleet-agent:1", 
            "arn:aws:iam::123456789012:role/gamefleet-prod-task", "arn:aws:iam::123456789012:role/gamefleet-prod-execution",
            "/gamefleet/prod/containers", "us-east-1");
    static final String SERVICE = "gamefleet-prod_tasks_arena";

    /** The studio's: a game server container, a metrics container that logs elsewhere, their own role. */
    static TaskDefinition studio() {
        return TaskDefinition.builder()
                .taskDefinitionArn("arn:aws:ecs:us-east-1:123456789012:task-definition/arena:3")
                .family("arena")
                .taskRoleArn("arn:aws:iam::123456789012:role/studio-admin")
                .executionRoleArn("arn:aws:iam::123456789012:role/studio-execution")
                .networkMode(NetworkMode.AWSVPC)
                .requiresCompatibilities(Compatibility.FARGATE)
                .cpu("2048").memory("4096")
                .volumes(Volume.builder().name("maps").build())
                .containerDefinitions(
                        ContainerDefinition.builder().name("server").image("studio/arena:7").essential(true)
                                .portMappings(PortMapping.builder().containerPort(7777).build())
                                .environment(KeyValuePair.builder().name("MAP").value("dust").build(),
                                        KeyValuePair.builder().name("GSDK_CONFIG_FILE").value("/elsewhere.json").build())
                                .mountPoints(MountPoint.builder().sourceVolume("maps").containerPath("/maps").build())
                                .build(),
                        ContainerDefinition.builder().name("metrics").image("studio/metrics:1").essential(false)
                                .logConfiguration(LogConfiguration.builder().logDriver(LogDriver.SPLUNK).build())
                                .build())
                .build();
    }

    static GameServerGroup group() {
        return GameServerGroup.builder().name("arena").minSize(1).maxSize(10).autoScalingGroupName(SERVICE)
                .balancingStrategy(BalancingStrategy.SPOT_PREFERRED)
                .containers(new ContainerCompute("arena:3", "server", ContainerCapacity.FARGATE_SPOT, 2)).build();
    }

    private static final LogConfiguration LOGS = LogConfiguration.builder().logDriver(LogDriver.AWSLOGS)
            .options(Map.of("awslogs-group", "/gamefleet/prod/containers", "awslogs-region", "us-east-1",
                    "awslogs-stream-prefix", "arena")).build();

    @Test
    void theStudiosDefinitionRunsUnderTheStacksRolesWithTheAgentBesideIt() {
        RegisterTaskDefinitionRequest r = SidecarTaskDefinition.of(studio(), group(), SERVICE, "prod", SETTINGS);

        assertThat(r.family()).isEqualTo(SERVICE);
        assertThat(r.taskRoleArn()).as("never the studio's").isEqualTo(SETTINGS.taskRoleArn());
        assertThat(r.executionRoleArn()).isEqualTo(SETTINGS.taskExecutionRoleArn());
        assertThat(r.networkMode()).isEqualTo(NetworkMode.AWSVPC);
        assertThat(r.requiresCompatibilities()).containsExactly(Compatibility.FARGATE);
        assertThat(r.cpu()).isEqualTo("2048");
        assertThat(r.memory()).isEqualTo("4096");
        assertThat(r.volumes()).extracting(Volume::name).containsExactly("maps", AgentSidecar.VOLUME);
        assertThat(r.tags()).containsExactly(Tag.builder().key(Catalog.MANAGED_TAG_KEY).value("arena").build(),
                Tag.builder().key(Catalog.STAGE_TAG_KEY).value("prod").build());
        assertThat(r.containerDefinitions()).extracting(ContainerDefinition::name)
                .containsExactly("server", "metrics", "gamefleet-agent");
    }

    @Test
    void theGameServerContainerFindsTheGsdkFileOnTheSharedVolumeOnceTheAgentHasStarted() {
        ContainerDefinition server = container(SidecarTaskDefinition.of(studio(), group(), SERVICE, "prod", SETTINGS), "server");

        assertThat(server.environment()).as("the studio's own GSDK_CONFIG_FILE replaced").containsExactly(
                KeyValuePair.builder().name("MAP").value("dust").build(),
                KeyValuePair.builder().name("GSDK_CONFIG_FILE").value("/gamefleet/gsdk.json").build());
        assertThat(server.mountPoints()).containsExactly(
                MountPoint.builder().sourceVolume("maps").containerPath("/maps").build(),
                MountPoint.builder().sourceVolume("gamefleet").containerPath("/gamefleet").build());
        assertThat(server.dependsOn()).as("started once the agent has written its GSDK file")
                .containsExactly(ContainerDependency.builder().containerName("gamefleet-agent")
                .condition(ContainerCondition.HEALTHY).build());
        assertThat(server.portMappings()).extracting(PortMapping::containerPort).containsExactly(7777);
        assertThat(server.image()).isEqualTo("studio/arena:7");
        assertThat(server.logConfiguration()).as("it named none").isEqualTo(LOGS);
    }

    @Test
    void theSidecarIsToldTheGameServersPortsByTheirMappingsNames() {
        ContainerDefinition server = ContainerDefinition.builder().name("server").portMappings(
                PortMapping.builder().containerPort(7777).name("play").build(),
                PortMapping.builder().containerPort(7777).protocol("tcp").build(),
                PortMapping.builder().containerPort(27015).name("not a name").build(),
                PortMapping.builder().containerPort(8080).build()).build();

        assertThat(SidecarTaskDefinition.gamePorts(server)).as("one name per port, the mapping's where the agent takes it")
                .isEqualTo("{\"play\":{\"from\":7777,\"to\":7777},\"game\":{\"from\":27015,\"to\":27015},"
                        + "\"game2\":{\"from\":8080,\"to\":8080}}");
    }

    @Test
    void theSidecarRunsTheAgentInSidecarModeAndIsEssential() {
        RegisterTaskDefinitionRequest r = SidecarTaskDefinition.of(studio(), group(), SERVICE, "prod", SETTINGS);
        ContainerDefinition agent = container(r, "gamefleet-agent");

        assertThat(agent.image()).isEqualTo(SETTINGS.agentImage());
        assertThat(agent.essential()).isTrue();
        assertThat(agent.environment()).containsExactly(
                KeyValuePair.builder().name("GAMEFLEET_AGENT_MODE").value("sidecar").build(),
                KeyValuePair.builder().name("GSDK_CONFIG_FILE").value("/gamefleet/gsdk.json").build(),
                KeyValuePair.builder().name("GAMEFLEET_GAME_SERVER_GROUP").value("arena").build(),
                KeyValuePair.builder().name("GAMEFLEET_GAME_PORTS").value("{\"game\":{\"from\":7777,\"to\":7777}}").build());
        assertThat(agent.mountPoints()).containsExactly(
                MountPoint.builder().sourceVolume("gamefleet").containerPath("/gamefleet").build());
        assertThat(agent.healthCheck().command()).containsExactly("CMD-SHELL", "test -s \"$GSDK_CONFIG_FILE\"");
        assertThat(agent.portMappings()).as("its GSDK endpoint is on the task's localhost").isEmpty();
        assertThat(agent.logConfiguration()).isEqualTo(LOGS);
        assertThat(container(r, "metrics").logConfiguration().logDriver()).as("the studio's own").isEqualTo(LogDriver.SPLUNK);
        assertThat(container(r, "metrics").dependsOn()).isEmpty();
    }

    @Test
    void aDefinitionHoldingTheSidecarsNamesOrMissingTheGameServerContainerIsRefused() {
        TaskDefinition withAgent = studio().toBuilder().containerDefinitions(List.of(
                studio().containerDefinitions().get(0),
                ContainerDefinition.builder().name("gamefleet-agent").image("x").build())).build();
        assertThatThrownBy(() -> SidecarTaskDefinition.of(withAgent, group(), SERVICE, "prod", SETTINGS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("gamefleet-agent");

        TaskDefinition withVolume = studio().toBuilder().volumes(Volume.builder().name("gamefleet").build()).build();
        assertThatThrownBy(() -> SidecarTaskDefinition.of(withVolume, group(), SERVICE, "prod", SETTINGS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a volume named gamefleet");

        GameServerGroup other = group().toBuilder()
                .containers(new ContainerCompute("arena:3", "game", ContainerCapacity.FARGATE_SPOT, 0)).build();
        assertThatThrownBy(() -> SidecarTaskDefinition.of(studio(), other, SERVICE, "prod", SETTINGS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has no container named game");
    }

    private static ContainerDefinition container(RegisterTaskDefinitionRequest r, String name) {
        return r.containerDefinitions().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }
}

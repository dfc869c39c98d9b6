package io.gamefleet.adapters.ecs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.AgentSidecar;
import io.gamefleet.catalog.Catalog;
import io.gamefleet.domain.ContainerCompute;
import io.gamefleet.domain.GameServerGroup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.ecs.model.ContainerCondition;
import software.amazon.awssdk.services.ecs.model.ContainerDefinition;
import software.amazon.awssdk.services.ecs.model.ContainerDependency;
import software.amazon.awssdk.services.ecs.model.HealthCheck;
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

/**
 * The task definition a container group's service runs: the studio's, with the agent added as a
 * sidecar container. The rules, in one place:
 * <ul>
 * <li>its family is the service's name; its task role and execution role are the stack's, never
 * the studio's (the task role is what the sidecar calls Gamefleet with, so a studio's role would
 * give a game server's task any permissions it names);
 * <li>the studio's containers are kept as they are, and any without a log configuration logs to
 * the stack's log group;
 * <li>the sidecar {@value ContainerCompute#AGENT_CONTAINER} runs the agent image in sidecar mode, is
 * essential (a task without its agent cannot register its game server, so it ends and ECS
 * replaces it) and shares the task volume {@value AgentSidecar#VOLUME} with the game server
 * container, where it writes the GSDK configuration file that container's
 * {@value AgentSidecar#GSDK_CONFIG_FILE_VARIABLE} names;
 * <li>the sidecar is told the game server container's port mappings
 * ({@value AgentSidecar#GAME_PORTS_VARIABLE}), named as the mappings are where the agent takes the
 * name, else {@code game} (a name taken: {@code game2}, {@code game3}...): in {@code awsvpc} a container port is the task's port;
 * <li>the game server container starts once the sidecar is HEALTHY.
 * </ul>
 * A studio definition that already has a container or volume of the sidecar's names is refused.
 */
final class SidecarTaskDefinition {
    private SidecarTaskDefinition() {}

    /**
     * The definition registered for {@code group}'s service {@code serviceName} of {@code stage}, from
     * the studio's {@code studio}.
     *
     * @throws IllegalArgumentException where the studio's definition cannot take the sidecar
     */
    static RegisterTaskDefinitionRequest of(TaskDefinition studio, GameServerGroup group, String serviceName,
            String stage, EcsClusterSettings settings) {
        String gameServer = group.containers().gameServerContainer();
        if (studio.containerDefinitions().stream().noneMatch(c -> c.name().equals(gameServer))) {
            throw new IllegalArgumentException("Task definition " + studio.taskDefinitionArn()
                    + " has no container named " + gameServer);
        }
        if (studio.containerDefinitions().stream().anyMatch(c -> c.name().equals(ContainerCompute.AGENT_CONTAINER))
                || studio.volumes().stream().anyMatch(v -> v.name().equals(AgentSidecar.VOLUME))) {
            throw new IllegalArgumentException("Task definition " + studio.taskDefinitionArn() + " has a container named "
                    + ContainerCompute.AGENT_CONTAINER + " or a volume named " + AgentSidecar.VOLUME
                    + ", which are the Gamefleet agent sidecar's");
        }
        LogConfiguration logs = logs(group.name(), settings);
        ContainerDefinition gameServerDefinition = studio.containerDefinitions().stream()
                .filter(c -> c.name().equals(gameServer)).findFirst().orElseThrow();
        List<ContainerDefinition> containers = new ArrayList<>();
        for (ContainerDefinition c : studio.containerDefinitions()) {
            ContainerDefinition logged = c.logConfiguration() == null ? c.toBuilder().logConfiguration(logs).build() : c;
            containers.add(c.name().equals(gameServer) ? gameServerContainer(logged) : logged);
        }
        containers.add(sidecar(group.name(), settings, logs, gamePorts(gameServerDefinition)));
        List<Volume> volumes = new ArrayList<>(studio.volumes());
        volumes.add(Volume.builder().name(AgentSidecar.VOLUME).build());
        return RegisterTaskDefinitionRequest.builder()
                .family(serviceName)
                .taskRoleArn(settings.taskRoleArn())
                .executionRoleArn(settings.taskExecutionRoleArn())
                .networkMode(NetworkMode.AWSVPC)
                .requiresCompatibilitiesWithStrings(studio.requiresCompatibilitiesAsStrings())
                .cpu(studio.cpu())
                .memory(studio.memory())
                .runtimePlatform(studio.runtimePlatform())
                .ephemeralStorage(studio.ephemeralStorage())
                .volumes(volumes)
                .containerDefinitions(containers)
                .tags(Tag.builder().key(Catalog.MANAGED_TAG_KEY).value(group.name()).build(),
                        Tag.builder().key(Catalog.STAGE_TAG_KEY).value(stage).build())
                .build();
    }

    /**
     * The game server container: the GSDK's file on the shared volume, started once the sidecar is
     * HEALTHY, that is once it has written that file (a GSDK reads it at start, and fails without it).
     */
    private static ContainerDefinition gameServerContainer(ContainerDefinition c) {
        List<KeyValuePair> environment = new ArrayList<>(c.environment().stream()
                .filter(e -> !AgentSidecar.GSDK_CONFIG_FILE_VARIABLE.equals(e.name())).toList());
        environment.add(variable(AgentSidecar.GSDK_CONFIG_FILE_VARIABLE, AgentSidecar.GSDK_CONFIG_FILE));
        List<MountPoint> mounts = new ArrayList<>(c.mountPoints());
        mounts.add(sharedVolume());
        List<ContainerDependency> dependsOn = new ArrayList<>(c.dependsOn());
        dependsOn.add(ContainerDependency.builder().containerName(ContainerCompute.AGENT_CONTAINER)
                .condition(ContainerCondition.HEALTHY).build());
        return c.toBuilder().environment(environment).mountPoints(mounts).dependsOn(dependsOn).build();
    }

    /** The agent's {@code ports} of the container's port mappings, as JSON, in their order. */
    static String gamePorts(ContainerDefinition gameServer) {
        Map<String, Integer> ports = new LinkedHashMap<>();
        for (PortMapping m : gameServer.portMappings()) {
            if (m.containerPort() == null || ports.containsValue(m.containerPort())) {
                continue;
            }
            String base = m.name() != null && PORT_NAME.matcher(m.name()).matches() ? m.name() : "game";
            String name = base;
            for (int n = 2; ports.containsKey(name); n++) {
                name = base + n;
            }
            ports.put(name, m.containerPort());
        }
        ObjectNode json = JSON.createObjectNode();
        ports.forEach((name, port) -> json.putObject(name).put("from", port).put("to", port));
        return json.toString();
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Names the agent takes for its ports (docs/agent.md, {@code ports}: up to 32), with room for a suffix. */
    private static final Pattern PORT_NAME = Pattern.compile("[A-Za-z0-9_.-]{1,30}");

    private static ContainerDefinition sidecar(String group, EcsClusterSettings settings, LogConfiguration logs,
            String gamePorts) {
        return ContainerDefinition.builder()
                .name(ContainerCompute.AGENT_CONTAINER)
                .image(settings.agentImage())
                .essential(true)
                .environment(variable(AgentSidecar.MODE_VARIABLE, AgentSidecar.MODE),
                        variable(AgentSidecar.GSDK_CONFIG_FILE_VARIABLE, AgentSidecar.GSDK_CONFIG_FILE),
                        variable(AgentSidecar.GROUP_VARIABLE, group),
                        variable(AgentSidecar.GAME_PORTS_VARIABLE, gamePorts))
                .mountPoints(sharedVolume())
                .healthCheck(SIDECAR_HEALTH)
                .logConfiguration(logs)
                .build();
    }

    /**
     * The sidecar is healthy once the GSDK's file is written (its variable names the file: the same
     * check holds wherever the volume is), checked every 5 s from the start.
     */
    static final HealthCheck SIDECAR_HEALTH = HealthCheck.builder()
            .command("CMD-SHELL", "test -s \"$" + AgentSidecar.GSDK_CONFIG_FILE_VARIABLE + "\"")
            .interval(5).timeout(2).retries(3).startPeriod(0).build();

    private static LogConfiguration logs(String group, EcsClusterSettings settings) {
        return LogConfiguration.builder().logDriver(LogDriver.AWSLOGS)
                .options(Map.of("awslogs-group", settings.logGroup(), "awslogs-region", settings.region(),
                        "awslogs-stream-prefix", group))
                .build();
    }

    private static MountPoint sharedVolume() {
        return MountPoint.builder().sourceVolume(AgentSidecar.VOLUME).containerPath(AgentSidecar.MOUNT_PATH).build();
    }

    private static KeyValuePair variable(String name, String value) {
        return KeyValuePair.builder().name(name).value(value).build();
    }
}

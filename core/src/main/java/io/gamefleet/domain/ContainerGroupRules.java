package io.gamefleet.domain;

import io.gamefleet.domain.ContainerCompute.ContainerCapacity;
import io.gamefleet.domain.TaskDefinitions.Container;
import io.gamefleet.domain.TaskDefinitions.TaskDefinition;
import java.util.List;
import java.util.Optional;

/**
 * Whether a container group can run the task definition it names, decided before anything is
 * stored: a definition ECS cannot run as the group asks, or whose game server the agent sidecar
 * could not reach, is refused naming the member at fault. Every task runs in awsvpc mode (the
 * sidecar and the game server share the task's localhost); FARGATE_SPOT runs x86-64 Linux only.
 */
public final class ContainerGroupRules {
    static final String AWSVPC = "awsvpc";
    static final String ARM64 = "ARM64";

    private ContainerGroupRules() {}

    /**
     * The group's compute as it will run: {@code requested} with its game server container named
     * (the only essential container when it names none) and its task definition pinned to the
     * revision checked ({@code found}'s ARN), so that a later revision is not run unchecked.
     */
    public static ContainerCompute check(ContainerCompute requested, Optional<TaskDefinition> found) {
        TaskDefinition definition = found.orElseThrow(() -> GamefleetException.invalidRequest("TaskDefinition: "
                + requested.taskDefinition() + " is not a task definition of this account and region"));
        if (definition.containers().stream().anyMatch(c -> c.name().equals(ContainerCompute.AGENT_CONTAINER))) {
            throw GamefleetException.invalidRequest("TaskDefinition: its container " + ContainerCompute.AGENT_CONTAINER
                    + " has the name of the agent sidecar Gamefleet adds; rename it");
        }
        if (!AWSVPC.equals(definition.networkMode())) {
            throw GamefleetException.invalidRequest("TaskDefinition: its network mode is " + definition.networkMode()
                    + "; a container group's tasks need awsvpc (the agent sidecar reaches the game server on the"
                    + " task's localhost)");
        }
        requireCapacity(requested, definition);
        Container server = gameServerContainer(requested.gameServerContainer(), definition.containers());
        if (server.ports().isEmpty()) {
            throw GamefleetException.invalidRequest((requested.gameServerContainer() == null ? "TaskDefinition"
                    : "GameServerContainerName") + ": container " + server.name()
                    + " has no port mapping; players reach a game server through its container's ports");
        }
        return new ContainerCompute(definition.arn(), server.name(), requested.capacity(), requested.onDemandBase());
    }

    private static void requireCapacity(ContainerCompute requested, TaskDefinition definition) {
        if (requested.capacity() == ContainerCapacity.FARGATE_SPOT) {
            if (!definition.compatibilities().contains("FARGATE")) {
                throw GamefleetException.invalidRequest("Capacity: FARGATE_SPOT needs a task definition compatible"
                        + " with FARGATE; its requiresCompatibilities are " + definition.compatibilities());
            }
            if (ARM64.equals(definition.cpuArchitecture())) {
                throw GamefleetException.invalidRequest("Capacity: Fargate Spot runs x86-64 only, and the task"
                        + " definition's runtime platform is ARM64; use Capacity EC2 or an X86_64 image");
            }
        } else {
            if (!definition.compatibilities().contains("EC2")) {
                throw GamefleetException.invalidRequest("Capacity: EC2 needs a task definition compatible with EC2;"
                        + " its requiresCompatibilities are " + definition.compatibilities());
            }
            if (requested.onDemandBase() > 0) {
                throw GamefleetException.invalidRequest("OnDemandBase: only FARGATE_SPOT has an On-Demand base");
            }
        }
    }

    /** The named container, essential; or, with no name, the only essential one. */
    private static Container gameServerContainer(String name, List<Container> containers) {
        List<Container> essential = containers.stream().filter(Container::essential).toList();
        if (name != null) {
            Container named = containers.stream().filter(c -> c.name().equals(name)).findFirst()
                    .orElseThrow(() -> GamefleetException.invalidRequest("GameServerContainerName: the task definition"
                            + " has no container " + name + "; it has " + containers.stream().map(Container::name).toList()));
            if (!named.essential()) {
                throw GamefleetException.invalidRequest("GameServerContainerName: container " + name
                        + " is not essential; a game server's container must be (its end ends the task)");
            }
            return named;
        }
        if (essential.isEmpty()) {
            throw GamefleetException.invalidRequest("TaskDefinition: it has no essential container to run the game server");
        }
        if (essential.size() > 1) {
            throw GamefleetException.invalidRequest("GameServerContainerName: is required, the task definition having"
                    + " more than one essential container: " + essential.stream().map(Container::name).toList());
        }
        return essential.get(0);
    }
}

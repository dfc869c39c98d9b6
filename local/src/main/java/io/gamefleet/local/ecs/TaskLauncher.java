package io.gamefleet.local.ecs;

import java.util.List;
import java.util.Map;

/**
 * What runs a simulated ECS task's containers on this machine ({@link ProcessTaskLauncher}: each
 * container's command as a process group of its own); a test may give a fake.
 */
public interface TaskLauncher {

    /**
     * One container as the task definition gives it: its command (entry point and command, empty
     * if it has none: what its image would run), its image, whether it is essential, its
     * environment (the definition's, and what ECS adds: the task metadata endpoint, the region) and its
     * mount points (container path to the task's volume name); {@code dependsOn}: the containers it
     * waits for and their condition (START, HEALTHY), {@code healthCheck} its health check's command
     * (ECS's form: {@code CMD-SHELL, line} or {@code CMD, args...}; empty for none).
     */
    record Container(String name, String image, List<String> command, boolean essential,
            Map<String, String> environment, Map<String, String> mountPoints, Map<String, String> dependsOn,
            List<String> healthCheck) {
        /** Without dependencies or a health check. */
        public Container(String name, String image, List<String> command, boolean essential,
                Map<String, String> environment, Map<String, String> mountPoints) {
            this(name, image, command, essential, environment, mountPoints, Map.of(), List.of());
        }
    }

    /** A task to start: its ARN, its FleetIQ instance id and its containers. */
    record Launch(String taskArn, String taskId, String instanceId, List<Container> containers) {}

    /** A started task's processes. */
    interface Running {
        /** SIGTERM to every container's processes (ECS's stop, a Fargate Spot interruption). */
        void terminate();

        /** SIGKILL to whatever is left, and the task's own resources given back. */
        void kill();

        /** Starts the containers whose dependencies are met now (the simulation's tick asks each second). */
        default void advance() {}

        /** Whether an essential container has exited (ECS then stops the task). */
        boolean essentialExited();

        /** Whether every container's processes have ended. */
        boolean ended();
    }

    /** Starts the task's containers; a refusal (a command that cannot start) is an exception with the reason. */
    Running launch(Launch launch);
}

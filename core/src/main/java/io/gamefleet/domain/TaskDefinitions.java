package io.gamefleet.domain;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The task definitions port: what Gamefleet reads of an ECS task definition to tell whether a
 * container group can run it. The AWS adapter is in io.gamefleet.adapters.ecs.
 */
public interface TaskDefinitions {

    /** The task definition (family, family:revision or ARN) as ECS describes it; empty when it does not exist. */
    Optional<TaskDefinition> describe(String taskDefinition);

    /**
     * {@code compatibilities}: its requiresCompatibilities (FARGATE, EC2); {@code cpuArchitecture}:
     * its runtime platform's (X86_64, ARM64; null when it names none, which is X86_64);
     * {@code networkMode}: awsvpc, bridge, host or null.
     */
    record TaskDefinition(String arn, List<Container> containers, Set<String> compatibilities,
            String cpuArchitecture, String networkMode) {
        public TaskDefinition {
            containers = List.copyOf(containers);
            compatibilities = Set.copyOf(compatibilities);
        }
    }

    /** A container of a task definition: {@code ports} its port mappings' container ports. */
    record Container(String name, String image, boolean essential, List<Integer> ports) {
        public Container {
            ports = List.copyOf(ports);
        }
    }
}

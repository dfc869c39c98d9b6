package io.gamefleet.adapters.ecs;

import io.gamefleet.domain.TaskDefinitions;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.ClientException;
import software.amazon.awssdk.services.ecs.model.ContainerDefinition;
import software.amazon.awssdk.services.ecs.model.PortMapping;

/**
 * The task definitions port on ECS's DescribeTaskDefinition. ({@code TaskDefinition} here is the
 * port's; ECS's own is named in full.)
 */
public final class EcsTaskDefinitions implements TaskDefinitions {
    private final EcsClient ecs;

    public EcsTaskDefinitions(EcsClient ecs) {
        this.ecs = ecs;
    }

    @Override
    public Optional<TaskDefinition> describe(String taskDefinition) {
        return studios(ecs, taskDefinition).map(EcsTaskDefinitions::toDomain);
    }

    /**
     * ECS's whole definition; empty when ECS does not describe it (a ClientException, ECS's answer
     * for a definition that does not exist, or that the caller may not read) or it is INACTIVE
     * (deregistered: no new service may run it).
     */
    static Optional<software.amazon.awssdk.services.ecs.model.TaskDefinition> studios(EcsClient ecs, String taskDefinition) {
        try {
            var found = ecs.describeTaskDefinition(r -> r.taskDefinition(taskDefinition)).taskDefinition();
            return Optional.ofNullable(found).filter(d -> !"INACTIVE".equals(d.statusAsString()));
        } catch (ClientException e) {
            return Optional.empty();
        } catch (SdkException e) {
            throw EcsServiceCompute.FAILURES.failure("describe task definition", taskDefinition, e);
        }
    }

    private static TaskDefinition toDomain(software.amazon.awssdk.services.ecs.model.TaskDefinition d) {
        return new TaskDefinition(d.taskDefinitionArn(),
                d.containerDefinitions().stream().map(EcsTaskDefinitions::toDomain).toList(),
                Set.copyOf(d.requiresCompatibilitiesAsStrings()),
                d.runtimePlatform() == null ? null : d.runtimePlatform().cpuArchitectureAsString(),
                d.networkModeAsString());
    }

    private static Container toDomain(ContainerDefinition c) {
        return new Container(c.name(), c.image(),
                // ECS's default: a container that does not say is essential.
                c.essential() == null || c.essential(),
                c.portMappings().stream().map(PortMapping::containerPort).filter(Objects::nonNull).toList());
    }
}

package io.gamefleet.adapters.ecs;

import io.gamefleet.catalog.Settings;
import io.gamefleet.catalog.Settings.Setting;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Where container groups' tasks run and what they run with: the stack's ECS cluster, the subnets
 * (where a group names none) and security group of their tasks, the agent sidecar's image, the
 * task role (the sidecar's credentials) and execution role, and the log group (in {@code region})
 * of their containers. The catalog's {@link Settings#CONTAINERS}.
 */
public record EcsClusterSettings(String cluster, List<String> subnets, String securityGroup, String agentImage,
        String taskRoleArn, String taskExecutionRoleArn, String logGroup, String region) {

    public EcsClusterSettings {
        subnets = List.copyOf(subnets);
    }

    /** From the settings' values ({@code settings}: a setting's value, its default when unset). */
    public static EcsClusterSettings from(Function<Setting, String> settings, String region) {
        return new EcsClusterSettings(settings.apply(Settings.CONTAINER_CLUSTER),
                Arrays.stream(settings.apply(Settings.CONTAINER_SUBNETS).split(",")).map(String::trim)
                        .filter(s -> !s.isEmpty()).toList(),
                settings.apply(Settings.CONTAINER_SECURITY_GROUP), settings.apply(Settings.AGENT_IMAGE),
                settings.apply(Settings.TASK_ROLE_ARN), settings.apply(Settings.TASK_EXECUTION_ROLE_ARN),
                settings.apply(Settings.CONTAINER_LOG_GROUP), region);
    }
}

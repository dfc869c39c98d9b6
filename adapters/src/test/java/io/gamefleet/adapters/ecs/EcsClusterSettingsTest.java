package io.gamefleet.adapters.ecs;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.Settings;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EcsClusterSettingsTest {
    @Test
    void theSettingsAreReadByTheirCatalogNamesAndTheSubnetsSplit() {
        Map<Settings.Setting, String> values = Map.of(Settings.CONTAINER_CLUSTER, "gamefleet-prod",
                Settings.CONTAINER_SUBNETS, "subnet-a, subnet-b,", Settings.CONTAINER_SECURITY_GROUP, "sg-tasks",
                Settings.AGENT_IMAGE, "agent:1", Settings.TASK_ROLE_ARN, "arn:task", Settings.TASK_EXECUTION_ROLE_ARN,
                "arn:execution", Settings.CONTAINER_LOG_GROUP, "/gamefleet/prod/containers");

        assertThat(EcsClusterSettings.from(values::get, "eu-west-1")).isEqualTo(new EcsClusterSettings("gamefleet-prod",
                java.util.List.of("subnet-a", "subnet-b"), "sg-tasks", "agent:1", "arn:task", "arn:execution",
                "/gamefleet/prod/containers", "eu-west-1"));
        assertThat(EcsClusterSettings.from(s -> s.defaultValue(), "eu-west-1").subnets()).as("none set").isEmpty();
    }
}

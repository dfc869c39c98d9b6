package io.gamefleet.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ContainerTasksTest {

    @Test
    void aTaskIdOrItsArnIsAnInstanceIdOfFleetIqsPattern() {
        String id = "0123456789abcdef0123456789abcdef";
        assertThat(ContainerTasks.instanceId(id)).isEqualTo("i-0123456789abcdef0").matches("^i-[0-9a-zA-Z]{17}$");
        assertThat(ContainerTasks.instanceId("arn:aws:ecs:us-east-1:123456789012:task/gamefleet-prod/" + id))
                .isEqualTo("i-0123456789abcdef0");
    }

    @Test
    void anythingElseIsRefused() {
        assertThatThrownBy(() -> ContainerTasks.instanceId("i-0123456789abcdef0"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

package io.gamefleet.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ServiceSettingsTest {
    private final ServiceSettings settings = new ServiceSettings("us-west-2", "123456789012", Duration.ofMinutes(1),
            Duration.ofMinutes(1), Duration.ofDays(1), Duration.ofMinutes(10));

    @Test
    void groupArn() {
        assertThat(settings.groupArn("my-group"))
                .isEqualTo("arn:aws:gamelift:us-west-2:123456789012:gameservergroup/my-group");
    }

    @Test
    void groupNameFromArnOrName() {
        assertThat(ServiceSettings.groupName("arn:aws:gamelift:us-west-2:123456789012:gameservergroup/my-group"))
                .isEqualTo("my-group");
        assertThat(ServiceSettings.groupName("my-group")).isEqualTo("my-group");
        assertThat(ServiceSettings.groupName("my.group-2")).isEqualTo("my.group-2");
        assertThat(ServiceSettings.groupName(settings.groupArn("g.1"))).isEqualTo("g.1");
    }

    @Test
    void onlyAnArnIsCutDown() {
        assertThat(ServiceSettings.groupName("gameservergroup/x")).isEqualTo("gameservergroup/x");
        assertThat(ServiceSettings.groupName("arn:aws:gamelift:us-west-2:123456789012:fleet/x"))
                .isEqualTo("arn:aws:gamelift:us-west-2:123456789012:fleet/x");
    }
}

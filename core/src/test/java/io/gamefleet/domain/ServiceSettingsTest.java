package io.gamefleet.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ServiceSettingsTest {
    private final ServiceSettings settings = new ServiceSettings("us-west-2", "123456789012", Duration.ofMinutes(1),
            Duration.ofMinutes(1), Duration.ofDays(1), Duration.ofMinutes(10), "gamefleet-test-", Fleet.LIMITS,
            Fleet.LIFETIME);

    @Test
    void groupArn() {
        assertThat(settings.groupArn("my-group"))
                .isEqualTo("arn:aws:gamelift:us-west-2:123456789012:gameservergroup/my-group");
    }

    @Test
    void groupNameFromThisDeploymentsArnOrName() {
        assertThat(settings.groupName("arn:aws:gamelift:us-west-2:123456789012:gameservergroup/my-group"))
                .isEqualTo("my-group");
        assertThat(settings.groupName("my-group")).isEqualTo("my-group");
        assertThat(settings.groupName("my.group-2")).isEqualTo("my.group-2");
        assertThat(settings.groupName(settings.groupArn("g.1"))).isEqualTo("g.1");
    }

    @Test
    void anArnOfAnotherRegionAccountOrResourceNamesNoGroup() {
        for (String foreign : new String[] {
                "arn:aws:gamelift:eu-west-1:123456789012:gameservergroup/my-group",
                "arn:aws:gamelift:us-west-2:999999999999:gameservergroup/my-group",
                "arn:aws-cn:gamelift:us-west-2:123456789012:gameservergroup/my-group",
                "arn:x:gameservergroup/my-group",
                "arn:aws:gamelift:us-west-2:123456789012:fleet/my-group"}) {
            assertThatThrownBy(() -> settings.groupName(foreign))
                    .isInstanceOfSatisfying(GamefleetException.class,
                            e -> assertThat(e.errorType()).isEqualTo("NotFoundException"));
        }
    }
}

package io.gamefleet.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The settings, the local account, the tables' keys. */
class SettingsTest {
    @Test
    void eachRoleHasItsOwnRoleArnSetting() {
        assertThat(Settings.roleArn(Role.ADMIN)).isEqualTo(Settings.ADMIN_ROLE_ARN);
        assertThat(Settings.roleArn(Role.MATCHMAKER)).isEqualTo(Settings.MATCHMAKER_ROLE_ARN);
        assertThat(Settings.roleArn(Role.GAME_SERVER)).isEqualTo(Settings.GAME_SERVER_ROLE_ARN);
        assertThat(Settings.GAME_SERVER_ROLE_ARN.environmentVariable()).isEqualTo("GAMEFLEET_GAME_SERVER_ROLE_ARN");
    }

    @Test
    void everySettingIsListedOnceWithItsOwnVariable() {
        assertThat(Settings.ALL).doesNotHaveDuplicates().hasSize(26);
        assertThat(Settings.ALL.stream().map(Settings.Setting::environmentVariable)).doesNotHaveDuplicates()
                .allMatch(v -> v.startsWith("GAMEFLEET_"));
        assertThat(Settings.ACCOUNT_ID.defaultValue()).isEqualTo(LocalAccount.ACCOUNT_ID);
        assertThat(Settings.CLAIM_TTL_SECONDS.defaultValue()).isEqualTo("60");
    }

    @Test
    void aSwitchIsOnOrOffAndNothingElse() {
        assertThat(Settings.isOn(Settings.CONNECTION_INFO_CHECK, "on")).isTrue();
        assertThat(Settings.isOn(Settings.CONNECTION_INFO_CHECK, "off")).isFalse();
        assertThat(Settings.CONNECTION_INFO_CHECK.defaultValue()).isEqualTo("on");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Settings.isOn(Settings.CONNECTION_INFO_CHECK, "true"))
                .hasMessage("GAMEFLEET_CONNECTION_INFO_CHECK must be on or off, not true");
    }

    @Test
    void theLocalRolesAreNamedAfterTheRole() {
        assertThat(LocalAccount.roleArn(Role.ADMIN)).isEqualTo("arn:aws:iam::000000000000:role/gamefleet-admin");
        assertThat(LocalAccount.roleArn(Role.GAME_SERVER)).isEqualTo("arn:aws:iam::000000000000:role/gamefleet-game-server");
        assertThat(LocalAccount.REGION).isEqualTo("us-east-1");
    }

    @Test
    void keyAttributesAreStringsOrNumbers() {
        assertThat(KeyAttribute.string("A")).isEqualTo(new KeyAttribute("A", "S"));
        assertThat(KeyAttribute.number("B")).isEqualTo(new KeyAttribute("B", "N"));
        assertThat(Tables.GAME_SERVERS.indexes()).extracting(IndexDefinition::sortKey)
                .contains(new KeyAttribute("RegistrationSortKey", "S"));
        assertThat(Tables.GAME_SERVER_GROUPS.ttlAttribute()).contains("ExpiresAt");
        assertThat(Tables.SPOT_INTERRUPTIONS.ttlAttribute()).contains("ExpiresAt");
        assertThat(Tables.GAME_SERVERS.ttlAttribute()).isEmpty();
    }
}

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
        assertThat(Settings.ALL).doesNotHaveDuplicates().hasSize(31);
        assertThat(Settings.ALL.stream().map(Settings.Setting::environmentVariable)).doesNotHaveDuplicates()
                .allMatch(v -> v.startsWith("GAMEFLEET_"));
        assertThat(Settings.ACCOUNT_ID.defaultValue()).isEqualTo(LocalAccount.ACCOUNT_ID);
        assertThat(Settings.CLAIM_TTL_SECONDS.defaultValue()).isEqualTo("60");
    }

    @Test
    void theContainerSettingsAreTheStacksOwnAndNoContextKey() {
        assertThat(Settings.CONTAINERS).hasSize(7).doesNotHaveDuplicates().doesNotContainAnyElementsOf(Settings.ALL)
                .allSatisfy(s -> assertThat(s.defaultValue()).as(s.environmentVariable()).isEmpty());
        assertThat(Settings.CONTAINERS.stream().map(Settings.Setting::environmentVariable)).doesNotHaveDuplicates()
                .allMatch(v -> v.startsWith("GAMEFLEET_"))
                .doesNotContainAnyElementsOf(Settings.ALL.stream().map(Settings.Setting::environmentVariable).toList())
                .contains("GAMEFLEET_CONTAINER_CLUSTER", "GAMEFLEET_TASK_ROLE_ARN", "GAMEFLEET_AGENT_IMAGE");
    }

    @Test
    void noTwoStagesAndGroupsMakeOneScalingGroupName() {
        assertThat(Catalog.scalingGroupPrefix("prod") + "eu-arena").isEqualTo("gamefleet-prod_eu-arena")
                .isNotEqualTo(Catalog.scalingGroupPrefix("prod-eu") + "arena");
        // Stage names: lower-case letters, digits, hyphens; group names: letters, digits, hyphens, dots.
        java.util.Set<String> names = new java.util.HashSet<>();
        for (String stage : java.util.List.of("a", "p", "prod", "prod-eu", "prod-eu-west", "a-b", "a--b", "a-")) {
            for (String group : java.util.List.of("a", "b-a", "arena", "eu-arena", "eu-west-arena", "arena.eu", "-x", "x-",
                    "-", ".", "b")) {
                assertThat(names.add(Catalog.scalingGroupPrefix(stage) + group)).as(stage + " + " + group).isTrue();
            }
        }
        assertThat(Catalog.formerScalingGroupPrefix("prod") + "eu-arena")
                .as("the former names, which only the stage tag told apart")
                .isEqualTo(Catalog.formerScalingGroupPrefix("prod-eu") + "arena");
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
        assertThat(Tables.GAME_SERVERS.ttlAttribute()).as("its servers' process items").contains("ExpiresAt");
    }

    @Test
    void theLifetimesArePlayFabsByDefaultInHoursAFractionAllowed() {
        assertThat(Lifetimes.defaults()).isEqualTo(new Lifetimes(java.time.Duration.ofHours(240),
                java.time.Duration.ofHours(23)));
        java.util.Map<Settings.Setting, String> local = java.util.Map.of(
                Settings.MAX_INSTANCE_LIFETIME_HOURS, Lifetimes.hours(java.time.Duration.ofMinutes(4)),
                Settings.GUARANTEED_SERVER_LIFETIME_HOURS, Lifetimes.hours(java.time.Duration.ofMinutes(2)));
        assertThat(local.get(Settings.MAX_INSTANCE_LIFETIME_HOURS)).isEqualTo("0.066666667");
        assertThat(Lifetimes.of(local::get, Settings.Setting::environmentVariable)).as("exact to the millisecond")
                .isEqualTo(new Lifetimes(java.time.Duration.ofMinutes(4), java.time.Duration.ofMinutes(2)));
        assertThat(Lifetimes.hours(java.time.Duration.ofHours(240))).isEqualTo("240");
        Lifetimes off = Lifetimes.of(s -> s == Settings.MAX_INSTANCE_LIFETIME_HOURS ? "0" : null,
                Settings.Setting::environmentVariable);
        assertThat(off.limited()).as("0 turns it off, whatever the guarantee").isFalse();
        assertThat(Lifetimes.defaults().limited()).isTrue();
    }

    @Test
    void aGuaranteeNotBelowTheMaximumOrABadNumberIsRefusedByTheNameItWasGivenAs() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Lifetimes.of(
                        s -> s == Settings.MAX_INSTANCE_LIFETIME_HOURS ? "23" : "23", Settings.Setting::environmentVariable))
                .hasMessageStartingWith("GAMEFLEET_GUARANTEED_SERVER_LIFETIME_HOURS (23 h) must be below"
                        + " GAMEFLEET_MAX_INSTANCE_LIFETIME_HOURS (23 h)");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Lifetimes.of(
                        s -> s == Settings.MAX_INSTANCE_LIFETIME_HOURS ? "ten days" : null,
                        s -> "context " + s.environmentVariable()))
                .hasMessage("context GAMEFLEET_MAX_INSTANCE_LIFETIME_HOURS must be a non-negative number of hours,"
                        + " not ten days");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Lifetimes.of(
                        s -> s == Settings.GUARANTEED_SERVER_LIFETIME_HOURS ? "-1" : null, Settings.Setting::environmentVariable))
                .hasMessageContaining("GAMEFLEET_GUARANTEED_SERVER_LIFETIME_HOURS must be a non-negative number");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Lifetimes(java.time.Duration.ofHours(2),
                java.time.Duration.ofHours(3))).isInstanceOf(IllegalArgumentException.class);
    }
}

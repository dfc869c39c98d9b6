package io.gamefleet.adapters.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.Tables;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableNamesTest {
    @Test
    void theEnvironmentNamesATableElseItsLogicalNameServes() {
        assertThat(new TableNames(Map.of("GAMEFLEET_GROUPS_TABLE", "prod-groups")).of(Tables.GAME_SERVER_GROUPS))
                .isEqualTo("prod-groups");
        assertThat(new TableNames(Map.of()).of(Tables.GAME_SERVER_GROUPS)).isEqualTo("GameServerGroups");
        assertThat(new TableNames(Map.of("GAMEFLEET_GROUPS_TABLE", " ")).of(Tables.GAME_SERVER_GROUPS))
                .isEqualTo("GameServerGroups");
    }
}

package io.gamefleet.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.catalog.Throttles.Limit;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The stage's throttles and each instance's fair share of them, from the settings that size them. */
class ThrottlesTest {
    private static final Throttles DEFAULTS = Throttles.of(Settings.Setting::defaultValue);

    @Test
    void theDefaultsSizeTheRoutesForTenThousandServers() {
        assertThat(DEFAULTS).isEqualTo(new Throttles(10_000, 30, 20, 16));
        assertThat(DEFAULTS.perOperation().get(Operation.REGISTER_GAME_SERVER)).isEqualTo(new Limit(24, 48));
        assertThat(DEFAULTS.perOperation().get(Operation.UPDATE_GAME_SERVER)).isEqualTo(new Limit(448, 896));
        assertThat(DEFAULTS.perOperation()).containsOnlyKeys(Operation.values());
        assertThat(DEFAULTS.pushConnects()).isEqualTo(new Limit(200, 400));
        // Health reports every 30 s and a ping every 30 s, as if each server had its own agent, with 20% headroom.
        assertThat(DEFAULTS.pushMessages()).isEqualTo(new Limit(800, 1600));
        assertThat(DEFAULTS.pushStage()).isEqualTo(new Limit(1000, 2000));
    }

    /**
     * 10,000 servers at 16 per instance are 625 instances: each may take 4 times its even part of
     * a route, and register all its servers at once.
     */
    @Test
    void anInstancesShareIsFourTimesItsEvenPartOfTheRoute() {
        assertThat(DEFAULTS.sizedInstances()).isEqualTo(625);
        assertThat(DEFAULTS.instanceRegistrations()).isEqualTo(new Limit(4 * 24 / 625.0, 16));
        assertThat(DEFAULTS.instanceMessages()).isEqualTo(new Limit(4 * 800 / 625.0, 11));
        // A small fleet's instances share a route among few: their shares are larger.
        Throttles small = new Throttles(100, 30, 20, 16);
        assertThat(small.sizedInstances()).isEqualTo(7);
        assertThat(small.instanceRegistrations()).isEqualTo(new Limit(4 * 24 / 7.0, 28));
        assertThat(small.instanceMessages().burst()).isEqualTo(10);
        // A fleet of many small instances: a burst of a reconnect's report and a ping or two still.
        assertThat(new Throttles(1_000_000, 30, 20, 1).instanceMessages().burst()).isEqualTo(4);
    }

    @Test
    void theSettingsSizeThemAndABadOneIsRefusedByName() {
        Map<Settings.Setting, String> values = Map.of(Settings.EXPECTED_GAME_SERVERS, "50000",
                Settings.MAX_GAME_SERVERS_PER_INSTANCE, "4");
        Throttles throttles = Throttles.of(s -> values.getOrDefault(s, ""));
        assertThat(throttles).isEqualTo(new Throttles(50_000, 30, 20, 4));
        assertThat(throttles.sizedInstances()).isEqualTo(12_500);
        assertThatThrownBy(() -> Throttles.of(s -> s == Settings.CLAIMS_PER_SECOND ? "many" : null))
                .hasMessage("GAMEFLEET_CLAIMS_PER_SECOND must be a whole number, not many");
        assertThatThrownBy(() -> new Throttles(10, 30, 20, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}

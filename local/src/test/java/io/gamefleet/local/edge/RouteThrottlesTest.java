package io.gamefleet.local.edge;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.Settings;
import io.gamefleet.catalog.Throttles;
import io.gamefleet.catalog.Throttles.Limit;
import io.gamefleet.domain.fakes.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The edge's route throttles: a token bucket per route, shared by every caller, on the profile's clock. */
class RouteThrottlesTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2100-01-01T00:00:00Z"));

    private int admitted(RouteThrottles throttles, String routeKey, int tries) {
        int admitted = 0;
        for (int n = 0; n < tries; n++) {
            admitted += throttles.admit(routeKey) ? 1 : 0;
        }
        return admitted;
    }

    @Test
    void aRouteTakesItsBurstThenItsRateAndTheOthersTheirOwn() {
        Throttles defaults = Throttles.of(Settings.Setting::defaultValue);
        RouteThrottles http = new RouteThrottles(defaults.httpRoutes(), Optional.empty(), clock);
        String register = "POST /game-server-groups/{GameServerGroupName}/game-servers";
        assertThat(admitted(http, register, 60)).isEqualTo(48);
        assertThat(admitted(http, "POST /service/GameLift/operation/RegisterGameServer", 60))
                .as("the CBOR path has a bucket of its own").isEqualTo(48);
        clock.advance(Duration.ofMillis(500));
        assertThat(admitted(http, register, 60)).as("24 a second").isEqualTo(12);
        clock.advance(Duration.ofHours(1));
        assertThat(admitted(http, register, 60)).as("never more than the burst").isEqualTo(48);
        assertThat(http.refusal(register)).isEqualTo("Too Many Requests: route " + register + " is throttled at 24.0"
                + " requests a second, burst 48 (the stage's throttle, sized by --expected-game-servers, --heartbeat-seconds"
                + " and --claims-per-second)");
        assertThat(admitted(http, "GET /no/such/route", 5)).as("a route without limits").isEqualTo(5);
    }

    @Test
    void aRouteWithoutLimitsOfItsOwnTakesTheStagesAndNoneThrottlesNothing() {
        RouteThrottles push = new RouteThrottles(Map.of("$connect", new Limit(1, 2)), Optional.of(new Limit(1, 3)), clock);
        assertThat(admitted(push, "$connect", 5)).isEqualTo(2);
        assertThat(admitted(push, "$disconnect", 5)).isEqualTo(3);
        assertThat(push.limit("$disconnect")).contains(new Limit(1, 3));
        assertThat(admitted(RouteThrottles.none(clock), "$connect", 1000)).isEqualTo(1000);
    }
}

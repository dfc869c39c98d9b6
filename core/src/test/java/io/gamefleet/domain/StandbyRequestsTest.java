package io.gamefleet.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.fakes.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StandbyRequestsTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-24T18:00:00Z"));
    private final List<String> sent = new ArrayList<>();
    private final List<String> log = new ArrayList<>();

    @Test
    void aBurstOfClaimsAsksOncePerGroupAndInterval() {
        StandbyRequests requests = new StandbyRequests(sent::add, clock, log::add);

        for (int claim = 0; claim < 50; claim++) {
            requests.requested("arena");
        }
        requests.requested("lobby");
        clock.advance(StandbyRequests.INTERVAL.minusMillis(1));
        requests.requested("arena");
        assertThat(sent).containsExactly("arena", "lobby");

        clock.advance(Duration.ofMillis(1));
        requests.requested("arena");
        assertThat(sent).containsExactly("arena", "lobby", "arena");
    }

    @Test
    void aRequestThatFailsNeverFailsTheClaimAndIsLogged() {
        StandbyRequests requests = new StandbyRequests(group -> {
            throw new IllegalStateException("Lambda is unreachable");
        }, clock, log::add);

        requests.requested("arena");

        assertThat(log).singleElement().asString().contains("group arena could not be requested")
                .contains("Lambda is unreachable");
    }
}

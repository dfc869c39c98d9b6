package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A claim whose notice was posted while the push channel was closed, found again when it opens. */
class ClaimCatchUpTest {
    @TempDir Path work;

    private static ClaimCatchUp catchUp(AgentFixture a) {
        return new ClaimCatchUp(a.api, a.supervisor, Runnable::run, a.config.timings().claimTtl(), new AgentLog(a.clock, a.log::add));
    }

    @Test
    void aServerStillClaimedIsToldActiveWithTheClaimsData() throws Exception {
        AgentFixture a = new AgentFixture(work);
        a.tick();
        ServerRecord claimed = a.standingBy(0);
        ServerRecord notClaimed = a.standingBy(1);
        a.api.claims.put(claimed.gameServerId, new FleetApi.Claim("map=dust", Instant.parse("2026-12-01T09:59:59Z")));

        catchUp(a).run();

        assertThat(a.reply(claimed, GameState.StandingBy).path("operation").asText()).isEqualTo("Active");
        assertThat(a.reply(claimed, GameState.StandingBy).path("sessionConfig").path("sessionCookie").asText())
                .isEqualTo("map=dust");
        assertThat(a.reply(notClaimed, GameState.StandingBy).path("operation").asText()).isEqualTo("Continue");
        a.tick();
        assertThat(a.api.registered.get(claimed.gameServerId)).isEqualTo("UTILIZED");
    }

    @Test
    void onlyTheRegisteredStandingByServersNoClaimReachedAreAsked() throws Exception {
        AgentFixture a = new AgentFixture(work);
        a.tick();
        ServerRecord active = a.standingBy(0);
        a.claim(active, null);
        a.reply(active, GameState.StandingBy);
        ServerRecord starting = a.server(1);
        a.reply(starting, GameState.Initializing);

        catchUp(a).run();

        assertThat(a.api.count("describe")).isZero();
    }

    @Test
    void aCaughtUpClaimEndsWhenTheClaimDoesItsLastClaimTimePlusTheClaimTtl() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1, \"timings\": {\"claimTtlSeconds\": 45}}", true);
        a.tick();
        ServerRecord s = a.reportsStandingBy(0);
        a.runApiCalls();
        Instant claimedAt = a.clock.instant().minusSeconds(10);
        a.api.claims.put(s.gameServerId, new FleetApi.Claim("map=dust", claimedAt));
        catchUp(a).run();
        assertThat(s.claim.claimedAt()).isEqualTo(claimedAt);
        assertThat(s.claim.claimExpiresAt()).isEqualTo(claimedAt.plusSeconds(45));
    }

    @Test
    void aClaimMadeLongerAgoThanTheClaimTtlIsNotToldNorUtilized() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.standingBy(0);
        a.api.claims.put(s.gameServerId, new FleetApi.Claim(null, a.clock.instant().minusSeconds(61)));
        catchUp(a).run();
        a.tick();
        assertThat(a.reply(s, GameState.StandingBy).path("operation").asText()).isEqualTo("Continue");
        assertThat(a.api.registered).containsEntry(s.gameServerId, "AVAILABLE");
        assertThat(a.log).anyMatch(l -> l.contains(s.gameServerId + ": claim notice came after the claim lapsed"));
    }

    @Test
    void anUnreachableApiLeavesTheClaimToLapseAndSaysSo() throws Exception {
        AgentFixture a = new AgentFixture(work, "{\"processes\": 1}");
        a.tick();
        ServerRecord s = a.standingBy(0);
        a.api.claims.put(s.gameServerId, new FleetApi.Claim(null, a.clock.instant()));
        a.api.down = true;
        catchUp(a).run();
        assertThat(a.reply(s, GameState.StandingBy).path("operation").asText()).isEqualTo("Continue");
        assertThat(a.log).anyMatch(l -> l.contains("WARN " + s.gameServerId + ": cannot check for a claim made while"));
    }
}

package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * What a refused state change tells the process (the 400 InvalidTransition's message). Which
 * changes are refused, and that a refusal changes nothing, is {@link SupervisorTest}'s table.
 */
class GsdkTransitionsTest {
    @Test
    void anActiveNoClaimGaveSaysHowAServerBecomesActiveFromTheStateItWasIn() {
        assertThat(GsdkTransitions.refusal(null, GameState.Active, false)).hasValue("no state -> Active: a server becomes Active only"
                + " when a claim reaches it (a heartbeat reply with operation Active)");
        assertThat(GsdkTransitions.refusal(GameState.StandingBy, GameState.Active, false)).hasValueSatisfying(m ->
                assertThat(m).startsWith("StandingBy -> Active: a server becomes Active only when a claim reaches it"));
    }

    @Test
    void aChangeBackSaysAServerNeverGoesBackAndFromActiveThatANewProcessIsANewServer() {
        assertThat(GsdkTransitions.refusal(GameState.StandingBy, GameState.Initializing, true))
                .hasValue("StandingBy -> Initializing is not allowed: a game server never goes back");
        assertThat(GsdkTransitions.refusal(GameState.Active, GameState.StandingBy, true)).hasValue("Active -> StandingBy is not"
                + " allowed: a game server never goes back (only a new process gives a new StandingBy server)");
    }

    @Test
    void aStateNoGameServerReportsIsRefusedAsSuch() {
        assertThat(GsdkTransitions.refusal(null, GameState.Quarantined, true)).hasValue("Quarantined is not a state a game server reports");
    }
}

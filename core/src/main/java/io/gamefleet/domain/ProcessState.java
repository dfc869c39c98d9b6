package io.gamefleet.domain;

/** PlayFab's game server states, spelled as the GSDK reports them (and the agent passes them on). */
public enum ProcessState {
    Initializing, StandingBy, Active, Terminating, Terminated
}

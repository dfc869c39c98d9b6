package io.gamefleet.domain;

/** FleetIQ's BalancingStrategy values, spelled as on the wire. */
public enum BalancingStrategy {
    SPOT_ONLY, SPOT_PREFERRED, ON_DEMAND_ONLY
}

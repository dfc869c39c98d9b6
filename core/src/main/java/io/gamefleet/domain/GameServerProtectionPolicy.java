package io.gamefleet.domain;

/** FleetIQ's GameServerProtectionPolicy values, spelled as on the wire. */
public enum GameServerProtectionPolicy {
    NO_PROTECTION, FULL_PROTECTION
}

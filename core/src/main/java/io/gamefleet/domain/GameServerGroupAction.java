package io.gamefleet.domain;

/** FleetIQ's GameServerGroupAction values, spelled as on the wire. */
public enum GameServerGroupAction {
    REPLACE_INSTANCE_TYPES
}

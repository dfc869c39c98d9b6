package io.gamefleet.domain;

/** FleetIQ's GameServerGroupStatus values, spelled as on the wire. */
public enum GameServerGroupStatus {
    NEW, ACTIVATING, ACTIVE, DELETE_SCHEDULED, DELETING, DELETED, ERROR
}

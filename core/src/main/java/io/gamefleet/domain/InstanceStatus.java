package io.gamefleet.domain;

/** FleetIQ's InstanceStatus values, spelled as on the wire. */
public enum InstanceStatus {
    ACTIVE, DRAINING, SPOT_TERMINATING
}

package io.gamefleet.domain;

/** FleetIQ's UtilizationStatus values, spelled as on the wire. */
public enum UtilizationStatus {
    AVAILABLE, UTILIZED
}

package io.gamefleet.domain;

/** FleetIQ's SortOrder values, spelled as on the wire. */
public enum SortOrder {
    ASCENDING, DESCENDING
}

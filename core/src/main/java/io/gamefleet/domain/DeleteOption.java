package io.gamefleet.domain;

/** FleetIQ's DeleteOption values, spelled as on the wire. */
public enum DeleteOption {
    SAFE_DELETE, FORCE_DELETE, RETAIN
}

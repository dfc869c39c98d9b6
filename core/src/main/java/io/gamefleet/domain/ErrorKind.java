package io.gamefleet.domain;

/**
 * What went wrong, in FleetIQ's terms: each kind is one of the error shapes of FleetIQ's API
 * model, whose name it carries. How a kind reaches a caller (an HTTP status, a protocol's error
 * encoding) is decided at the API edge, not here.
 */
public enum ErrorKind {
    INVALID_REQUEST("InvalidRequestException"),
    UNAUTHORIZED("UnauthorizedException"),
    NOT_FOUND("NotFoundException"),
    CONFLICT("ConflictException"),
    OUT_OF_CAPACITY("OutOfCapacityException"),
    INTERNAL("InternalServiceException");

    private final String fleetIqName;

    ErrorKind(String fleetIqName) {
        this.fleetIqName = fleetIqName;
    }

    /** The error shape's name in FleetIQ's model. */
    public String fleetIqName() {
        return fleetIqName;
    }
}

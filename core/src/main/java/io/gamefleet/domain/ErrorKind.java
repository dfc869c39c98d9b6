package io.gamefleet.domain;

/**
 * What went wrong, in FleetIQ's terms: each kind is one of the error shapes of FleetIQ's API
 * model, whose name it carries, but for {@link #THROTTLED}, which FleetIQ's model has not: the
 * name AWS services and API Gateway's own throttles answer with, which the AWS SDKs retry with
 * backoff. How a kind reaches a caller (an HTTP status, a protocol's error encoding) is decided at
 * the API edge, not here.
 */
public enum ErrorKind {
    INVALID_REQUEST("InvalidRequestException"),
    UNAUTHORIZED("UnauthorizedException"),
    NOT_FOUND("NotFoundException"),
    CONFLICT("ConflictException"),
    OUT_OF_CAPACITY("OutOfCapacityException"),
    /** A limit of the stage (an instance's most game servers) would be passed. */
    LIMIT_EXCEEDED("LimitExceededException"),
    /** A caller sent more than its fair share of a stage-wide throttle: try again later. */
    THROTTLED("ThrottlingException"),
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

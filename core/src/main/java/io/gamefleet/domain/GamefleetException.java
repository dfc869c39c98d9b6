package io.gamefleet.domain;

/**
 * A failure the caller is told about: its FleetIQ error name (the wire {@code __type}), its HTTP
 * status and a message for a person. No internal detail goes into the message.
 */
public class GamefleetException extends RuntimeException {
    private final String errorType;
    private final int httpStatus;

    protected GamefleetException(String errorType, int httpStatus, String message) {
        super(message);
        this.errorType = errorType;
        this.httpStatus = httpStatus;
    }

    public String errorType() {
        return errorType;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public static GamefleetException invalidRequest(String message) {
        return new GamefleetException("InvalidRequestException", 400, message);
    }

    public static GamefleetException unauthorized(String message) {
        return new GamefleetException("UnauthorizedException", 403, message);
    }

    public static GamefleetException notFound(String message) {
        return new GamefleetException("NotFoundException", 404, message);
    }

    public static GamefleetException conflict(String message) {
        return new GamefleetException("ConflictException", 409, message);
    }

    public static GamefleetException outOfCapacity(String message) {
        return new GamefleetException("OutOfCapacityException", 409, message);
    }

    public static GamefleetException internal(String message) {
        return new GamefleetException("InternalServiceException", 500, message);
    }
}

package io.gamefleet.domain;

/**
 * A failure the caller is told about: its kind and a message for a person. No internal detail
 * goes into the message.
 */
public final class GamefleetException extends RuntimeException {
    private final ErrorKind kind;

    private GamefleetException(ErrorKind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public ErrorKind kind() {
        return kind;
    }

    /** The error's name in FleetIQ's model (the {@code __type} callers see). */
    public String errorType() {
        return kind.fleetIqName();
    }

    public static GamefleetException invalidRequest(String message) {
        return new GamefleetException(ErrorKind.INVALID_REQUEST, message);
    }

    public static GamefleetException unauthorized(String message) {
        return new GamefleetException(ErrorKind.UNAUTHORIZED, message);
    }

    public static GamefleetException notFound(String message) {
        return new GamefleetException(ErrorKind.NOT_FOUND, message);
    }

    public static GamefleetException conflict(String message) {
        return new GamefleetException(ErrorKind.CONFLICT, message);
    }

    public static GamefleetException outOfCapacity(String message) {
        return new GamefleetException(ErrorKind.OUT_OF_CAPACITY, message);
    }

    public static GamefleetException limitExceeded(String message) {
        return new GamefleetException(ErrorKind.LIMIT_EXCEEDED, message);
    }

    public static GamefleetException throttled(String message) {
        return new GamefleetException(ErrorKind.THROTTLED, message);
    }

    public static GamefleetException internal(String message) {
        return new GamefleetException(ErrorKind.INTERNAL, message);
    }
}

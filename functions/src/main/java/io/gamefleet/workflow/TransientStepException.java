package io.gamefleet.workflow;

/** A step that may succeed when Step Functions retries it. */
public final class TransientStepException extends RuntimeException {
    public TransientStepException(String message, Throwable cause) {
        super(message, cause);
    }
}

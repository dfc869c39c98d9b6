package io.gamefleet.workflow;

/** A step that cannot succeed; its message becomes the group's StatusReason. */
public final class StepFailedException extends RuntimeException {
    public StepFailedException(String reason) {
        super(reason);
    }
}

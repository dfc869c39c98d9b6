package io.gamefleet.adapters.compute;

import io.gamefleet.domain.Compute.ComputeException;
import java.io.IOException;
import java.util.Set;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * A compute service's errors as {@link ComputeException}s, for the compute adapters (Auto Scaling,
 * ECS): retryable where the SDK says so, the service's code says "not now" or it could not be reached,
 * not for a "no"; the message names the service, what was asked and of what.
 */
public final class ComputeFailures {
    private final String service;
    private final Set<String> retryableCodes;

    /** {@code retryableCodes}: the service's error codes for "not now" that the SDK's own retryable() misses. */
    public ComputeFailures(String service, Set<String> retryableCodes) {
        this.service = service;
        this.retryableCodes = Set.copyOf(retryableCodes);
    }

    /** The service's answer to {@code action} on {@code name}, its failure mapped. */
    public <T> T call(String action, String name, Supplier<T> request) {
        try {
            return request.get();
        } catch (SdkException e) {
            throw failure(action, name, e);
        }
    }

    public ComputeException failure(String action, String name, SdkException e) {
        String code = errorCode(e);
        boolean retryable = e.retryable() || (code != null && retryableCodes.contains(code)) || unreachable(e);
        String message = e instanceof AwsServiceException refused
                ? service + " refused to " + action + " " + name + ": " + awsMessage(refused)
                : "Could not reach " + service + " to " + action + " " + name + ": " + e.getMessage();
        return new ComputeException(message, retryable, e);
    }

    /** The service could not be reached (refused, reset, timed out): it may be reachable again. */
    private static boolean unreachable(SdkException e) {
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    public static String errorCode(SdkException e) {
        return e instanceof AwsServiceException refused && refused.awsErrorDetails() != null
                ? refused.awsErrorDetails().errorCode()
                : null;
    }

    private static String awsMessage(AwsServiceException e) {
        return e.awsErrorDetails() != null && e.awsErrorDetails().errorMessage() != null
                ? e.awsErrorDetails().errorMessage()
                : e.getMessage();
    }
}

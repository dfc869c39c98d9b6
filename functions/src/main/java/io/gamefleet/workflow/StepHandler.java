package io.gamefleet.workflow;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import io.gamefleet.domain.Compute.ComputeException;
import io.gamefleet.domain.ConcurrentUpdateException;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.GroupLifecycle;
import io.gamefleet.domain.GroupLifecycle.StepRefusedException;
import io.gamefleet.logging.JsonLog;
import io.gamefleet.wiring.Services;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * A Task state of a group workflow. Input: {"GameServerGroupName": ...} plus the step's own
 * fields. The exception class tells Step Functions what to do: the ASL retries
 * {@link TransientStepException} and sends {@link StepFailedException} (with its reason for a
 * person) to RecordFailure, which puts the group in ERROR.
 */
public abstract class StepHandler implements RequestHandler<Map<String, Object>, Map<String, Object>> {
    private final Services services;

    protected StepHandler(Services services) {
        this.services = services;
    }

    @Override
    public final Map<String, Object> handleRequest(Map<String, Object> input, Context context) {
        try (JsonLog.Invocation invocation = JsonLog.invocation(context == null ? null : context.getAwsRequestId(),
                getClass().getSimpleName())) {
            Object name = input.get("GameServerGroupName");
            if (!(name instanceof String group)) {
                throw logged(new StepFailedException("the workflow input has no GameServerGroupName"));
            }
            JsonLog.with("group", group);
            return run(group, input);
        }
    }

    private Map<String, Object> run(String group, Map<String, Object> input) {
        try {
            return run(services.lifecycle(), group, input);
        } catch (StepRefusedException | GamefleetException e) {
            throw logged(new StepFailedException(e.getMessage()));
        } catch (ConcurrentUpdateException e) {
            throw logged(new TransientStepException(e.getMessage(), e));
        } catch (ComputeException e) {
            if (e.retryable()) {
                throw logged(new TransientStepException(e.getMessage(), e));
            }
            throw logged(new StepFailedException(e.getMessage()));
        } catch (SdkException e) {
            if (e.retryable()) {
                throw logged(new TransientStepException(e.getMessage(), e));
            }
            JsonLog.error("the step failed", e);
            throw e;
        }
    }

    /** What the workflow is told, in the log too: a retry or the reason the group goes to ERROR. */
    private static RuntimeException logged(RuntimeException outcome) {
        JsonLog.warn((outcome instanceof TransientStepException ? "will be retried: " : "step failed: ")
                + outcome.getMessage());
        return outcome;
    }

    protected abstract Map<String, Object> run(GroupLifecycle lifecycle, String group, Map<String, Object> input);

    /** The output of a polling step: the workflow's Choice state reads {@code Ready}. */
    protected static Map<String, Object> ready(boolean ready) {
        return Map.of("Ready", ready);
    }
}

package io.gamefleet.workflow;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import io.gamefleet.domain.Compute.ComputeException;
import io.gamefleet.domain.ConcurrentUpdateException;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.GroupLifecycle;
import io.gamefleet.domain.GroupLifecycle.StepRefusedException;
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
        Object name = input.get("GameServerGroupName");
        if (!(name instanceof String group)) {
            throw new StepFailedException("the workflow input has no GameServerGroupName");
        }
        try {
            return run(services.lifecycle(), group, input);
        } catch (StepRefusedException | GamefleetException e) {
            throw new StepFailedException(e.getMessage());
        } catch (ConcurrentUpdateException e) {
            throw new TransientStepException(e.getMessage(), e);
        } catch (ComputeException e) {
            if (e.retryable()) {
                throw new TransientStepException(e.getMessage(), e);
            }
            throw new StepFailedException(e.getMessage());
        } catch (SdkException e) {
            if (e.retryable()) {
                throw new TransientStepException(e.getMessage(), e);
            }
            throw e;
        }
    }

    protected abstract Map<String, Object> run(GroupLifecycle lifecycle, String group, Map<String, Object> input);

    /** The output of a polling step: the workflow's Choice state reads {@code Ready}. */
    protected static Map<String, Object> ready(boolean ready) {
        return Map.of("Ready", ready);
    }
}

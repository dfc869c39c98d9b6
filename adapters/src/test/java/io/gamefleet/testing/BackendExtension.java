package io.gamefleet.testing;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A class-level extension that runs on the selected {@link TestBackend}: it skips its class,
 * with the reason, when that backend cannot run here (LocalStack without Docker).
 */
public abstract class BackendExtension implements ExecutionCondition {
    private TestBackend backend;

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        return backend().condition();
    }

    /** The selected backend; a bad gamefleet.* property fails the class here, saying which. */
    protected final TestBackend backend() {
        if (backend == null) {
            backend = TestBackend.selected();
        }
        return backend;
    }
}

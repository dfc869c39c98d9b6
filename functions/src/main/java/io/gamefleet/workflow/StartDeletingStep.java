package io.gamefleet.workflow;

import io.gamefleet.domain.GroupLifecycle;
import io.gamefleet.wiring.Services;
import java.util.Map;

/** Deletion: DELETE_SCHEDULED to DELETING. */
public final class StartDeletingStep extends StepHandler {
    public StartDeletingStep() {
        this(Services.shared());
    }

    public StartDeletingStep(Services services) {
        super(services);
    }

    @Override
    protected Map<String, Object> run(GroupLifecycle lifecycle, String group, Map<String, Object> input) {
        lifecycle.startDeleting(group);
        return Map.of();
    }
}

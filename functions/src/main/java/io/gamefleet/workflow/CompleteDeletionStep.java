package io.gamefleet.workflow;

import io.gamefleet.domain.GroupLifecycle;
import io.gamefleet.wiring.Services;
import java.util.Map;

/** Deletion: DELETING to DELETED (kept for the retention period, then removed by TTL). */
public final class CompleteDeletionStep extends StepHandler {
    public CompleteDeletionStep() {
        this(Services.shared());
    }

    public CompleteDeletionStep(Services services) {
        super(services);
    }

    @Override
    protected Map<String, Object> run(GroupLifecycle lifecycle, String group, Map<String, Object> input) {
        lifecycle.completeDeletion(group);
        return Map.of();
    }
}

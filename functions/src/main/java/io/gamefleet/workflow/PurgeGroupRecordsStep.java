package io.gamefleet.workflow;

import io.gamefleet.domain.GroupLifecycle;
import io.gamefleet.wiring.Services;
import java.util.Map;

/** Deletion: deletes a batch of the group's game server and instance records; Ready when none is left. */
public final class PurgeGroupRecordsStep extends StepHandler {
    public PurgeGroupRecordsStep() {
        this(Services.shared());
    }

    public PurgeGroupRecordsStep(Services services) {
        super(services);
    }

    @Override
    protected Map<String, Object> run(GroupLifecycle lifecycle, String group, Map<String, Object> input) {
        return ready(lifecycle.purgeRecords(group));
    }
}

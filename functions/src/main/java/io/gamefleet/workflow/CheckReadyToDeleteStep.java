package io.gamefleet.workflow;

import io.gamefleet.domain.GroupLifecycle;
import io.gamefleet.wiring.Services;
import java.util.Map;

/** Deletion: Ready under FORCE_DELETE, or once no game server is UTILIZED. */
public final class CheckReadyToDeleteStep extends StepHandler {
    public CheckReadyToDeleteStep() {
        this(Services.shared());
    }

    public CheckReadyToDeleteStep(Services services) {
        super(services);
    }

    @Override
    protected Map<String, Object> run(GroupLifecycle lifecycle, String group, Map<String, Object> input) {
        return ready(lifecycle.readyToDelete(group));
    }
}

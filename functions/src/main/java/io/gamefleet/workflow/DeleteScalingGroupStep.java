package io.gamefleet.workflow;

import io.gamefleet.domain.GroupLifecycle;
import io.gamefleet.wiring.Services;
import java.util.Map;

/** Deletion: deletes the Auto Scaling group (not under RETAIN); Ready once it is gone. */
public final class DeleteScalingGroupStep extends StepHandler {
    public DeleteScalingGroupStep() {
        this(Services.shared());
    }

    public DeleteScalingGroupStep(Services services) {
        super(services);
    }

    @Override
    protected Map<String, Object> run(GroupLifecycle lifecycle, String group, Map<String, Object> input) {
        return ready(lifecycle.deleteScalingGroup(group));
    }
}

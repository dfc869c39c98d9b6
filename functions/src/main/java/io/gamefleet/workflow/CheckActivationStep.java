package io.gamefleet.workflow;

import io.gamefleet.domain.GroupLifecycle;
import io.gamefleet.wiring.Services;
import java.util.Map;

/** Activation: records the scaling group's instances; Ready once one is in service. */
public final class CheckActivationStep extends StepHandler {
    public CheckActivationStep() {
        this(Services.shared());
    }

    public CheckActivationStep(Services services) {
        super(services);
    }

    @Override
    protected Map<String, Object> run(GroupLifecycle lifecycle, String group, Map<String, Object> input) {
        return ready(lifecycle.checkActivation(group));
    }
}

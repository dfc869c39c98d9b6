package io.gamefleet.workflow;

import io.gamefleet.domain.GroupLifecycle;
import io.gamefleet.wiring.Services;
import java.util.Map;

/** Activation: NEW to ACTIVATING. */
public final class StartActivationStep extends StepHandler {
    public StartActivationStep() {
        this(Services.shared());
    }

    public StartActivationStep(Services services) {
        super(services);
    }

    @Override
    protected Map<String, Object> run(GroupLifecycle lifecycle, String group, Map<String, Object> input) {
        lifecycle.startActivation(group);
        return Map.of();
    }
}

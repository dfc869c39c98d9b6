package io.gamefleet.workflow;

import io.gamefleet.domain.GroupLifecycle;
import io.gamefleet.wiring.Services;
import java.util.Map;

/** Activation: creates the group's Auto Scaling group (or finds it). */
public final class CreateScalingGroupStep extends StepHandler {
    public CreateScalingGroupStep() {
        this(Services.shared());
    }

    public CreateScalingGroupStep(Services services) {
        super(services);
    }

    @Override
    protected Map<String, Object> run(GroupLifecycle lifecycle, String group, Map<String, Object> input) {
        return Map.of("AutoScalingGroupArn", lifecycle.createScalingGroup(group));
    }
}

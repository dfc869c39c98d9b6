package io.gamefleet.workflow;

import io.gamefleet.domain.GroupLifecycle;
import io.gamefleet.wiring.Services;
import java.util.Map;

/** Activation: ACTIVATING to ACTIVE, with the Auto Scaling group's ARN. */
public final class CompleteActivationStep extends StepHandler {
    public CompleteActivationStep() {
        this(Services.shared());
    }

    public CompleteActivationStep(Services services) {
        super(services);
    }

    @Override
    protected Map<String, Object> run(GroupLifecycle lifecycle, String group, Map<String, Object> input) {
        Object arn = input.get("AutoScalingGroupArn");
        lifecycle.completeActivation(group, arn == null ? null : arn.toString());
        return Map.of();
    }
}

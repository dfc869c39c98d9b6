package io.gamefleet.infra;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The deployer's choices for the container groups' EC2 capacity ({@link ContainerInstances}),
 * checked as they are read: each refusal names its context key.
 *
 * @param instanceTypes the instance types the Auto Scaling group may launch, the on-demand ones in
 *     this order of preference
 * @param min the instances kept running with no task to place (what the capacity costs idle)
 * @param max the most instances ECS's managed scaling may run
 * @param onDemandBase the first instances launched on-demand; every one above them is Spot
 */
record ContainerInstanceOptions(List<String> instanceTypes, int min, int max, int onDemandBase) {
    /** {@code c6i.large}: a family, a dot, a size. */
    private static final Pattern INSTANCE_TYPE = Pattern.compile("^([a-z][a-z0-9-]*)\\.[a-z0-9]+$");
    /** A Graviton (ARM64) family: a 'g' after its generation (c6g, m7gd, c7gn, t4g, im4gn, is4gen, g5g) or a1. */
    private static final Pattern ARM_FAMILY = Pattern.compile("^(?:a1|[a-z]+\\d+g[a-z]*)$");

    ContainerInstanceOptions {
        if (instanceTypes.isEmpty()) {
            throw new IllegalArgumentException("context " + DeploymentContext.CONTAINER_INSTANCE_TYPES
                    + " must name at least one instance type, such as c6i.large,c5.large");
        }
        for (String type : instanceTypes) {
            var m = INSTANCE_TYPE.matcher(type);
            if (!m.matches()) {
                throw new IllegalArgumentException("context " + DeploymentContext.CONTAINER_INSTANCE_TYPES
                        + " must list EC2 instance types (such as c6i.large), comma-separated, not " + type);
            }
            if (ARM_FAMILY.matcher(m.group(1)).matches()) {
                throw new IllegalArgumentException("context " + DeploymentContext.CONTAINER_INSTANCE_TYPES
                        + " must list x86_64 instance types (the instances run the x86_64 ECS-optimized AMI), not the"
                        + " Graviton type " + type);
            }
        }
        if (max < 1) {
            throw new IllegalArgumentException("context " + DeploymentContext.CONTAINER_INSTANCES_MAX
                    + " must be at least 1 (instances)");
        }
        if (min > max) {
            throw new IllegalArgumentException("context " + DeploymentContext.CONTAINER_INSTANCES_MIN + " (" + min
                    + ") must not be above " + DeploymentContext.CONTAINER_INSTANCES_MAX + " (" + max + ")");
        }
        if (onDemandBase > max) {
            throw new IllegalArgumentException("context " + DeploymentContext.CONTAINER_INSTANCES_ON_DEMAND_BASE + " ("
                    + onDemandBase + ") must not be above " + DeploymentContext.CONTAINER_INSTANCES_MAX + " (" + max + ")");
        }
        instanceTypes = List.copyOf(instanceTypes);
    }
}

package io.gamefleet.triggers;

import io.gamefleet.catalog.ContainerTasks;
import io.gamefleet.domain.InstanceEvents;
import io.gamefleet.domain.ServiceSettings;
import java.util.Map;

/**
 * ECS "ECS Task State Change" events read as the EC2 events of the task's instance: a container
 * group's task is an instance ({@link ContainerTasks#instanceId}), so a task being stopped while it
 * runs for a Fargate Spot interruption (its SIGTERM) is a Spot interruption warning, and a stopped
 * task a terminated instance. Any other stop of a running task (its essential container exited at
 * its game's end, a deployment of a new capacity provider strategy, a scale-in, a StopTask) only
 * takes it out of claims ({@link InstanceEvents#stopping}): counted as an interruption, it would
 * make Fargate Spot look unreliable, and its service replaces it. Tasks of none of the stage's container
 * services ({@code group} is not {@code service:} and such a service's name), and tasks no group
 * of the stage records, are not handled.
 */
final class TaskStateChanges {
    static final String DETAIL_TYPE = "ECS Task State Change";
    private static final String SERVICE_GROUP = "service:";
    private static final String STOPPED = "STOPPED";
    private static final String SPOT_INTERRUPTION = "SpotInterruption";

    private TaskStateChanges() {}

    /** Whether the event named a task of a container group, and so was handled. */
    static boolean handle(Map<?, ?> detail, Object eventTime, ServiceSettings settings, InstanceEvents events) {
        if (!(detail.get("taskArn") instanceof String taskArn) || !(detail.get("group") instanceof String group)
                || !group.startsWith(SERVICE_GROUP)
                || !settings.namesContainerService(group.substring(SERVICE_GROUP.length()))
                || !STOPPED.equals(detail.get("desiredStatus"))) {
            return false;
        }
        String instanceId;
        try {
            instanceId = ContainerTasks.instanceId(taskArn);
        } catch (IllegalArgumentException notATask) {
            return false;
        }
        if (STOPPED.equals(detail.get("lastStatus"))) {
            return events.terminated(instanceId);
        }
        if (!SPOT_INTERRUPTION.equals(detail.get("stopCode"))) {
            return events.stopping(instanceId);
        }
        // When ECS began stopping it (the SIGTERM), else the event's own time.
        Object stopping = detail.get("stoppingAt") != null ? detail.get("stoppingAt") : eventTime;
        return events.spotInterruptionWarning(instanceId, InstanceEventHandler.time(stopping));
    }
}

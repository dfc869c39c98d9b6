package io.gamefleet.triggers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import io.gamefleet.catalog.ContainerTasks;
import io.gamefleet.domain.ServiceSettings;
import io.gamefleet.logging.JsonLog;
import io.gamefleet.wiring.Services;
import java.util.Map;

/**
 * ECS "ECS Task State Change" events routed by the catalog's rule ({@link io.gamefleet.catalog.Triggers#TASK_EVENTS}):
 * a container group's task is an instance ({@link ContainerTasks#instanceId}), so a task being
 * stopped while it runs (a Fargate Spot interruption's SIGTERM, or any stop ECS makes) is a Spot
 * interruption warning, and a stopped task a terminated instance. Tasks of no container service
 * ({@code group} is not {@code service:} and a container service's name), and tasks no group of the
 * stage records, are not handled.
 */
public final class TaskEventHandler implements RequestHandler<Map<String, Object>, Map<String, Object>> {
    private static final String SERVICE_GROUP = "service:";
    private final Services services;

    public TaskEventHandler() {
        this(Services.shared());
    }

    public TaskEventHandler(Services services) {
        this.services = services;
    }

    @Override
    public Map<String, Object> handleRequest(Map<String, Object> event, Context context) {
        try (JsonLog.Invocation invocation = JsonLog.invocation(context == null ? null : context.getAwsRequestId(),
                getClass().getSimpleName())) {
            return Map.of("Handled", handle(event));
        }
    }

    private boolean handle(Map<String, Object> event) {
        if (!"ECS Task State Change".equals(event.get("detail-type")) || !(event.get("detail") instanceof Map<?, ?> detail)
                || !(detail.get("taskArn") instanceof String taskArn) || !(detail.get("group") instanceof String group)
                || !group.startsWith(SERVICE_GROUP) || !ServiceSettings.isContainerService(group.substring(SERVICE_GROUP.length()))
                || !"STOPPED".equals(detail.get("desiredStatus"))) {
            return false;
        }
        String instanceId;
        try {
            instanceId = ContainerTasks.instanceId(taskArn);
        } catch (IllegalArgumentException notATask) {
            return false;
        }
        if ("STOPPED".equals(detail.get("lastStatus"))) {
            return services.instanceEvents().terminated(instanceId);
        }
        // When ECS began stopping it (the SIGTERM), else the event's own time.
        Object stopping = detail.get("stoppingAt") != null ? detail.get("stoppingAt") : event.get("time");
        return services.instanceEvents().spotInterruptionWarning(instanceId, InstanceEventHandler.time(stopping));
    }
}

package io.gamefleet.triggers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import io.gamefleet.logging.JsonLog;
import io.gamefleet.wiring.Services;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * EC2 events routed by the catalog's rule: "EC2 Spot Instance Interruption Warning" and
 * "EC2 Instance State-change Notification" (only the terminal states matter here); and ECS's
 * "ECS Task State Change" of a container group's task, read as its instance's ({@link TaskStateChanges}).
 */
public final class InstanceEventHandler implements RequestHandler<Map<String, Object>, Map<String, Object>> {
    private final Services services;

    public InstanceEventHandler() {
        this(Services.shared());
    }

    public InstanceEventHandler(Services services) {
        this.services = services;
    }

    @Override
    public Map<String, Object> handleRequest(Map<String, Object> event, Context context) {
        try (JsonLog.Invocation invocation = JsonLog.invocation(context == null ? null : context.getAwsRequestId(),
                getClass().getSimpleName())) {
            return handle(event);
        }
    }

    private Map<String, Object> handle(Map<String, Object> event) {
        Object type = event.get("detail-type");
        if (!(event.get("detail") instanceof Map<?, ?> detail)) {
            return Map.of("Handled", false);
        }
        if (TaskStateChanges.DETAIL_TYPE.equals(type)) {
            return Map.of("Handled", TaskStateChanges.handle(detail, event.get("time"), services.settings(),
                    services.instanceEvents()));
        }
        if (!(detail.get("instance-id") instanceof String id)) {
            return Map.of("Handled", false);
        }
        boolean handled;
        if ("EC2 Spot Instance Interruption Warning".equals(type)) {
            handled = services.instanceEvents().spotInterruptionWarning(id, time(event.get("time")));
        } else if ("EC2 Instance State-change Notification".equals(type)
                && ("terminated".equals(detail.get("state")) || "shutting-down".equals(detail.get("state")))) {
            handled = services.instanceEvents().terminated(id);
        } else {
            handled = false;
        }
        return Map.of("Handled", handled);
    }

    /** EventBridge's event time (ISO 8601), when it has a readable one. */
    static Optional<Instant> time(Object value) {
        try {
            return value instanceof String text ? Optional.of(Instant.parse(text)) : Optional.empty();
        } catch (java.time.format.DateTimeParseException unreadable) {
            return Optional.empty();
        }
    }
}

package io.gamefleet.catalog;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * How an ECS task of a container group appears where FleetIQ names an instance. FleetIQ's
 * GameServerInstanceId must match {@code ^i-[0-9a-zA-Z]{17}$}; an ECS task id is 32 hex digits, so
 * a task's instance id is {@code i-} and the first 17 of them (68 random bits: no two tasks of a
 * group share one in practice). The agent sidecar and the ECS adapter both derive it here.
 */
public final class ContainerTasks {

    private static final Pattern TASK_ID = Pattern.compile("[0-9a-f]{32}");

    private ContainerTasks() {}

    /** The instance id of a task, given its id or its ARN ({@code arn:aws:ecs:r:a:task/cluster/id}). */
    public static String instanceId(String taskIdOrArn) {
        String id = taskIdOrArn.substring(taskIdOrArn.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        if (!TASK_ID.matcher(id).matches()) {
            throw new IllegalArgumentException("not an ECS task id or ARN: " + taskIdOrArn);
        }
        return "i-" + id.substring(0, 17);
    }
}

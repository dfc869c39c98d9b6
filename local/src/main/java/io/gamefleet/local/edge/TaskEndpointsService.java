package io.gamefleet.local.edge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.local.ecs.SimulatedEcs;
import java.io.IOException;
import java.util.Optional;

/**
 * Each simulated ECS task's own task metadata endpoint, at {@code /_local/tasks/<taskId>/<secret>/metadata/<container>},
 * which its containers are given as {@code ECS_CONTAINER_METADATA_URI_V4} (and no one else: the secret
 * is the task's): {@code GET .../task} answers task metadata v4's task (TaskARN, Cluster,
 * AvailabilityZone, Containers with their Networks' IPv4Addresses, 127.0.0.1), {@code GET} of the
 * endpoint itself the container's entry. There is no ECS agent endpoint ({@code ECS_AGENT_URI}): its
 * task protection would act with the task role, which holds no ECS action, and the backend protects
 * tasks itself. Like an instance's metadata, it takes no SigV4 and no local token. A task that is not
 * running, or a wrong secret, is a 404. The access log shows the secret as {@code *}.
 */
final class TaskEndpointsService implements EdgeService {
    static final String PREFIX = SimulatedEcs.TASK_ENDPOINTS;
    private static final String METADATA = "metadata/";

    private final SimulatedEcs ecs;

    TaskEndpointsService(SimulatedEcs ecs) {
        this.ecs = ecs;
    }

    @Override
    public boolean handles(Exchange exchange) {
        return exchange.path().startsWith(PREFIX);
    }

    @Override
    public void serve(Exchange exchange) throws IOException {
        String[] parts = exchange.path().substring(PREFIX.length()).split("/", 3);
        if (parts.length < 3) {
            notFound(exchange);
            return;
        }
        String taskId = PercentEncoding.segment(parts[0]);
        String secret = PercentEncoding.segment(parts[1]);
        String below = parts[2];
        String method = exchange.method();
        if (below.startsWith(METADATA) && method.equals("GET")) {
            String[] container = below.substring(METADATA.length()).split("/", -1);
            Optional<ObjectNode> task = ecs.taskMetadata(taskId, secret);
            if (container.length == 2 && container[1].equals("task")) {
                answer(exchange, task);
            } else if (container.length == 1) {
                answer(exchange, task.flatMap(t -> containerOf(t, PercentEncoding.segment(container[0]))));
            } else {
                notFound(exchange);
            }
        } else {
            notFound(exchange);
        }
    }

    private static Optional<ObjectNode> containerOf(ObjectNode task, String name) {
        for (JsonNode c : task.path("Containers")) {
            if (c.path("Name").asText().equals(name)) {
                return Optional.of((ObjectNode) c);
            }
        }
        return Optional.empty();
    }

    private static void answer(Exchange exchange, Optional<ObjectNode> body) throws IOException {
        if (body.isEmpty()) {
            notFound(exchange);
        } else {
            exchange.respond(200, body.get().toString());
        }
    }

    private static void notFound(Exchange exchange) throws IOException {
        exchange.respondError(404, "NotFoundException", "no running simulated task has this endpoint");
    }

    /** A path as the access log writes it: a task's endpoint secret as {@code *}. */
    static String logged(String path) {
        return InstanceMetadataService.secretHidden(path, PREFIX);
    }
}

package io.gamefleet.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.catalog.ContainerTasks;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A sidecar's task as the ECS task metadata endpoint (version 4) describes it:
 * {@code GET ${ECS_CONTAINER_METADATA_URI_V4}/task}, its {@code TaskARN}, the private IPv4 address of
 * its network (every container of an awsvpc task shares it) and its {@code AvailabilityZone}.
 */
final class TaskMetadata {
    /** What ECS sets in every container of a task (Fargate platform 1.4.0 and later, the ECS agent on EC2). */
    static final String ENDPOINT_VARIABLE = "ECS_CONTAINER_METADATA_URI_V4";
    /** The endpoint is on the task's own link-local network: it answers at once, or is not there. */
    static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The task: its FleetIQ instance id ({@link ContainerTasks#instanceId}), its address, its zone. */
    record Task(String taskArn, String instanceId, String privateIpv4, String availabilityZone) {}

    private final URI endpoint;
    private final HttpClient http;

    TaskMetadata(URI endpoint, HttpClient http) {
        this.endpoint = endpoint;
        this.http = http;
    }

    /** The task document; an IOException says what failed (unreachable, an answer other than 200, a document without them). */
    Task read() throws IOException, InterruptedException {
        URI uri = URI.create(endpoint.toString().replaceAll("/+$", "") + "/task");
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + uri + " answered " + response.statusCode());
        }
        JsonNode task = JSON.readTree(response.body());
        String arn = task.path("TaskARN").asText("");
        String instanceId;
        try {
            instanceId = ContainerTasks.instanceId(arn);
        } catch (IllegalArgumentException e) {
            throw new IOException("GET " + uri + " has no task ARN (TaskARN \"" + arn + "\")");
        }
        for (JsonNode container : task.path("Containers")) {
            for (JsonNode network : container.path("Networks")) {
                JsonNode addresses = network.path("IPv4Addresses");
                if (addresses.size() > 0 && !addresses.get(0).asText().isEmpty()) {
                    return new Task(arn, instanceId, addresses.get(0).asText(), task.path("AvailabilityZone").asText(""));
                }
            }
        }
        throw new IOException("GET " + uri + " names no IPv4 address in Containers[].Networks[].IPv4Addresses");
    }
}

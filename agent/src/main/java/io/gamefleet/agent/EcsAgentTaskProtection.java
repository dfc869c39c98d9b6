package io.gamefleet.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The ECS agent's task scale-in protection endpoint, {@code PUT ${ECS_AGENT_URI}/task-protection/v1/state}
 * with {@code {"ProtectionEnabled": true, "ExpiresInMinutes": N}} or {@code {"ProtectionEnabled": false}}.
 * It answers {@code {"protection": {"ProtectionEnabled", "ExpirationDate", "TaskArn"}}} when set, or
 * {@code {"failure": {"Arn", "Reason", "Detail"}}} or {@code {"error": {"Code", "Message"}}} when not.
 * Calls go with the task role's credentials, which the ECS agent holds: none are sent here.
 */
final class EcsAgentTaskProtection implements TaskProtectionEndpoint {
    /** What ECS sets in every container of a task. */
    static final String ENDPOINT_VARIABLE = "ECS_AGENT_URI";
    static final String PATH = "/task-protection/v1/state";
    /** The ECS agent calls UpdateTaskProtection for the task before it answers. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI state;
    private final HttpClient http;

    EcsAgentTaskProtection(URI agentEndpoint, HttpClient http) {
        this.state = URI.create(agentEndpoint.toString().replaceAll("/+$", "") + PATH);
        this.http = http;
    }

    @Override
    public void set(boolean enabled, int minutes) {
        ObjectNode body = JSON.createObjectNode().put("ProtectionEnabled", enabled);
        if (enabled) {
            body.put("ExpiresInMinutes", minutes);
        }
        HttpResponse<String> response;
        try {
            response = http.send(HttpRequest.newBuilder(state).timeout(TIMEOUT).header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new Failed("PUT " + state + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Failed("PUT " + state + ": interrupted", e);
        }
        JsonNode answer;
        try {
            answer = JSON.readTree(response.body());
        } catch (IOException e) {
            answer = JSON.missingNode();
        }
        JsonNode protection = answer.path("protection");
        if (response.statusCode() == 200 && protection.path("ProtectionEnabled").isBoolean()
                && protection.path("ProtectionEnabled").asBoolean() == enabled) {
            return;
        }
        String why = answer.path("failure").has("Reason") ? answer.path("failure").path("Reason").asText()
                : answer.path("error").has("Message") ? answer.path("error").path("Code").asText() + ": "
                        + answer.path("error").path("Message").asText()
                : response.body().substring(0, Math.min(response.body().length(), 200));
        throw new Failed("PUT " + state + " answered " + response.statusCode() + " " + why, null);
    }
}

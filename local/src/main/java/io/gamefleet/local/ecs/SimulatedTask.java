package io.gamefleet.local.ecs;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/** A simulated ECS task: its facts, its statuses and times, its protection and its processes. */
final class SimulatedTask {
    final String id;
    final String arn;
    final String cluster;
    final SimulatedService service;
    final ObjectNode definition;
    final String capacityProvider;
    final String zone;
    final String secret;
    final Instant createdAt;
    String lastStatus = "PROVISIONING";
    String desiredStatus = "RUNNING";
    Instant startedAt;
    Instant stoppingAt;
    Instant stoppedAt;
    Instant killAt;
    String stopCode;
    String stoppedReason;
    boolean protectionEnabled;
    Instant protectionExpiry;
    TaskLauncher.Running running;
    int version = 1;

    SimulatedTask(String id, String arn, String cluster, SimulatedService service, ObjectNode definition,
            String capacityProvider, String zone, String secret, Instant createdAt) {
        this.id = id;
        this.arn = arn;
        this.cluster = cluster;
        this.service = service;
        this.definition = definition;
        this.capacityProvider = capacityProvider;
        this.zone = zone;
        this.secret = secret;
        this.createdAt = createdAt;
    }

    boolean protectedAt(Instant now) {
        return protectionEnabled && now.isBefore(protectionExpiry);
    }
}

package io.gamefleet.local.ecs;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/** A simulated ECS service: what it was created with, and its desired count, strategy and status now. */
final class SimulatedService {
    final String cluster;
    final String name;
    final String arn;
    final ObjectNode request;
    final Instant createdAt;
    String taskDefinitionArn;
    int desired;
    ArrayNode strategy;
    String status = "ACTIVE";

    SimulatedService(String cluster, String name, String arn, ObjectNode request, Instant createdAt) {
        this.cluster = cluster;
        this.name = name;
        this.arn = arn;
        this.request = request;
        this.createdAt = createdAt;
    }
}

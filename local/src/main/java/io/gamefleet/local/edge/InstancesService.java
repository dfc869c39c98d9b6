package io.gamefleet.local.edge;

import io.gamefleet.local.ecs.SimulatedEcs;
import io.gamefleet.local.fleet.InstanceMetadata;
import io.gamefleet.local.fleet.SimulatedFleet;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A simulated instance's own paths:
 * <ul>
 * <li>{@code POST /_local/instances/<instanceId>/interrupt} interrupts it as EC2 does: its metadata
 * shows the notice at once, EventBridge's "EC2 Spot Instance Interruption Warning" goes to the event
 * rule's function, and the instance ends two minutes later on the profile's clock. Answers the
 * instance and its end. Given a simulated ECS task's id, or its FleetIQ instance id, it is a Fargate
 * Spot interruption ({@link SimulatedEcs#interrupt}: SIGTERM now, the task stopping with stopCode
 * SpotInterruption and its "ECS Task State Change" event, SIGKILL two minutes later on the clock),
 * answering the task's ARN, instance id and kill time.</li>
 * <li>{@code GET /_local/instances/<instanceId>/credentials} (this run's local token, {@link LocalGuard})
 * answers the instance profile's keys as its metadata hands them to the instance
 * ({@link InstanceMetadata#credentials}: {@code AccessKeyId}, {@code SecretAccessKey}, {@code Token},
 * {@code Expiration}...), for tests that act as a compromised instance.</li>
 * </ul>
 * An instance the fleet does not have (nor a running task, to interrupt) is a 404.
 */
final class InstancesService implements EdgeService {
    private static final String PREFIX = "/_local/instances/";
    private static final String INTERRUPT = "/interrupt";
    private static final String CREDENTIALS = "/credentials";

    private final SimulatedFleet fleet;
    private final SimulatedEcs ecs;
    private final InstanceMetadata metadata;

    InstancesService(SimulatedFleet fleet, SimulatedEcs ecs, InstanceMetadata metadata) {
        this.fleet = fleet;
        this.ecs = ecs;
        this.metadata = metadata;
    }

    /** Whether the path is an instance's credentials: a GET that, unlike the other {@code /_local} reads, needs the token. */
    static boolean isCredentials(String path) {
        return below(path, CREDENTIALS);
    }

    /** {@code /_local/instances/<one segment><action>}. */
    private static boolean below(String path, String action) {
        return path.startsWith(PREFIX) && path.endsWith(action) && path.length() > PREFIX.length() + action.length()
                && path.indexOf('/', PREFIX.length()) == path.length() - action.length();
    }

    @Override
    public boolean handles(Exchange exchange) {
        String method = exchange.method();
        return method.equals("POST") && below(exchange.path(), INTERRUPT)
                || method.equals("GET") && below(exchange.path(), CREDENTIALS);
    }

    @Override
    public void serve(Exchange exchange) throws IOException {
        String path = exchange.path();
        String action = path.substring(path.lastIndexOf('/'));
        String instanceId = PercentEncoding.segment(path.substring(PREFIX.length(), path.length() - action.length()));
        if (fleet.instance(instanceId).isEmpty() && action.equals(INTERRUPT)) {
            interruptTask(exchange, instanceId);
            return;
        }
        if (fleet.instance(instanceId).isEmpty()) {
            exchange.respondError(404, "NotFoundException", "no simulated instance " + instanceId);
            return;
        }
        if (action.equals(CREDENTIALS)) {
            Optional<String> keys = metadata.credentials(instanceId);
            if (keys.isEmpty()) {
                exchange.respondError(404, "NotFoundException", "no simulated instance " + instanceId);
            } else {
                exchange.respond(200, keys.get());
            }
            return;
        }
        fleet.interrupt(instanceId);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("InstanceId", instanceId);
        body.put("TerminationTime", fleet.instance(instanceId).flatMap(SimulatedFleet.InstanceFacts::terminationTime)
                .map(Object::toString).orElse(null));
        exchange.respond(200, Exchange.JSON.writeValueAsString(body));
    }

    private void interruptTask(Exchange exchange, String taskIdOrInstanceId) throws IOException {
        Optional<SimulatedEcs.Interrupted> interrupted = ecs.interrupt(taskIdOrInstanceId);
        if (interrupted.isEmpty()) {
            exchange.respondError(404, "NotFoundException", "no simulated instance or running task " + taskIdOrInstanceId);
            return;
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("TaskArn", interrupted.get().taskArn());
        body.put("InstanceId", interrupted.get().instanceId());
        body.put("KillTime", interrupted.get().killAt().toString());
        exchange.respond(200, Exchange.JSON.writeValueAsString(body));
    }
}

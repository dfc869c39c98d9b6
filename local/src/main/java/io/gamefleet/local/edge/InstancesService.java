package io.gamefleet.local.edge;

import io.gamefleet.local.fleet.SimulatedFleet;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code POST /_local/instances/<instanceId>/interrupt}: interrupts a simulated instance as EC2
 * does: its metadata shows the notice at once, EventBridge's "EC2 Spot Instance Interruption
 * Warning" goes to the event rule's function, and the instance ends two minutes later on the
 * profile's clock. Answers the instance and its end; an instance the fleet does not have is a 404.
 */
final class InstancesService implements EdgeService {
    private static final String PREFIX = "/_local/instances/";
    private static final String INTERRUPT = "/interrupt";

    private final SimulatedFleet fleet;

    InstancesService(SimulatedFleet fleet) {
        this.fleet = fleet;
    }

    @Override
    public boolean handles(Exchange exchange) {
        String path = exchange.path();
        return exchange.method().equals("POST") && path.startsWith(PREFIX) && path.endsWith(INTERRUPT)
                && path.length() > PREFIX.length() + INTERRUPT.length()
                && path.indexOf('/', PREFIX.length()) == path.length() - INTERRUPT.length();
    }

    @Override
    public void serve(Exchange exchange) throws IOException {
        String path = exchange.path();
        String instanceId = PercentEncoding.segment(path.substring(PREFIX.length(), path.length() - INTERRUPT.length()));
        if (fleet.instance(instanceId).isEmpty()) {
            exchange.respondError(404, "NotFoundException", "no simulated instance " + instanceId);
            return;
        }
        fleet.interrupt(instanceId);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("InstanceId", instanceId);
        body.put("TerminationTime", fleet.instance(instanceId).flatMap(SimulatedFleet.InstanceFacts::terminationTime)
                .map(Object::toString).orElse(null));
        exchange.respond(200, Exchange.JSON.writeValueAsString(body));
    }
}

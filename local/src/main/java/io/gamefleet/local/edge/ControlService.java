package io.gamefleet.local.edge;

import io.gamefleet.local.fleet.Scheduler;
import java.io.IOException;

/**
 * The local profile's own paths, which AWS has no counterpart of: {@code /_local/health}, and
 * {@code POST /_local/schedules/{name}}, which runs a schedule now (as its period would).
 */
final class ControlService implements EdgeService {
    static final String HEALTH = "/_local/health";
    private static final String SCHEDULES = "/_local/schedules/";

    private final Scheduler scheduler;

    ControlService(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    @Override
    public boolean handles(Exchange exchange) {
        return exchange.path().equals(HEALTH)
                || exchange.method().equals("POST") && exchange.path().startsWith(SCHEDULES);
    }

    @Override
    public void serve(Exchange exchange) throws IOException {
        if (exchange.path().equals(HEALTH)) {
            exchange.respond(200, "{\"status\":\"ready\"}");
            return;
        }
        String name = exchange.path().substring(SCHEDULES.length());
        if (!scheduler.names().contains(name)) {
            exchange.respondError(404, "NotFoundException", "no schedule named " + name + "; there are "
                    + scheduler.names());
            return;
        }
        exchange.respond(200, Exchange.JSON.writeValueAsString(scheduler.run(name)));
    }
}

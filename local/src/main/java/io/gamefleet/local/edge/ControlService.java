package io.gamefleet.local.edge;

import io.gamefleet.local.fleet.Scheduler;
import io.gamefleet.local.fleet.Timeline;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The local profile's own paths, which AWS has no counterpart of: {@code /_local/health}, and
 * {@code POST /_local/schedules/{name}}, which runs a schedule now (as its period would), and
 * {@code GET /_local/timeline?after=N}, the fleet's events and schedule runs numbered above N.
 *
 * <p>Health is 200 {@code {"status":"ready","dependencies":{...}}} while every process the profile
 * needs runs (or is given by its endpoint), else 503 with status {@code "unavailable"}; each
 * dependency says its state and, when it is not running, why.
 */
final class ControlService implements EdgeService {
    static final String HEALTH = "/_local/health";
    private static final String SCHEDULES = "/_local/schedules/";
    private static final String TIMELINE = "/_local/timeline";

    /** The states of a dependency that serve requests. */
    private static final Set<String> SERVING = Set.of("running", "external");

    private final Scheduler scheduler;
    private final Supplier<Map<String, Map<String, Object>>> dependencies;
    private final Timeline timeline;

    ControlService(Scheduler scheduler, Supplier<Map<String, Map<String, Object>>> dependencies, Timeline timeline) {
        this.scheduler = scheduler;
        this.dependencies = dependencies;
        this.timeline = timeline;
    }

    @Override
    public boolean handles(Exchange exchange) {
        return exchange.path().equals(HEALTH)
                || exchange.method().equals("GET") && exchange.path().equals(TIMELINE)
                || exchange.method().equals("POST") && exchange.path().startsWith(SCHEDULES);
    }

    @Override
    public void serve(Exchange exchange) throws IOException {
        if (exchange.path().equals(HEALTH)) {
            Map<String, Map<String, Object>> each = dependencies.get();
            boolean ready = each.values().stream().allMatch(d -> SERVING.contains(String.valueOf(d.get("state"))));
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("status", ready ? "ready" : "unavailable");
            body.put("dependencies", each);
            exchange.respond(ready ? 200 : 503, Exchange.JSON.writeValueAsString(body));
            return;
        }
        if (exchange.path().equals(TIMELINE)) {
            exchange.respond(200, Exchange.JSON.writeValueAsString(Map.of("Entries", timeline.after(after(exchange)))));
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

    /** The query's {@code after}, 0 if none. */
    private static long after(Exchange exchange) {
        String query = exchange.query();
        if (query == null || !query.startsWith("after=")) {
            return 0;
        }
        try {
            return Long.parseLong(query.substring("after=".length()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("after must be a whole number, not " + query.substring(6));
        }
    }
}

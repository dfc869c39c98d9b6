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
 * {@code GET /_local/timeline?after=N}, the fleet's events and schedule runs numbered above N, and
 * {@code POST /_local/regions/{region}/outage} and {@code .../recover}, which take a region of the
 * run down and bring it back ({@link Outage}), whichever region's edge is asked.
 *
 * <p>Health is 200 {@code {"status":"ready","dependencies":{...}}} while every process the profile
 * needs runs (or is given by its endpoint), else 503 with status {@code "unavailable"}; each
 * dependency says its state and, when it is not running, why.
 */
final class ControlService implements EdgeService {
    static final String HEALTH = "/_local/health";
    private static final String SCHEDULES = "/_local/schedules/";
    private static final String TIMELINE = "/_local/timeline";
    private static final String REGIONS = "/_local/regions/";

    /** The states of a dependency that serve requests. */
    private static final Set<String> SERVING = Set.of("running", "external");

    private final Scheduler scheduler;
    private final Supplier<Map<String, Map<String, Object>>> dependencies;
    private final Timeline timeline;
    private final Map<String, Outage> outages;

    /** {@code outages}: those of every region of the run, by region. */
    ControlService(Scheduler scheduler, Supplier<Map<String, Map<String, Object>>> dependencies, Timeline timeline,
            Map<String, Outage> outages) {
        this.scheduler = scheduler;
        this.dependencies = dependencies;
        this.timeline = timeline;
        this.outages = outages;
    }

    @Override
    public boolean handles(Exchange exchange) {
        return exchange.path().equals(HEALTH)
                || exchange.method().equals("GET") && exchange.path().equals(TIMELINE)
                || exchange.method().equals("POST") && (exchange.path().startsWith(SCHEDULES)
                        || exchange.path().startsWith(REGIONS));
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
        if (exchange.path().startsWith(REGIONS)) {
            region(exchange);
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

    /** {@code POST /_local/regions/{region}/outage} or {@code .../recover}. */
    private void region(Exchange exchange) throws IOException {
        String[] parts = exchange.path().substring(REGIONS.length()).split("/", -1);
        if (parts.length != 2 || !(parts[1].equals("outage") || parts[1].equals("recover"))) {
            exchange.respondError(404, "NotFoundException", "no route for POST " + exchange.path()
                    + "; a region's are POST " + REGIONS + "{region}/outage and " + REGIONS + "{region}/recover");
            return;
        }
        String region = PercentEncoding.segment(parts[0]);
        Outage outage = outages.get(region);
        if (outage == null) {
            exchange.respondError(404, "NotFoundException", "no region " + region + " in this run; its regions are "
                    + outages.keySet());
            return;
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("Region", region);
        if (parts[1].equals("outage")) {
            outage.begin();
            body.put("Outage", true);
        } else {
            body.put("Dropped", outage.end());
            body.put("Outage", false);
        }
        exchange.respond(200, Exchange.JSON.writeValueAsString(body));
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

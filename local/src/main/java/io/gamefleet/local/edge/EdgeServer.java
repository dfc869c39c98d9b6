package io.gamefleet.local.edge;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.gamefleet.local.fleet.EventRouter;
import io.gamefleet.local.fleet.Scheduler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The one loopback port of the local profile, standing for every AWS endpoint its clients and
 * the Step Functions sidecar call: it hands each request to the first service that takes it, and
 * turns what a service did not expect into a JSON error.
 */
public final class EdgeServer implements AutoCloseable {
    static {
        // The JDK server writes headers and body separately; with Nagle's algorithm on, every
        // response then waits for the client's delayed ACK (about 40 ms).
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    /** Until {@link #serve}: the health path says "starting", and no other path has a service yet. */
    private static final EdgeService STARTING = new EdgeService() {
        @Override
        public boolean handles(Exchange exchange) {
            return exchange.path().equals(ControlService.HEALTH);
        }

        @Override
        public void serve(Exchange exchange) throws IOException {
            exchange.respond(503, "{\"status\":\"starting\"}");
        }
    };

    private final HttpServer server;
    private final ExecutorService executor;
    private final List<Principal> principals;
    private final Clock clock;
    private volatile List<EdgeService> services = List.of(STARTING);

    /** Listens at once: the sidecar, started before the functions exist, needs this endpoint. */
    public EdgeServer(int port, List<Principal> principals, Clock clock) throws IOException {
        this.principals = List.copyOf(principals);
        this.clock = clock;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 256);
        this.executor = Executors.newFixedThreadPool(64, r -> {
            Thread t = new Thread(r, "edge");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** From now on serves the functions, through every emulated service. */
    public void serve(Functions functions, EventRouter events, Scheduler scheduler) {
        services = List.of(new ControlService(scheduler), new EventBridgeService(events),
                new LambdaService(functions.byName()), new ApiGatewayService(functions.routes(), functions.jsonDoor(), principals, clock));
    }

    private void handle(HttpExchange http) throws IOException {
        try (http) {
            Exchange exchange = new Exchange(http);
            try {
                EdgeService service = services.stream().filter(s -> s.handles(exchange)).findFirst().orElse(null);
                if (service == null) { // as API Gateway answers where no route matches
                    exchange.respondError(404, "NotFoundException", "no route for " + exchange.method() + " "
                            + exchange.path());
                } else {
                    service.serve(exchange);
                }
            } catch (JsonProcessingException e) {
                exchange.respondError(400, "InvalidRequestException", "the body is not valid JSON: "
                        + e.getOriginalMessage());
            } catch (IllegalArgumentException e) { // an event that is not an object, a bad percent-encoding
                exchange.respondError(400, "InvalidRequestException", e.getMessage());
            } catch (RuntimeException e) {
                e.printStackTrace();
                exchange.respondError(500, "InternalServiceException", "the local edge server failed: " + e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}

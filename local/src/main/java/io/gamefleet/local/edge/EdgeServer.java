package io.gamefleet.local.edge;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.gamefleet.catalog.Throttles;
import io.gamefleet.local.fleet.EventRouter;
import io.gamefleet.local.fleet.Scheduler;
import io.gamefleet.local.fleet.Timeline;
import io.gamefleet.logging.ErrorLog;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import io.gamefleet.local.ecs.SimulatedEcs;
import io.gamefleet.local.fleet.InstanceMetadata;
import io.gamefleet.local.fleet.SimulatedFleet;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;
import org.eclipse.jetty.server.Server;

/**
 * The one loopback port of the local profile, standing for every AWS endpoint its clients and
 * the Step Functions sidecar call: it hands each request to the first service that takes it, and
 * turns what a service did not expect into a JSON error.
 *
 * <p>Requests reach a service only once they are whole ({@link WholeRequests}), on a pool of
 * {@value #WORKERS} workers; {@code /_local/health} has a thread of its own, so it answers while
 * every worker waits on a stalled dependency. While its region is down ({@link #outage()}) the
 * API's requests are held on no thread and never served.
 */
public final class EdgeServer implements AutoCloseable {
    static final int WORKERS = 64;

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

    /**
     * How the edge is set up: its region (what its SigV4 checks take, and its events name), its
     * port (0: any free one), the token of its unsigned paths that change state ({@link LocalGuard}),
     * whether SigV4's UNSIGNED-PAYLOAD is taken, where its access log lines go, if anywhere
     * ({@link AccessLog}), and which requests have one ({@link LogLevel}), the stage's route throttles it applies as API Gateway does, if any
     * ({@link RouteThrottles}), and whether the API takes only {@code execute-api} signatures, as API
     * Gateway does ({@code strictSigning}), or {@code gamelift} too.
     */
    public record Settings(String region, int port, String localToken, boolean allowUnsignedPayload,
            Optional<Consumer<String>> accessLog, LogLevel logLevel, Optional<Throttles> throttles,
            boolean strictSigning) {}

    /** The header that carries the token of the unsigned paths that change state (and of the sidecar's calls). */
    public static final String LOCAL_TOKEN_HEADER = LocalGuard.TOKEN_HEADER;

    /** A new token for {@link Settings#localToken}: 32 random bytes, base64url. */
    public static String newLocalToken() {
        return LocalGuard.newToken();
    }

    private final Settings settings;
    private final HttpEdge http;
    /** Jetty handlers of their own, before the emulated services: see {@link #addHandler}. */
    private final Handler.Sequence endpoints = new Handler.Sequence();
    private final ExecutorService workers;
    private volatile LambdaService lambda;
    private final ExecutorService health;
    private final PrincipalRegistry principals;
    /** The first principal given (the built-in admin, or a --principals file's): the console signs as it. Null if none. */
    private final Principal admin;
    private final Clock clock;
    private final ErrorLog errors = ErrorLog.SHARED;
    private volatile List<EdgeService> services = List.of(STARTING);
    /** The API's service, whose requests an outage holds; none until {@link #serve}. */
    private volatile ApiGatewayService api;
    private final Outage outage = new Outage();
    private volatile InstanceMetadata metadata;

    /** Listens at once: the sidecar, started before the functions exist, needs this endpoint. */
    public EdgeServer(Settings settings, List<Principal> principals, Clock clock) throws IOException {
        this(settings, principals, clock, HttpEdge.Limits.defaults());
    }

    EdgeServer(Settings settings, List<Principal> principals, Clock clock, HttpEdge.Limits limits)
            throws IOException {
        this.settings = settings;
        this.principals = new PrincipalRegistry(principals);
        this.admin = principals.isEmpty() ? null : principals.get(0);
        this.clock = clock;
        this.workers = Executors.newFixedThreadPool(WORKERS, daemon("edge"));
        this.health = Executors.newSingleThreadExecutor(daemon("edge-health"));
        endpoints.addHandler(new WholeRequests(limits, exchange -> {
            // Held here, on Jetty's thread, before any worker takes it: a held request holds no thread.
            if (outage.down() && api != null && serviceOf(exchange) == api && outage.hold(exchange)) {
                return;
            }
            if (settings.logLevel() == LogLevel.REQUESTS) {
                AccessLog.noteHeartbeat(exchange); // which that level's access log leaves out
            }
            ExecutorService executor = exchange.path().equals(ControlService.HEALTH) ? health : workers;
            executor.execute(() -> handle(exchange));
        }));
        try {
            this.http = new HttpEdge(settings.port(), limits, settings.accessLog()
                    .map(out -> new AccessLog(clock, out, settings.logLevel())).orElse(null), new LocalGuard(settings.localToken(), endpoints));
        } catch (IOException e) { // a port in use, say: nothing of this edge may stay behind
            workers.shutdownNow();
            health.shutdownNow();
            throw e;
        }
    }

    /**
     * Adds a Jetty handler of its own (the agent's push channel, a WebSocket endpoint; the
     * console's static files), tried before the emulated services, behind the same limits and
     * the same {@code Host}, {@code Origin} and token checks ({@link LocalGuard}). It
     * answers the requests it owns and returns false for the others, which go on to the services.
     * {@link #jetty()} gives the server that such a handler may need (a WebSocket container).
     */
    public void addHandler(Handler handler) {
        List<Handler> handlers = new ArrayList<>(endpoints.getHandlers());
        handlers.add(handlers.size() - 1, handler);
        endpoints.setHandlers(handlers);
    }

    /** The Jetty server behind the edge, for handlers that need it ({@code WebSocketUpgradeHandler.from}). */
    public Server jetty() {
        return http.jetty();
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** Its region's outage: while it is down, the API's requests are held and never served. */
    public Outage outage() {
        return outage;
    }

    /** Its callers, which the profile adds to and takes from while it runs (each instance's agent). */
    public PrincipalRegistry principals() {
        return principals;
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + http.port());
    }

    /**
     * The instance's metadata service (IMDSv2), as its agent alone is given it: its path holds the
     * instance's endpoint secret ({@link InstanceMetadata#secretOf}). Known once the edge serves.
     */
    public URI metadataEndpoint(String instanceId) {
        InstanceMetadata m = metadata;
        if (m == null) {
            throw new IllegalStateException("the edge serves no instance metadata yet");
        }
        return endpoint().resolve(InstanceMetadataService.PREFIX + instanceId + "/" + m.secretOf(instanceId));
    }

    /** The push channel's WebSocket, as the agents are given it. */
    public URI pushEndpoint() {
        return URI.create("ws://127.0.0.1:" + http.port() + io.gamefleet.catalog.PushChannel.LOCAL_PATH);
    }

    /**
     * From now on serves the functions, through every emulated service; {@code dependencies}
     * reports the state of each process the profile needs, for {@code /_local/health}; the console's
     * built files are in {@code console}; {@code outages} are those of every region of the run (this
     * one's included), which its {@code /_local/regions/} paths start and end.
     */
    public void serve(Functions functions, EventRouter events, Scheduler scheduler, Timeline timeline, Instances instances,
            Supplier<Map<String, Map<String, Object>>> dependencies, Path console, Map<String, Outage> outages) {
        String region = settings.region();
        PushSockets push = new PushSockets(functions.pushRoutes(), principals, region, clock, settings.throttles()
                .map(t -> new RouteThrottles(t.pushRoutes(), Optional.of(t.pushStage()), clock))
                .orElseGet(() -> RouteThrottles.none(clock)));
        WebSocketUpgradeHandler webSockets = WebSocketUpgradeHandler.from(jetty(), push::configure);
        addHandler(webSockets);
        try {
            // added to a running server: its WebSocket container (and mappings) start only when it does
            if (!webSockets.isStarted()) {
                webSockets.start();
            }
        } catch (Exception e) {
            throw new IllegalStateException("the push channel's WebSocket endpoint did not start: " + e.getMessage(), e);
        }
        InstanceProfileKeys instanceKeys = new InstanceProfileKeys(instances.fleet(), clock);
        principals.issuedBy(instanceKeys::principal);
        InstanceMetadata instanceMetadata = new InstanceMetadata(instances.fleet(), clock, instanceKeys);
        metadata = instanceMetadata;
        ApiGatewayService apiGateway = new ApiGatewayService(functions.routes(), functions.extensions(),
                functions.jsonDoor(), principals, region, clock, settings.allowUnsignedPayload(), settings.throttles()
                        .map(t -> new RouteThrottles(t.httpRoutes(), Optional.empty(), clock))
                        .orElseGet(() -> RouteThrottles.none(clock)), settings.strictSigning());
        services = List.of(new ControlService(scheduler, dependencies, timeline, outages),
                new ConsoleService(console, admin, settings.localToken(), region),
                new EventBridgeService(events, principals, region, clock, settings.allowUnsignedPayload()),
                new InstanceMetadataService(instanceMetadata),
                new InstancesService(instances.fleet(), instances.ecs(), instanceMetadata),
                new TaskEndpointsService(instances.ecs()),
                // The wall clock: the functions' ECS clients sign by it, whatever the simulation's clock says.
                new EcsService(instances.ecs(), principals, instances.functions(), region, Clock.systemUTC(),
                        settings.allowUnsignedPayload()),
                new ConnectionsService(push, instances.functions(), region, clock),
                lambda(new LambdaService(functions.invocable())), apiGateway);
        api = apiGateway;
    }

    private LambdaService lambda(LambdaService service) {
        LambdaService before = lambda;
        lambda = service;
        if (before != null) {
            before.close();
        }
        return service;
    }

    /**
     * Waits until the asynchronous Lambda invocations taken so far (the functions' standby requests)
     * have run; false when {@code limit} passed first or no functions are served yet.
     */
    public boolean awaitLambdaEvents(Duration limit) throws InterruptedException {
        LambdaService service = lambda;
        return service != null && service.awaitEvents(limit);
    }

    /**
     * The simulated instances, for their metadata and interruption, the simulated ECS, for its API,
     * its tasks' endpoints and their interruption, and the functions' own principal, which alone may
     * post to the push channel's connections.
     */
    public record Instances(SimulatedFleet fleet, SimulatedEcs ecs, Principal functions) {}

    /** The first service that takes the request, or null. */
    private EdgeService serviceOf(Exchange exchange) {
        return services.stream().filter(s -> s.handles(exchange)).findFirst().orElse(null);
    }

    private void handle(Exchange exchange) {
        try {
            try {
                EdgeService service = serviceOf(exchange);
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
            } catch (RuntimeException | IOException | Error e) {
                errors.report("the local edge failed on " + exchange.method() + " " + exchange.path(), e);
                exchange.respondError(500, "InternalServiceException", "the local edge server failed: " + e.getMessage()
                        + "; it is safe to retry");
            }
            if (!exchange.answered()) {
                exchange.respondError(500, "InternalServiceException", "the local edge server gave no answer");
            }
        } catch (IOException | RuntimeException e) {
            errors.report("the local edge could not answer", e);
        }
    }

    @Override
    public void close() {
        outage.end(); // what it held is dropped, not left to Jetty's stop
        http.close();
        if (lambda != null) {
            lambda.close();
        }
        workers.shutdownNow();
        health.shutdownNow();
    }
}

package io.gamefleet.local.edge;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.gamefleet.catalog.Route;
import io.gamefleet.local.edge.SigV4Verifier.Result;
import io.gamefleet.local.fleet.EventRouter;
import io.gamefleet.local.fleet.Scheduler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

/**
 * The local API Gateway and Lambda front door, on loopback: the catalog's routes with SigV4
 * verification and the route's roles (403 before any handler runs, as IAM auth does), the
 * Lambda Invoke path that the Step Functions sidecar calls, and {@code /_local/health}.
 */
public final class EdgeServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    static {
        // The JDK server writes headers and body separately; with Nagle's algorithm on, every
        // response then waits for the client's delayed ACK (about 40 ms).
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }
    private static final String INVOKE_PREFIX = "/2015-03-31/functions/";
    private static final String SCHEDULES_PREFIX = "/_local/schedules/";

    private final HttpServer server;
    private final ExecutorService executor;
    private final Map<String, Principal> principals;
    private final SigV4Verifier verifier;
    private final String region;
    private final String accountId;
    private volatile List<ApiRoute> routes = List.of();
    private volatile Map<String, RequestHandler<?, ?>> functions = Map.of();
    private volatile boolean ready;
    private volatile EventRouter events;
    private volatile Scheduler schedules;

    public record ApiRoute(Route route, String[] segments, RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler) {}

    public EdgeServer(int port, List<Principal> principals, Clock clock, String region, String accountId) throws IOException {
        this.principals = principals.stream().collect(Collectors.toMap(Principal::accessKeyId, p -> p, (a, b) -> b));
        this.verifier = new SigV4Verifier(region, "execute-api",
                key -> Optional.ofNullable(this.principals.get(key)).map(Principal::secretAccessKey), clock);
        this.region = region;
        this.accountId = accountId;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 256);
        this.executor = Executors.newFixedThreadPool(64, r -> {
            Thread t = new Thread(r, "edge");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::serve);
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public void serve(List<ApiRoute> apiRoutes, Map<String, RequestHandler<?, ?>> byFunctionName, EventRouter router,
            Scheduler scheduler) {
        this.routes = List.copyOf(apiRoutes);
        this.functions = Map.copyOf(byFunctionName);
        this.events = router;
        this.schedules = scheduler;
        this.ready = true;
    }

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            try {
                dispatch(exchange);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                send(exchange, 400, error("InvalidRequestException", "the body is not valid JSON: "
                        + e.getOriginalMessage()));
            } catch (IllegalArgumentException e) { // an event that is not an object, a bad percent-encoding
                send(exchange, 400, error("InvalidRequestException", e.getMessage()));
            } catch (RuntimeException e) {
                e.printStackTrace();
                send(exchange, 500, error("InternalServiceException", "the local edge server failed: " + e.getMessage()));
            }
        }
    }

    private void dispatch(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        String method = exchange.getRequestMethod();
        byte[] body = exchange.getRequestBody().readAllBytes();
        if (path.equals("/_local/health")) {
            send(exchange, ready ? 200 : 503, ready ? "{\"status\":\"ready\"}" : "{\"status\":\"starting\"}");
        } else if (method.equals("POST") && path.equals("/_local/events")) {
            localEvents(exchange, body);
        } else if (method.equals("POST") && path.startsWith(SCHEDULES_PREFIX)) {
            String name = path.substring(SCHEDULES_PREFIX.length());
            if (!schedules.names().contains(name)) {
                send(exchange, 404, error("NotFoundException", "no schedule named " + name + "; there are "
                        + schedules.names()));
                return;
            }
            send(exchange, 200, JSON.writeValueAsString(schedules.run(name)));
        } else if (method.equals("POST") && path.equals("/")
                && "AWSEvents.PutEvents".equals(exchange.getRequestHeaders().getFirst("X-Amz-Target"))) {
            putEvents(exchange, body);
        } else if (method.equals("POST") && path.startsWith(INVOKE_PREFIX) && path.endsWith("/invocations")) {
            invoke(exchange, path.substring(INVOKE_PREFIX.length(), path.length() - "/invocations".length()), body);
        } else {
            api(exchange, method, path, body);
        }
    }

    private void api(HttpExchange exchange, String method, String rawPath, byte[] body) throws IOException {
        String[] segments = rawPath.split("/", -1);
        for (ApiRoute r : routes) {
            Map<String, String> parameters = match(r, method, segments);
            if (parameters == null) {
                continue;
            }
            String rawQuery = exchange.getRequestURI().getRawQuery();
            Result result = verifier.verify(method, rawPath, rawQuery, exchange.getRequestHeaders(), body);
            if (result instanceof Result.Rejected rejected) {
                send(exchange, 403, error("UnauthorizedException", "request signature rejected: " + rejected.reason()));
                return;
            }
            Principal principal = principals.get(((Result.Accepted) result).accessKeyId());
            if (!r.route().roles().contains(principal.role())) {
                send(exchange, 403, error("UnauthorizedException", "a " + principal.role() + " caller may not call "
                        + r.route().operation()));
                return;
            }
            APIGatewayV2HTTPResponse response = r.handler().handleRequest(
                    event(exchange, r.route(), parameters, rawPath, rawQuery, body, principal), null);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            send(exchange, response.getStatusCode(), response.getBody());
            return;
        }
        send(exchange, 404, error("NotFoundException", "no route for " + method + " " + rawPath));
    }

    private static Map<String, String> match(ApiRoute r, String method, String[] segments) {
        if (!r.route().method().equals(method) || r.segments().length != segments.length) {
            return null;
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i < segments.length; i++) {
            String template = r.segments()[i];
            if (template.startsWith("{") && template.endsWith("}")) {
                if (segments[i].isEmpty()) {
                    return null;
                }
                parameters.put(template.substring(1, template.length() - 1),
                        URLDecoder.decode(segments[i], StandardCharsets.UTF_8));
            } else if (!template.equals(segments[i])) {
                return null;
            }
        }
        return parameters;
    }

    private APIGatewayV2HTTPEvent event(HttpExchange exchange, Route route, Map<String, String> pathParameters,
            String rawPath, String rawQuery, byte[] body, Principal principal) {
        Map<String, String> headers = new LinkedHashMap<>();
        exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(), String.join(",", v)));
        Map<String, String> query = new LinkedHashMap<>();
        if (rawQuery != null && !rawQuery.isEmpty()) {
            for (String pair : rawQuery.split("&")) {
                int eq = pair.indexOf('=');
                String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                query.merge(k, v, (a, b) -> a + "," + b); // API Gateway joins repeated parameters with commas
            }
        }
        var iam = APIGatewayV2HTTPEvent.RequestContext.IAM.builder()
                .withAccessKey(principal.accessKeyId())
                .withAccountId(accountId)
                .withUserArn(principal.callerArn(accountId))
                .build();
        var context = APIGatewayV2HTTPEvent.RequestContext.builder()
                .withRouteKey(route.method() + " " + route.path())
                .withAccountId(accountId)
                .withStage("$default")
                .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder()
                        .withMethod(route.method()).withPath(rawPath).withProtocol("HTTP/1.1")
                        .withSourceIp("127.0.0.1").build())
                .withAuthorizer(APIGatewayV2HTTPEvent.RequestContext.Authorizer.builder().withIam(iam).build())
                .build();
        return APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0")
                .withRouteKey(route.method() + " " + route.path())
                .withRawPath(rawPath)
                .withRawQueryString(rawQuery == null ? "" : rawQuery)
                .withHeaders(headers)
                .withQueryStringParameters(query.isEmpty() ? null : query)
                .withPathParameters(pathParameters.isEmpty() ? null : pathParameters)
                .withBody(body.length == 0 ? null : new String(body, StandardCharsets.UTF_8))
                .withIsBase64Encoded(false)
                .withRequestContext(context)
                .build();
    }

    /** {@code /_local/events}: one EventBridge event (or an array of them), routed by the catalog's rules. */
    @SuppressWarnings("unchecked")
    private void localEvents(HttpExchange exchange, byte[] body) throws IOException {
        JsonNode parsed = JSON.readTree(body);
        int matched = 0;
        for (JsonNode event : parsed.isArray() ? parsed : JSON.createArrayNode().add(parsed)) {
            matched += events.deliver(JSON.convertValue(event, Map.class));
        }
        send(exchange, 200, "{\"Matched\":" + matched + "}");
    }

    /** EventBridge's PutEvents (AWS JSON 1.1): Detail is a JSON string, as the SDKs send it. */
    @SuppressWarnings("unchecked")
    private void putEvents(HttpExchange exchange, byte[] body) throws IOException {
        JsonNode entries = JSON.readTree(body).path("Entries");
        var results = JSON.createArrayNode();
        for (JsonNode entry : entries) {
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("version", "0");
            event.put("id", java.util.UUID.randomUUID().toString());
            event.put("source", entry.path("Source").asText());
            event.put("detail-type", entry.path("DetailType").asText());
            event.put("account", accountId);
            event.put("region", region);
            event.put("detail", JSON.readValue(entry.path("Detail").asText("{}"), Map.class));
            events.deliver(event);
            results.addObject().put("EventId", (String) event.get("id"));
        }
        exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.1");
        send(exchange, 200, JSON.createObjectNode().put("FailedEntryCount", 0).set("Entries", results).toString());
    }

    /** Lambda's Invoke API: a function error is 200 with X-Amz-Function-Error, as in AWS. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private void invoke(HttpExchange exchange, String functionName, byte[] body) throws IOException {
        RequestHandler handler = functions.get(URLDecoder.decode(functionName, StandardCharsets.UTF_8));
        if (handler == null) {
            exchange.getResponseHeaders().add("x-amzn-ErrorType", "ResourceNotFoundException");
            send(exchange, 404, "{\"Type\":\"User\",\"message\":\"Function not found: " + functionName + "\"}");
            return;
        }
        Object output;
        try {
            Object input = handler instanceof io.gamefleet.api.ApiHandler
                    ? JSON.readValue(body, APIGatewayV2HTTPEvent.class)
                    : JSON.readValue(body, Map.class);
            output = handler.handleRequest(input, null);
        } catch (RuntimeException e) {
            exchange.getResponseHeaders().add("X-Amz-Function-Error", "Unhandled");
            Map<String, String> payload = new LinkedHashMap<>();
            payload.put("errorType", e.getClass().getName());
            payload.put("errorMessage", String.valueOf(e.getMessage()));
            send(exchange, 200, JSON.writeValueAsString(payload));
            return;
        }
        send(exchange, 200, JSON.writeValueAsString(output));
    }

    private static String error(String type, String message) {
        try {
            return JSON.writeValueAsString(Map.of("__type", type, "Message", message));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        if (!exchange.getResponseHeaders().containsKey("Content-Type")) {
            exchange.getResponseHeaders().add("Content-Type", "application/json");
        }
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}

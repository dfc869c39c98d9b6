package io.gamefleet.local.edge;

import static io.gamefleet.catalog.LocalAccount.ACCOUNT_ID;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2WebSocketEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2WebSocketResponse;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.local.edge.SigV4Verifier.Result;
import io.gamefleet.logging.ErrorLog;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.server.ServerUpgradeRequest;
import org.eclipse.jetty.websocket.server.ServerUpgradeResponse;
import org.eclipse.jetty.websocket.server.ServerWebSocketContainer;

/**
 * The push channel's WebSocket API, locally, at {@code ws://127.0.0.1:<port>/push}: as API
 * Gateway does, the upgrade's SigV4 signature ({@code execute-api}, in the headers) is verified,
 * then the {@code $connect} function decides (anything but 200 refuses the upgrade with its status
 * and body); each text frame goes to {@code $default}, whose answer is sent back as a frame; the
 * end of the connection (either side's) calls {@code $disconnect}. {@link #post} is what
 * PostToConnection does: a text frame to an open connection, or false (410 Gone) when it is not open.
 * The stage's route throttles come first ({@link RouteThrottles}): a throttled upgrade is refused
 * 429, a throttled message answered {@code {"message":"Too Many Requests"}}, as API Gateway's are.
 * Public, with its {@link Connection}, only because Jetty calls the listener's methods through
 * public method handles.
 */
public final class PushSockets {
    /** API Gateway's idle timeout of a WebSocket connection, and the largest message it takes. */
    static final Duration IDLE_TIMEOUT = Duration.ofMinutes(10);
    static final int MAX_MESSAGE_BYTES = 128 * 1024;
    private static final char[] ID_CHARACTERS =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".toCharArray();

    private final Map<String, RequestHandler<APIGatewayV2WebSocketEvent, APIGatewayV2WebSocketResponse>> routes;
    private final PrincipalRegistry principals;
    private final SigV4Verifier verifier;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Connection> open = new ConcurrentHashMap<>();
    private final RouteThrottles throttles;

    PushSockets(Map<String, RequestHandler<APIGatewayV2WebSocketEvent, APIGatewayV2WebSocketResponse>> routes,
            PrincipalRegistry principals, String region, Clock clock, RouteThrottles throttles) {
        this.throttles = throttles;
        this.routes = Map.copyOf(routes);
        this.principals = principals;
        this.verifier = new SigV4Verifier(region, Set.of(PushChannel.SIGNING_SERVICE), principals::secretOf, clock);
        this.clock = clock;
    }

    /** Maps {@link PushChannel#LOCAL_PATH} on the edge's WebSocket container. */
    void configure(ServerWebSocketContainer container) {
        container.setIdleTimeout(IDLE_TIMEOUT);
        container.setMaxTextMessageSize(MAX_MESSAGE_BYTES);
        container.addMapping(PushChannel.LOCAL_PATH, this::upgrade);
    }

    /** PostToConnection: the data as one text frame; false when no such connection is open. */
    boolean post(String connectionId, String data) {
        Connection c = open.get(connectionId);
        return c != null && c.send(data);
    }

    /** The upgrade request, as API Gateway's $connect: null (the upgrade refused) unless the function says 200. */
    private Object upgrade(ServerUpgradeRequest request, ServerUpgradeResponse response, Callback callback) {
        if (!throttles.admit(PushChannel.CONNECT.routeKey())) {
            return refuse(response, callback, 429, "{\"message\":\"Too Many Requests\"}");
        }
        Map<String, List<String>> headers = new LinkedHashMap<>();
        request.getHeaders().forEach(f -> headers.computeIfAbsent(f.getName(), k -> new ArrayList<>()).add(f.getValue()));
        String rawQuery = request.getHttpURI().getQuery();
        Result result = verifier.verify("GET", request.getHttpURI().getPath(), rawQuery, headers, new byte[0]);
        if (result instanceof Result.Rejected rejected) {
            return refuse(response, callback, 403, "{\"message\":\"Forbidden: request signature rejected: "
                    + rejected.reason().replace("\"", "'") + "\"}");
        }
        Principal principal = principals.find(((Result.Accepted) result).accessKeyId()).orElse(null);
        if (principal == null) { // taken back since the check: an instance that ended a moment ago
            return refuse(response, callback, 403, "{\"message\":\"Forbidden: the signing credentials are no longer valid\"}");
        }
        String connectionId = newConnectionId();
        Connection connection = new Connection(connectionId);
        open.put(connectionId, connection); // notices posted before the open wait for it, as they do in AWS
        APIGatewayV2WebSocketResponse answer;
        try {
            APIGatewayV2WebSocketEvent event = event(PushChannel.CONNECT, connectionId, principal, null);
            event.setQueryStringParameters(ApiGatewayService.queryParameters(rawQuery));
            event.setHeaders(headers.entrySet().stream().collect(Collectors.toMap(e -> e.getKey(),
                    e -> String.join(",", e.getValue()), (a, b) -> a + "," + b)));
            answer = routes.get(PushChannel.CONNECT.routeKey()).handleRequest(event, null);
        } catch (RuntimeException e) {
            open.remove(connectionId);
            ErrorLog.SHARED.report("the local push channel's $connect failed", e);
            return refuse(response, callback, 500, "{\"message\":\"Internal server error\"}");
        }
        if (answer.getStatusCode() != 200) {
            open.remove(connectionId);
            return refuse(response, callback, answer.getStatusCode(), answer.getBody() == null ? "" : answer.getBody());
        }
        connection.principal = principal;
        return connection;
    }

    private static Object refuse(ServerUpgradeResponse response, Callback callback, int status, String body) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
        return null;
    }

    /** One open connection: its frames to $default, its end to $disconnect. */
    public final class Connection implements Session.Listener.AutoDemanding {
        private final String id;
        private final List<String> waiting = new ArrayList<>();
        private volatile Principal principal;
        private Session session;

        Connection(String id) {
            this.id = id;
        }

        @Override
        public void onWebSocketOpen(Session s) {
            List<String> early;
            synchronized (this) {
                session = s;
                early = List.copyOf(waiting);
                waiting.clear();
            }
            early.forEach(this::send);
        }

        @Override
        public void onWebSocketText(String message) {
            if (!throttles.admit(PushChannel.MESSAGE.routeKey())) { // as API Gateway answers a throttled message
                send("{\"message\":\"Too Many Requests\",\"connectionId\":\"" + id + "\",\"requestId\":\""
                        + UUID.randomUUID() + "\"}");
                return;
            }
            try {
                APIGatewayV2WebSocketResponse answer = routes.get(PushChannel.MESSAGE.routeKey())
                        .handleRequest(event(PushChannel.MESSAGE, id, principal, message), null);
                if (answer.getBody() != null) {
                    send(answer.getBody());
                }
            } catch (RuntimeException e) {
                ErrorLog.SHARED.report("the local push channel's $default failed", e);
            }
        }

        /** $disconnect runs before the close completes, so a client's close returns once the connection is cleared. */
        @Override
        public void onWebSocketClose(int statusCode, String reason, org.eclipse.jetty.websocket.api.Callback callback) {
            if (open.remove(id, this)) {
                try {
                    routes.get(PushChannel.DISCONNECT.routeKey())
                            .handleRequest(event(PushChannel.DISCONNECT, id, principal, null), null);
                } catch (RuntimeException e) {
                    ErrorLog.SHARED.report("the local push channel's $disconnect failed", e);
                }
            }
            callback.succeed();
        }

        boolean send(String text) {
            Session s;
            synchronized (this) {
                if (session == null) {
                    waiting.add(text);
                    return true;
                }
                s = session;
            }
            if (!s.isOpen()) {
                return false;
            }
            s.sendText(text, org.eclipse.jetty.websocket.api.Callback.NOOP);
            return true;
        }
    }

    private APIGatewayV2WebSocketEvent event(PushChannel.WebSocketRoute route, String connectionId, Principal principal,
            String body) {
        APIGatewayV2WebSocketEvent.RequestIdentity identity = new APIGatewayV2WebSocketEvent.RequestIdentity();
        identity.setSourceIp("127.0.0.1");
        if (principal != null) {
            identity.setAccountId(ACCOUNT_ID);
            identity.setAccessKey(principal.accessKeyId());
            identity.setUserArn(principal.callerArn());
            identity.setUser(principal.userId());
        }
        APIGatewayV2WebSocketEvent.RequestContext context = new APIGatewayV2WebSocketEvent.RequestContext();
        context.setRouteKey(route.routeKey());
        context.setEventType(switch (route.routeKey()) {
            case "$connect" -> "CONNECT";
            case "$disconnect" -> "DISCONNECT";
            default -> "MESSAGE";
        });
        context.setConnectionId(connectionId);
        context.setRequestId(UUID.randomUUID().toString());
        context.setAccountId(ACCOUNT_ID);
        context.setStage("local");
        context.setDomainName("127.0.0.1");
        context.setRequestTimeEpoch(clock.millis());
        context.setIdentity(identity);
        APIGatewayV2WebSocketEvent event = new APIGatewayV2WebSocketEvent();
        event.setRequestContext(context);
        event.setBody(body);
        event.setIsBase64Encoded(false);
        return event;
    }

    private String newConnectionId() {
        char[] id = new char[16];
        for (int i = 0; i < id.length; i++) {
            id[i] = ID_CHARACTERS[random.nextInt(ID_CHARACTERS.length)];
        }
        return new String(id);
    }
}

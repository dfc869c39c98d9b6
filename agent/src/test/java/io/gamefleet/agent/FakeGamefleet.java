package io.gamefleet.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

/**
 * Gamefleet as the agent JVM sees it, for the tests that run the agent as a process: the GameLift
 * operations it calls (AWS JSON 1.1 on {@code POST /}) and the push channel at {@code /push}.
 * Records what arrives; the real ones are the local profile's.
 */
final class FakeGamefleet implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    final List<String> calls = new CopyOnWriteArrayList<>();
    /** Each GameLift request's JSON body, in order. */
    final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    /** The claimed servers' GameServerData (a claim's time is {@link #CLAIMED_AT}). */
    final Map<String, String> claimed = new ConcurrentHashMap<>();
    static final java.time.Instant CLAIMED_AT = java.time.Instant.parse("2026-12-01T10:00:00Z");
    final Map<String, String> registered = new ConcurrentHashMap<>();
    /** The instance each registered server is on. */
    final Map<String, String> instanceOf = new ConcurrentHashMap<>();
    final List<Map<String, String>> pushConnects = new CopyOnWriteArrayList<>();
    /** The instance metadata items served (IMDSv2: a token first, then GETs that carry it). */
    final Map<String, String> metadata = new ConcurrentHashMap<>();
    final List<String> metadataReads = new CopyOnWriteArrayList<>();
    /** Each server's session as DescribeGameServerSession answers it ({"SessionId", ...}); none: 404. */
    final Map<String, String> sessions = new ConcurrentHashMap<>();
    /** Each DescribeGameServerSession request: its path and Authorization header. */
    final List<String> sessionReads = new CopyOnWriteArrayList<>();
    /** DescribeGameServerSession answers 500 to everything. */
    volatile boolean sessionsFailing;
    /** Push connects are refused (404), as Gamefleet's are before it has recorded the instance. */
    volatile boolean pushRefused;
    /** The metadata service answers 503 to everything. */
    volatile boolean metadataDown;
    private final List<Session> sockets = new CopyOnWriteArrayList<>();
    /** What the agents sent on the push channel. */
    final List<String> pushReceived = new CopyOnWriteArrayList<>();
    private final Server server = new Server();
    private final ServerConnector connector = new ServerConnector(server);

    FakeGamefleet() {
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        WebSocketUpgradeHandler push = WebSocketUpgradeHandler.from(server, container -> container.addMapping("/push",
                (request, response, callback) -> {
                    pushConnects.add(Map.of("authorization", String.valueOf(request.getHeaders().get("Authorization")),
                            "query", String.valueOf(request.getHttpURI().getQuery())));
                    if (pushRefused) {
                        Response.writeError(request, response, callback, 404, "instance i-1 is not recorded in game server group g");
                        return null;
                    }
                    return new PushSocket(sockets, pushReceived);
                }));
        push.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                String path = Request.getPathInContext(request);
                if (path.startsWith("/latest/")) {
                    return metadata(request, path, response, callback);
                }
                if (path.contains("/game-server-groups/") && path.endsWith("/session")) {
                    return session(request, path, response, callback);
                }
                String target = request.getHeaders().get("X-Amz-Target");
                JsonNode body = JSON.readTree(Content.Source.asString(request, StandardCharsets.UTF_8));
                requests.add(body);
                String id = body.path("GameServerId").asText();
                String operation = target == null ? "?" : target.substring(target.indexOf('.') + 1);
                calls.add(operation + " " + id + (body.has("UtilizationStatus") ? " " + body.path("UtilizationStatus").asText() : ""));
                String answer = "{}";
                int status = 200;
                switch (operation) {
                    case "RegisterGameServer" -> {
                        if (registered.containsKey(id)) {
                            status = 400;
                            answer = "{\"__type\":\"ConflictException\",\"message\":\"game server " + id + " is registered\"}";
                        } else {
                            registered.put(id, "AVAILABLE");
                            instanceOf.put(id, body.path("InstanceId").asText());
                        }
                    }
                    case "DescribeGameServer" -> {
                        if (!registered.containsKey(id)) {
                            status = 400;
                            answer = "{\"__type\":\"NotFoundException\",\"message\":\"no such game server\"}";
                        } else {
                            var server = JSON.createObjectNode().put("GameServerId", id)
                                    .put("InstanceId", instanceOf.get(id)).put("UtilizationStatus", registered.get(id));
                            if (claimed.containsKey(id)) {
                                server.put("ClaimStatus", "CLAIMED").put("GameServerData", claimed.get(id))
                                        .put("LastClaimTime", CLAIMED_AT.getEpochSecond());
                            }
                            answer = JSON.createObjectNode().set("GameServer", server).toString();
                        }
                    }
                    case "UpdateGameServer" -> {
                        if (!registered.containsKey(id)) {
                            status = 400;
                            answer = "{\"__type\":\"NotFoundException\",\"message\":\"no such game server\"}";
                        } else if (body.has("UtilizationStatus")) {
                            registered.put(id, body.path("UtilizationStatus").asText());
                        }
                    }
                    case "DeregisterGameServer" -> {
                        registered.remove(id);
                        instanceOf.remove(id);
                    }
                    default -> { }
                }
                response.setStatus(status);
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/x-amz-json-1.1");
                response.write(true, ByteBuffer.wrap(answer.getBytes(StandardCharsets.UTF_8)), callback);
                return true;
            }
        });
        server.setHandler(push);
    }

    /** Public: Jetty calls its methods by reflection. A ping is answered with a pong, as {@code $default}'s response is. */
    public static final class PushSocket implements Session.Listener.AutoDemanding {
        private final List<Session> sockets;
        private final List<String> received;
        private Session session;

        PushSocket(List<Session> sockets, List<String> received) {
            this.sockets = sockets;
            this.received = received;
        }

        @Override
        public void onWebSocketOpen(Session session) {
            this.session = session;
            sockets.add(session);
        }

        @Override
        public void onWebSocketText(String message) {
            received.add(message);
            if (message.contains("\"action\":\"" + io.gamefleet.catalog.PushChannel.PING + "\"")) {
                session.sendText("{\"action\":\"" + io.gamefleet.catalog.PushChannel.PONG + "\"}",
                        org.eclipse.jetty.websocket.api.Callback.NOOP);
            }
        }
    }

    /** DescribeGameServerSession: GET [stage]/game-server-groups/{group}/game-servers/{id}/session. */
    private boolean session(Request request, String path, Response response, Callback callback) {
        sessionReads.add(request.getMethod() + " " + path + " " + request.getHeaders().get("Authorization"));
        String[] parts = path.split("/");
        String id = parts[parts.length - 2];
        String session = sessions.get(id);
        int status = sessionsFailing ? 500 : session == null ? 404 : 200;
        String body = switch (status) {
            case 200 -> "{\"Session\":" + session + "}";
            case 404 -> "{\"__type\":\"NotFoundException\",\"Message\":\"game server " + id
                    + "'s current claim is no session's\"}";
            default -> "{\"__type\":\"InternalServiceException\",\"Message\":\"the request could not be completed\"}";
        };
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
        return true;
    }

    private boolean metadata(Request request, String path, Response response, Callback callback) {
        int status;
        String body = "";
        if (metadataDown) {
            status = 503;
        } else if (path.equals("/latest/api/token") && request.getMethod().equals("PUT")) {
            status = request.getHeaders().get("x-aws-ec2-metadata-token-ttl-seconds") == null ? 400 : 200;
            body = "token-1";
            response.getHeaders().put("x-aws-ec2-metadata-token-ttl-seconds", "21600");
        } else if (!"token-1".equals(request.getHeaders().get("x-aws-ec2-metadata-token"))) {
            status = 401;
        } else {
            metadataReads.add(path);
            body = metadata.get(path);
            status = body == null ? 404 : 200;
        }
        response.setStatus(status);
        response.write(true, ByteBuffer.wrap((body == null ? "" : body).getBytes(StandardCharsets.UTF_8)), callback);
        return true;
    }

    FakeGamefleet start() throws Exception {
        server.start();
        return this;
    }

    int port() {
        return connector.getLocalPort();
    }

    boolean pushOpen() {
        return sockets.stream().anyMatch(Session::isOpen);
    }

    /** Closes every open push connection, as API Gateway does after two hours. */
    void closePushConnections() {
        sockets.stream().filter(Session::isOpen).forEach(Session::close);
    }

    /** Sends a notice on every open push connection. */
    void push(String notice) {
        sockets.stream().filter(Session::isOpen).forEach(s -> s.sendText(notice, org.eclipse.jetty.websocket.api.Callback.NOOP));
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}

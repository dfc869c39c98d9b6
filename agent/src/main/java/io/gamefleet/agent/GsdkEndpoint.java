package io.gamefleet.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * PlayFab's GSDK endpoints on Jetty, on the loopback address only. The GSDK sends no credentials: the
 * unguessable session host id in the path tells one process from another, and where each process
 * runs as its own uid, a call for a session is taken only from a socket of that uid (the kernel's
 * word, {@link SocketOwners}, asked once per connection): any other caller gets 403 NotYourSession,
 * unread, whatever id it knows.
 */
final class GsdkEndpoint {
    static final String LOOPBACK = "127.0.0.1";
    /** A heartbeat is a few hundred bytes; anything larger is refused, unread when its length says so. */
    static final int MAX_BODY = 64 * 1024;

    private static final Pattern HEARTBEAT = Pattern.compile("/v1/sessionHosts/([^/]+)(/heartbeats)?");
    private static final Pattern LEGACY_HEARTBEAT = Pattern.compile("/v1/titles/[^/]+/clusters/[^/]+/instances/([^/]+)/heartbeat");
    private static final Pattern GSDK_INFO = Pattern.compile("/v1/metrics/([^/]+)/gsdkinfo");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final GsdkAnswer TOO_LARGE = new GsdkAnswer.Refusal(413, "TooLarge", "a GSDK body is at most " + MAX_BODY + " bytes");
    private static final GsdkAnswer NOT_YOURS = new GsdkAnswer.Refusal(403, "NotYourSession",
            "this session host id is another game server process's: a process may call only for the session it was given");
    /** The connection's caller, found once (a socket's owner never changes); Integer.MIN_VALUE when none owns it. */
    private static final String CALLER_UID = GsdkEndpoint.class.getName() + ".callerUid";

    private final Server server;
    private final ServerConnector connector;

    GsdkEndpoint(GsdkSessions sessions, int port, SocketOwners owners) {
        QueuedThreadPool threads = new QueuedThreadPool(16, 2);
        threads.setName("gsdk");
        server = new Server(threads);
        connector = new ServerConnector(server, 1, 1);
        connector.setHost(LOOPBACK);
        connector.setPort(port);
        server.addConnector(connector);
        server.setHandler(new Routes(sessions, owners));
    }

    /** Starts listening; returns the port (the one asked for, or the free one taken for 0). */
    int start() throws Exception {
        server.start();
        return connector.getLocalPort();
    }

    void stop() throws Exception {
        server.stop();
    }

    private static final class Routes extends Handler.Abstract {
        private final GsdkSessions sessions;
        private final SocketOwners owners;

        Routes(GsdkSessions sessions, SocketOwners owners) {
            this.sessions = sessions;
            this.owners = owners;
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            String path = Request.getPathInContext(request);
            String method = request.getMethod();
            GsdkAnswer answer;
            if (request.getLength() > MAX_BODY) {
                answer = TOO_LARGE;
            } else {
                answer = route(method, path, request);
            }
            int status;
            Object body;
            if (answer instanceof GsdkAnswer.Reply reply) {
                status = 200;
                body = reply.body();
            } else {
                GsdkAnswer.Refusal refusal = (GsdkAnswer.Refusal) answer;
                status = refusal.status();
                body = JSON.createObjectNode().put("code", refusal.status()).put("error", refusal.error())
                        .put("message", refusal.message());
            }
            response.setStatus(status);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
            response.write(true, ByteBuffer.wrap(JSON.writeValueAsBytes(body)), callback);
            return true;
        }

        private GsdkAnswer route(String method, String path, Request request) throws Exception {
            Matcher m = HEARTBEAT.matcher(path);
            boolean heartbeat = m.matches() && (m.group(2) == null ? method.equals("PATCH") : method.equals("POST"));
            if (!heartbeat) {
                m = LEGACY_HEARTBEAT.matcher(path);
                heartbeat = m.matches() && method.equals("POST");
            }
            if (!heartbeat) {
                m = GSDK_INFO.matcher(path);
                if (!m.matches() || !method.equals("POST")) {
                    return new GsdkAnswer.Refusal(404, "NotFound", method + " " + path + " is not a GSDK endpoint");
                }
            }
            String sessionHostId = m.group(1);
            int owner = sessions.ownerOf(sessionHostId);
            if (owner != ServerUsers.AGENT_USER && owner != callerUid(request)) {
                return NOT_YOURS;
            }
            try {
                if (heartbeat) {
                    return sessions.heartbeat(sessionHostId, GsdkHeartbeatReader.read(body(request)));
                }
                String[] info = GsdkHeartbeatReader.gsdkInfo(body(request));
                return sessions.gsdkInfo(sessionHostId, info[0], info[1]);
            } catch (GsdkHeartbeatReader.Malformed e) {
                return new GsdkAnswer.Refusal(400, "MalformedRequest", e.getMessage());
            } catch (TooLarge e) {
                return TOO_LARGE;
            }
        }

        /** The uid owning the connection's client socket, asked of the kernel at the connection's first GSDK call. */
        private int callerUid(Request request) {
            ConnectionMetaData connection = request.getConnectionMetaData();
            Object known = connection.getAttribute(CALLER_UID);
            if (known instanceof Integer uid) {
                return uid;
            }
            int uid = connection.getRemoteSocketAddress() instanceof InetSocketAddress client
                    && connection.getLocalSocketAddress() instanceof InetSocketAddress server
                    ? owners.uidOf(client, server).orElse(Integer.MIN_VALUE) : Integer.MIN_VALUE;
            connection.setAttribute(CALLER_UID, uid);
            return uid;
        }

        /** The body, read up to {@link #MAX_BODY} bytes whatever its framing (a chunked body has no length). */
        private static String body(Request request) throws Exception {
            try {
                return new String(Content.Source.asByteArrayAsync(request, MAX_BODY).get(), StandardCharsets.UTF_8);
            } catch (ExecutionException e) {
                // Jetty stops reading and fails the body once it would grow past the limit.
                if (e.getCause() instanceof IllegalStateException) {
                    throw new TooLarge();
                }
                throw e;
            }
        }

        private static final class TooLarge extends Exception {
            TooLarge() {
                super(null, null, false, false);
            }
        }
    }
}

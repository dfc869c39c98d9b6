package io.gamefleet.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * PlayFab's GSDK endpoints on Jetty, on the loopback address only (the GSDK sends no credentials:
 * the unguessable session host id in the path is what tells one process from another).
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

    private final Server server;
    private final ServerConnector connector;

    GsdkEndpoint(Supervisor supervisor, int port) {
        QueuedThreadPool threads = new QueuedThreadPool(16, 2);
        threads.setName("gsdk");
        server = new Server(threads);
        connector = new ServerConnector(server, 1, 1);
        connector.setHost(LOOPBACK);
        connector.setPort(port);
        server.addConnector(connector);
        server.setHandler(new Routes(supervisor));
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
        private final Supervisor supervisor;

        Routes(Supervisor supervisor) {
            this.supervisor = supervisor;
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
            try {
                if (heartbeat) {
                    return supervisor.heartbeat(m.group(1), GsdkHeartbeatReader.read(body(request)));
                }
                m = GSDK_INFO.matcher(path);
                if (m.matches() && method.equals("POST")) {
                    String[] info = GsdkHeartbeatReader.gsdkInfo(body(request));
                    return supervisor.gsdkInfo(m.group(1), info[0], info[1]);
                }
            } catch (GsdkHeartbeatReader.Malformed e) {
                return new GsdkAnswer.Refusal(400, "MalformedRequest", e.getMessage());
            } catch (TooLarge e) {
                return TOO_LARGE;
            }
            return new GsdkAnswer.Refusal(404, "NotFound", method + " " + path + " is not a GSDK endpoint");
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

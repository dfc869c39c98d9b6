package io.gamefleet.local.edge;

import java.io.IOException;
import java.net.BindException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpCompliance;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkTrafficServerConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The edge's HTTP layer: Jetty on one loopback port, with API Gateway's limits. Jetty parses and
 * refuses what is not HTTP/1.1 (400), a head over {@link Limits#maxHeadBytes} (431); Jetty's
 * public listeners add the head deadline (408) and the connection limit (429) ({@link ConnectionGuard});
 * the {@link Checks} handler refuses a target that is not a percent-encoded path (400) and a
 * declared body over {@link Limits#maxBodyBytes} (413) before the body is read, and
 * {@link WholeRequests} a body that grows past it (413) or is not whole in time (408).
 * Every refusal has the JSON error body ({@link JsonErrorHandler}). Jetty reads without blocking,
 * so a slow or silent client holds no thread.
 */
final class HttpEdge implements AutoCloseable {
    /**
     * What one request and the whole server may take; an idle connection is closed after
     * {@code keepAliveIdle}, or twice the {@code requestDeadline} if that is longer (a head's 408 comes first).
     */
    record Limits(int maxHeadBytes, long maxBodyBytes, Duration requestDeadline, Duration keepAliveIdle,
            int maxConnections) {
        /** API Gateway's 10 MB payload limit; 10 s from a request's first byte to its last. */
        static Limits defaults() {
            return new Limits(64 * 1024, 10L * 1024 * 1024, Duration.ofSeconds(10), Duration.ofSeconds(60), 4096);
        }
    }

    /** Jetty's threads only parse and hand requests on; the services run on the edge's own workers. */
    private static final int JETTY_THREADS = 16;

    private final Server server;
    private final NetworkTrafficServerConnector connector;

    /**
     * Listens on 127.0.0.1 at {@code port} (0: any free port) at once, answering with
     * {@code handler} once a request passed the checks.
     */
    HttpEdge(int port, Limits limits, RequestLog requestLog, Handler handler) throws IOException {
        QueuedThreadPool threads = new QueuedThreadPool(JETTY_THREADS, 2);
        threads.setName("edge-jetty");
        threads.setDaemon(true);
        server = new Server(threads);
        HttpConfiguration configuration = new HttpConfiguration();
        configuration.setRequestHeaderSize(limits.maxHeadBytes());
        configuration.setSendServerVersion(false);
        configuration.setSendDateHeader(true);
        // A head's deadline comes well before the idle timeout, which would close its connection without a word.
        long idleMillis = Math.max(limits.keepAliveIdle().toMillis(),
                limits.requestDeadline().multipliedBy(2).toMillis());
        configuration.setIdleTimeout(idleMillis);
        configuration.setHttpCompliance(HttpCompliance.RFC9110);
        // The checks (a body too large: 413 before 100 Continue) run on the head alone.
        configuration.setDelayDispatchUntilContent(false);
        // The services decode the raw target themselves, exactly once: Jetty passes it on as it came.
        configuration.setUriCompliance(UriCompliance.UNSAFE);
        connector = new NetworkTrafficServerConnector(server, null, null, null, 1, 1,
                new HttpConnectionFactory(configuration));
        ConnectionGuard guard = new ConnectionGuard(limits, connector.getScheduler());
        connector.addBean(guard); // a Connection.Listener of every connection
        connector.getSelectorManager().addEventListener(guard);
        connector.setNetworkTrafficListener(guard);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        connector.setReuseAddress(true);
        connector.setAcceptQueueSize(512);
        connector.setIdleTimeout(idleMillis);
        server.addConnector(connector);
        server.setErrorHandler(new JsonErrorHandler());
        server.setRequestLog(requestLog);
        server.setHandler(new Checks(limits, guard, handler));
        server.setStopTimeout(2000);
        try {
            server.start();
        } catch (BindException e) {
            close();
            throw e;
        } catch (Exception e) {
            close();
            throw new IOException("the edge server did not start: " + e.getMessage(), e);
        }
    }

    int port() {
        return connector.getLocalPort();
    }

    /** The Jetty server, for handlers that need it (a WebSocket upgrade handler). */
    Server jetty() {
        return server;
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            // stopping anyway
        }
    }

    static String describe(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    /** What every request passes before any handler sees it. */
    private static final class Checks extends Handler.Wrapper {
        private final Limits limits;
        private final ConnectionGuard guard;

        Checks(Limits limits, ConnectionGuard guard, Handler handler) {
            super(handler);
            this.limits = limits;
            this.guard = guard;
        }

        @Override
        public boolean handle(Request request, Response response, Callback given) throws Exception {
            Callback callback = guard.handling(request, given);
            if (callback == null) { // its head was refused (408) as it became whole
                given.failed(new TimeoutException("the request head came too late"));
                return true;
            }
            if (guard.overLimit(request)) {
                JsonErrorHandler.refuse(response, callback, HttpStatus.TOO_MANY_REQUESTS_429, "ThrottlingException",
                        "the local edge has more than " + limits.maxConnections() + " open connections, its limit;"
                                + " try again");
                return true;
            }
            String problem = targetProblem(request);
            if (problem != null) {
                JsonErrorHandler.refuse(response, callback, HttpStatus.BAD_REQUEST_400, "InvalidRequestException",
                        problem);
                return true;
            }
            long length = request.getLength();
            if (length > limits.maxBodyBytes()) {
                JsonErrorHandler.refuse(response, callback, HttpStatus.PAYLOAD_TOO_LARGE_413, "InvalidRequestException",
                        "the request body of " + length + " bytes is larger than " + limits.maxBodyBytes()
                                + " bytes, the most API Gateway takes");
                return true;
            }
            return super.handle(request, response, callback);
        }

        /** Why the target is not a path of printable ASCII whose escapes decode, or null. */
        private static String targetProblem(Request request) {
            String path = request.getHttpURI().getPath();
            String query = request.getHttpURI().getQuery();
            if (path == null || !path.startsWith("/")) {
                return "the request target must be a path starting with /: " + printable(String.valueOf(path));
            }
            String target = query == null ? path : path + "?" + query;
            for (int i = 0; i < target.length(); i++) {
                char c = target.charAt(i);
                if (c <= 0x20 || c >= 0x7f) {
                    return "the request target holds a character that must be percent-encoded: " + printable(target);
                }
            }
            try {
                for (String segment : path.split("/", -1)) {
                    PercentEncoding.segment(segment);
                }
                if (query != null) {
                    for (String pair : query.split("&", -1)) {
                        for (String part : pair.split("=", -1)) {
                            PercentEncoding.queryPart(part);
                        }
                    }
                }
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
            return null;
        }
    }

    /** At most 200 characters of what arrived, non-printable ones escaped, for an error message. */
    static String printable(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length() && out.length() < 200; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x7f) {
                out.append(c);
            } else {
                out.append(String.format("\\u%04x", (int) c));
            }
        }
        return out.length() >= 200 ? out + "..." : out.toString();
    }
}

package io.gamefleet.local.bench;

import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;

/**
 * The edge server's own time for each claim it answered (200), from the request's first byte to
 * its answer sent, as Jetty's request log sees it: SigV4, the function and the claim, without the
 * client's side and the hop. Installed as the server's request log for as long as it measures.
 */
final class EdgeTimes implements RequestLog {
    private final Server server;
    private final RequestLog before;
    private final AtomicReference<Benchmarks.Latencies> latencies = new AtomicReference<>(new Benchmarks.Latencies());

    private EdgeTimes(Server server) {
        this.server = server;
        this.before = server.getRequestLog();
    }

    static EdgeTimes on(Server server) {
        EdgeTimes times = new EdgeTimes(server);
        server.setRequestLog(times);
        return times;
    }

    @Override
    public void log(Request request, Response response) {
        if (response.getStatus() == 200 && request.getHttpURI().getPath().endsWith("/claim")) {
            latencies.get().add(System.nanoTime() - request.getBeginNanoTime());
        }
        if (before != null) {
            before.log(request, response);
        }
    }

    /** The times so far, starting anew. */
    Benchmarks.Latencies take() {
        return latencies.getAndSet(new Benchmarks.Latencies());
    }

    /** Gives the server its request log back. */
    void remove() {
        server.setRequestLog(before);
    }
}

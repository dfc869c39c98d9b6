package io.gamefleet.local.bench;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.jetty.proxy.ProxyHandler;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's reverse proxy between the functions and the DynamoDB emulator, counting the requests
 * it forwards: DynamoDB's calls as the service sees and bills them, the SDK's retries included,
 * whatever the client counts itself. It also adds a hop's latency to every call, as a slower
 * DynamoDB would. Each call is timed from its request's arrival to its response's end: the
 * emulator's time and the hop's, without the SDK client's. Requests are also counted by the
 * caller and operation a {@link CallerLabels} header names.
 */
final class CountingProxy implements AutoCloseable {
    private final Server server = new Server();
    private final LongAdder requests = new LongAdder();
    private final Map<String, LongAdder> requestsByCaller = new ConcurrentHashMap<>();
    private volatile Benchmarks.Latencies latencies = new Benchmarks.Latencies();

    CountingProxy(URI target) throws Exception {
        ServerConnector connector = new ServerConnector(server);
        connector.setHost(InetAddress.getLoopbackAddress().getHostAddress());
        connector.setPort(0);
        server.addConnector(connector);
        ProxyHandler.Reverse forward = new ProxyHandler.Reverse(request -> org.eclipse.jetty.http.HttpURI.build(
                request.getHttpURI()).scheme(target.getScheme()).host(target.getHost()).port(target.getPort()));
        server.setHandler(new Handler.Wrapper(forward) {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                requests.increment();
                String caller = request.getHeaders().get(CallerLabels.HEADER);
                requestsByCaller.computeIfAbsent(caller == null ? "unlabelled -" : caller, k -> new LongAdder()).increment();
                long start = System.nanoTime();
                Benchmarks.Latencies timed = latencies;
                return super.handle(request, response, Callback.from(callback, () -> timed.add(System.nanoTime() - start)));
            }
        });
        server.start();
    }

    URI endpoint() {
        ServerConnector connector = (ServerConnector) server.getConnectors()[0];
        return URI.create("http://" + new InetSocketAddress(connector.getHost(), connector.getLocalPort()).getHostString()
                + ":" + connector.getLocalPort());
    }

    /** The requests forwarded so far. */
    long requests() {
        return requests.sum();
    }

    /** The requests forwarded so far, by the caller and operation their {@link CallerLabels#HEADER} names. */
    Map<String, Long> requestsByCaller() {
        Map<String, Long> counts = new TreeMap<>();
        requestsByCaller.forEach((caller, n) -> counts.put(caller, n.sum()));
        return counts;
    }

    /** The calls' times at the proxy since the last call of this method. */
    Benchmarks.Latencies takeLatencies() {
        Benchmarks.Latencies taken = latencies;
        latencies = new Benchmarks.Latencies();
        return taken;
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}

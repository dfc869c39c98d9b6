package io.gamefleet.local.bench;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
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
 * DynamoDB would.
 */
final class CountingProxy implements AutoCloseable {
    private final Server server = new Server();
    private final LongAdder requests = new LongAdder();

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
                return super.handle(request, response, callback);
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

    @Override
    public void close() throws Exception {
        server.stop();
    }
}

package io.gamefleet.local.edge;

import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.NetworkTrafficListener;
import org.eclipse.jetty.io.SelectorManager;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * What the edge adds to Jetty's limits on its connections, through Jetty's public listeners: a
 * connection accepted while {@link HttpEdge.Limits#maxConnections} were open is marked, so that its
 * requests are refused with 429 ({@link #overLimit}; counted as they are accepted, in order, on the
 * acceptor's thread, as connections are then opened side by side); and a request head not whole within
 * {@link HttpEdge.Limits#requestDeadline} of its first byte is refused with 408 (Jetty would close
 * such a connection without a word at its idle timeout, and never while a client trickles bytes).
 * The bytes that arrive tell when a head begins ({@link NetworkTrafficListener#incoming}); a
 * request's handling, from the end of its head to its completion, is a time no head is read.
 */
final class ConnectionGuard implements SelectorManager.AcceptListener, Connection.Listener, NetworkTrafficListener {
    private final HttpEdge.Limits limits;
    private final Scheduler scheduler;
    private final AtomicInteger open = new AtomicInteger();
    private final Set<SelectableChannel> overLimit = ConcurrentHashMap.newKeySet();
    private final Map<Socket, Watched> connections = new ConcurrentHashMap<>();

    ConnectionGuard(HttpEdge.Limits limits, Scheduler scheduler) {
        this.limits = limits;
        this.scheduler = scheduler;
    }

    /** One open connection: the head it is reading, if any, and whether a request is being handled. */
    private static final class Watched {
        final EndPoint endPoint;
        boolean handling;
        boolean refused;
        long headBegan;
        Scheduler.Task deadline;

        Watched(EndPoint endPoint) {
            this.endPoint = endPoint;
        }
    }

    @Override
    public void onAccepting(SelectableChannel channel) {
        if (open.incrementAndGet() > limits.maxConnections()) {
            overLimit.add(channel);
        }
    }

    @Override
    public void onAcceptFailed(SelectableChannel channel, Throwable cause) {
        open.decrementAndGet();
        overLimit.remove(channel);
    }

    @Override
    public void onOpened(Connection connection) {
        Socket socket = socketOf(connection);
        if (socket != null) {
            connections.put(socket, new Watched(connection.getEndPoint()));
        }
    }

    @Override
    public void onClosed(Connection connection) {
        open.decrementAndGet();
        overLimit.remove(connection.getEndPoint().getTransport());
        Socket socket = socketOf(connection);
        Watched watched = socket == null ? null : connections.remove(socket);
        if (watched != null) {
            synchronized (watched) {
                cancel(watched);
            }
        }
    }

    @Override
    public void incoming(Socket socket, ByteBuffer bytes) {
        Watched watched = connections.get(socket);
        if (watched == null) {
            return;
        }
        synchronized (watched) {
            if (!watched.handling && watched.headBegan == 0 && !watched.refused) {
                long began = System.nanoTime();
                watched.headBegan = began;
                watched.deadline = scheduler.schedule(() -> deadlinePassed(watched, began),
                        limits.requestDeadline().toNanos(), TimeUnit.NANOSECONDS);
            }
        }
    }

    /** Whether this request's connection was opened past the connection limit: it is refused as throttled. */
    boolean overLimit(Request request) {
        return overLimit.contains(request.getConnectionMetaData().getConnection().getEndPoint().getTransport());
    }

    /**
     * The request's head is whole: its handler keeps the deadline from here. Returns the callback
     * to complete it with, which marks the end of its handling; null if the head was refused already.
     */
    Callback handling(Request request, Callback callback) {
        Watched watched = watchedOf(request);
        if (watched == null) {
            return callback;
        }
        synchronized (watched) {
            if (watched.refused) {
                return null;
            }
            watched.handling = true;
            cancel(watched);
        }
        return Callback.from(callback, () -> {
            synchronized (watched) {
                watched.handling = false;
            }
        });
    }

    private void deadlinePassed(Watched watched, long began) {
        synchronized (watched) {
            if (watched.handling || watched.headBegan != began || watched.refused) {
                return;
            }
            watched.refused = true;
        }
        // No request exists to answer through: the refusal is written as Jetty's error handler writes one.
        byte[] body = JsonErrorHandler.body("InvalidRequestException", "the request was not complete within "
                + HttpEdge.describe(limits.requestDeadline()) + " of its first byte");
        byte[] head = ("HTTP/1.1 408 " + HttpStatus.getMessage(408) + "\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        EndPoint endPoint = watched.endPoint;
        endPoint.write(Callback.from(endPoint::close, endPoint::close), ByteBuffer.wrap(head), ByteBuffer.wrap(body));
    }

    private static void cancel(Watched watched) {
        watched.headBegan = 0;
        if (watched.deadline != null) {
            watched.deadline.cancel();
            watched.deadline = null;
        }
    }

    private Watched watchedOf(Request request) {
        Socket socket = socketOf(request.getConnectionMetaData().getConnection());
        return socket == null ? null : connections.get(socket);
    }

    private static Socket socketOf(Connection connection) {
        return connection.getEndPoint().getTransport() instanceof SocketChannel channel ? channel.socket() : null;
    }
}

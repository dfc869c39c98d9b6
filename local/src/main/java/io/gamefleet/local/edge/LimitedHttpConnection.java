package io.gamefleet.local.edge;

import java.nio.ByteBuffer;
import java.nio.channels.SelectableChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.http.HttpCompliance;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.SelectorManager;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Jetty's HTTP/1.1 connection with what the edge adds to Jetty's own limits: a request head not
 * whole within {@link HttpEdge.Limits#requestDeadline} of its first byte is refused with 408
 * (Jetty would close such a connection without a word at its idle timeout, and never while a
 * client trickles bytes), a chunk that would take a body past {@link HttpEdge.Limits#maxBodyBytes}
 * is refused with 413 as soon as its size line arrives, and a connection accepted while
 * {@link HttpEdge.Limits#maxConnections} were open is marked so that its request is refused with 429.
 * Refusals go through Jetty's own bad-message path, so the error handler writes them.
 */
final class LimitedHttpConnection extends HttpConnection {
    /**
     * Makes these connections, counting those open as they are accepted (in order, on the
     * acceptor's thread), and marking those accepted while the limit was reached.
     */
    static final class Factory extends HttpConnectionFactory implements SelectorManager.AcceptListener {
        private final HttpEdge.Limits limits;
        private final AtomicInteger open = new AtomicInteger();
        private final Set<SelectableChannel> overLimit = ConcurrentHashMap.newKeySet();

        Factory(HttpConfiguration configuration, HttpEdge.Limits limits) {
            super(configuration);
            this.limits = limits;
        }

        @Override
        public void onAccepting(SelectableChannel channel) {
            if (open.incrementAndGet() > limits.maxConnections()) {
                overLimit.add(channel);
            }
        }

        @Override
        public void onAcceptFailed(SelectableChannel channel, Throwable cause) {
            closed(channel);
        }

        private void closed(Object channel) {
            open.decrementAndGet();
            overLimit.remove(channel);
        }

        @Override
        public Connection newConnection(Connector connector, EndPoint endPoint) {
            LimitedHttpConnection connection = new LimitedHttpConnection(getHttpConfiguration(), connector, endPoint,
                    limits, this);
            connection.setUseInputDirectByteBuffers(isUseInputDirectByteBuffers());
            connection.setUseOutputDirectByteBuffers(isUseOutputDirectByteBuffers());
            return configure(connection, connector, endPoint);
        }
    }

    private final HttpEdge.Limits limits;
    private final Factory factory;
    private final Scheduler scheduler;
    private final AtomicBoolean refusedHead = new AtomicBoolean();
    private volatile String chunkRefusal;
    /** When the head being read began (its first byte), or 0 between requests. */
    private volatile long headBegan;
    private volatile Scheduler.Task headDeadline;
    /** Made by Jetty's constructor before the parser, which must take the same one (so no initializer here). */
    private RequestHandler requestHandler;

    private LimitedHttpConnection(HttpConfiguration configuration, Connector connector, EndPoint endPoint,
            HttpEdge.Limits limits, Factory factory) {
        super(configuration, connector, endPoint);
        this.limits = limits;
        this.factory = factory;
        this.scheduler = connector.getScheduler();
    }

    /** Why the parser refused a chunk of the request being read, or null. */
    String chunkRefusal() {
        return chunkRefusal;
    }

    static String chunkedTooLarge(HttpEdge.Limits limits) {
        return "the chunked request body grew larger than " + limits.maxBodyBytes() + " bytes, the most API Gateway"
                + " takes";
    }

    /** Whether this connection was accepted past the connection limit: its request is refused as throttled. */
    boolean overLimit() {
        return factory.overLimit.contains(getEndPoint().getTransport());
    }

    @Override
    public void onClose(Throwable cause) {
        factory.closed(getEndPoint().getTransport());
        cancelHeadDeadline();
        super.onClose(cause);
    }

    @Override
    public void onFillable() {
        if (headBegan == 0 && getHttpChannel().getRequest() == null) {
            startHeadDeadline();
        }
        super.onFillable();
        if (getParser().isStart() && getHttpChannel().getRequest() == null) {
            cancelHeadDeadline(); // nothing of a request arrived (or only the line breaks before one)
        }
    }

    @Override
    public boolean onIdleExpired(TimeoutException timeout) {
        if (headIncomplete()) {
            refuseIncompleteHead();
            return false;
        }
        return super.onIdleExpired(timeout);
    }

    @Override
    protected HttpParser newHttpParser(HttpCompliance compliance) {
        HttpParser parser = new ChunkLimitedParser(requestHandler, getHttpConfiguration().getRequestHeaderSize(),
                compliance);
        parser.setHeaderCacheSize(getHttpConfiguration().getHeaderCacheSize());
        parser.setHeaderCacheCaseSensitive(getHttpConfiguration().isHeaderCacheCaseSensitive());
        return parser;
    }

    @Override
    protected RequestHandler newRequestHandler() {
        requestHandler = new RequestHandler() {
            @Override
            public boolean headerComplete() {
                cancelHeadDeadline(); // from here the request's own handler keeps the deadline
                return super.headerComplete();
            }
        };
        return requestHandler;
    }

    private void startHeadDeadline() {
        headBegan = System.nanoTime();
        headDeadline = scheduler.schedule(this::headDeadlinePassed, limits.requestDeadline().toNanos(),
                TimeUnit.NANOSECONDS);
    }

    private void cancelHeadDeadline() {
        headBegan = 0;
        Scheduler.Task task = headDeadline;
        if (task != null) {
            task.cancel();
        }
    }

    private void headDeadlinePassed() {
        if (headIncomplete()) {
            refuseIncompleteHead();
        }
    }

    private boolean headIncomplete() {
        return getHttpChannel().getRequest() == null && !getParser().isStart() && getParser().inHeaderState();
    }

    private void refuseIncompleteHead() {
        if (refusedHead.compareAndSet(false, true)) {
            requestHandler.badMessage(new BadMessageException(
                    HttpStatus.REQUEST_TIMEOUT_408, "the request was not complete within "
                    + HttpEdge.describe(limits.requestDeadline()) + " of its first byte"));
        }
    }

    /**
     * Refuses a chunk as its size line is read, if it would take the body past the limit, rather
     * than once its bytes (which a client need never send) have come.
     */
    private final class ChunkLimitedParser extends HttpParser {
        private ByteBuffer parsing;

        ChunkLimitedParser(RequestHandler handler, int maxHeaderBytes, HttpCompliance compliance) {
            super(handler, maxHeaderBytes, compliance);
        }

        @Override
        protected boolean parseContent(ByteBuffer buffer) {
            parsing = buffer;
            try {
                return super.parseContent(buffer);
            } finally {
                parsing = null;
            }
        }

        @Override
        protected void setState(State state) {
            super.setState(state);
            // The parser has just read the first hex digit of a chunk's size line from the buffer.
            if (state == State.CHUNK_SIZE && parsing != null) {
                long size = 0;
                for (int i = parsing.position() - 1; i < parsing.limit() && size <= limits.maxBodyBytes(); i++) {
                    int digit = Character.digit(parsing.get(i), 16);
                    if (digit < 0) {
                        break;
                    }
                    size = size * 16 + digit;
                }
                if (getContentRead() + size > limits.maxBodyBytes()) {
                    chunkRefusal = chunkedTooLarge(limits);
                    throw new BadMessageException(HttpStatus.PAYLOAD_TOO_LARGE_413, chunkRefusal);
                }
            }
        }
    }
}

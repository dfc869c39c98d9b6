package io.gamefleet.local.edge;

import java.io.ByteArrayOutputStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Reads each request's body without blocking (a slow client holds no thread) and hands the
 * request, once whole, to a {@link Dispatcher}. A body that grows past
 * {@link HttpEdge.Limits#maxBodyBytes} is refused with 413, a request not whole within
 * {@link HttpEdge.Limits#requestDeadline} of its first byte with 408.
 */
final class WholeRequests extends Handler.Abstract.NonBlocking {
    /** Takes a whole request, on a Jetty thread: it must hand any work that may block to a thread of its own. */
    interface Dispatcher {
        void dispatch(Exchange exchange);
    }

    private final HttpEdge.Limits limits;
    private final Dispatcher dispatcher;

    WholeRequests(HttpEdge.Limits limits, Dispatcher dispatcher) {
        this.limits = limits;
        this.dispatcher = dispatcher;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        new BodyReader(request, response, callback).start();
        return true;
    }

    private final class BodyReader {
        private final Request request;
        private final Response response;
        private final Callback callback;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private final AtomicBoolean settled = new AtomicBoolean();
        private Scheduler.Task deadline;

        BodyReader(Request request, Response response, Callback callback) {
            this.request = request;
            this.response = response;
            this.callback = callback;
        }

        void start() {
            long left = limits.requestDeadline().toNanos() - (System.nanoTime() - request.getBeginNanoTime());
            deadline = request.getComponents().getScheduler().schedule(this::incomplete, Math.max(0, left),
                    TimeUnit.NANOSECONDS);
            read();
        }

        private void read() {
            while (!settled.get()) {
                Content.Chunk chunk = request.read();
                if (chunk == null) {
                    request.demand(this::read);
                    return;
                }
                if (Content.Chunk.isFailure(chunk)) {
                    if (chunk.getFailure() instanceof TimeoutException) {
                        incomplete(); // the connection's idle timeout, mid-body
                    } else if (settled.compareAndSet(false, true)) {
                        deadline.cancel();
                        callback.failed(chunk.getFailure()); // the client went away
                    }
                    return;
                }
                int size = chunk.remaining();
                if (body.size() + (long) size > limits.maxBodyBytes()) {
                    chunk.release();
                    refuse(HttpStatus.PAYLOAD_TOO_LARGE_413, "the chunked request body grew larger than "
                            + limits.maxBodyBytes() + " bytes, the most API Gateway takes");
                    return;
                }
                byte[] bytes = new byte[size];
                chunk.getByteBuffer().get(bytes);
                body.writeBytes(bytes);
                boolean last = chunk.isLast();
                chunk.release();
                if (last) {
                    if (settled.compareAndSet(false, true)) {
                        deadline.cancel();
                        dispatcher.dispatch(new Exchange(request, response, callback, body.toByteArray()));
                    }
                    return;
                }
            }
        }

        private void incomplete() {
            refuse(HttpStatus.REQUEST_TIMEOUT_408, "the request was not complete within "
                    + HttpEdge.describe(limits.requestDeadline()) + " of its first byte");
        }

        private void refuse(int status, String message) {
            if (settled.compareAndSet(false, true)) {
                deadline.cancel();
                JsonErrorHandler.refuse(response, callback, status, "InvalidRequestException", message);
            }
        }
    }
}

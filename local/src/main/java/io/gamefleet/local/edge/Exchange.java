package io.gamefleet.local.edge;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.Headers;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** One request to the edge server, its body read whole, and the means to answer it once. */
final class Exchange {
    static final ObjectMapper JSON = new ObjectMapper();

    private final Request request;
    private final Response response;
    private final Callback callback;
    private final Headers headers = new Headers();
    private final byte[] body;
    private volatile boolean answered;

    Exchange(Request request, Response response, Callback callback, byte[] body) {
        this.request = request;
        this.response = response;
        this.callback = callback;
        this.body = body;
        for (HttpField field : request.getHeaders()) {
            headers.add(field.getName(), field.getValue());
        }
    }

    String method() {
        return request.getMethod();
    }

    /** The path as it arrived, still percent-encoded (SigV4 signs it so). */
    String path() {
        return request.getHttpURI().getPath();
    }

    /** The query as it arrived, without '?'; null if none. */
    String query() {
        return request.getHttpURI().getQuery();
    }

    Headers headers() {
        return headers;
    }

    byte[] body() {
        return body;
    }

    boolean isPost(String path) {
        return method().equals("POST") && path().equals(path);
    }

    /** Whether a response was sent. */
    boolean answered() {
        return answered;
    }

    /** Notes what the access log says of this request (the operation, the caller). */
    void note(String attribute, Object value) {
        request.setAttribute(attribute, value);
    }

    void addResponseHeader(String name, String value) {
        response.getHeaders().add(name, value.replaceAll("[\r\n]", " "));
    }

    /** Sends the body as JSON, unless a Content-Type was added before. */
    void respond(int status, String body) throws IOException {
        if (!response.getHeaders().contains(HttpHeader.CONTENT_TYPE)) {
            addResponseHeader("Content-Type", "application/json");
        }
        send(status, body.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends a function's response: its headers and its body's bytes. */
    void respond(int status, Map<String, String> headers, byte[] bytes) throws IOException {
        headers.forEach(this::addResponseHeader);
        send(status, bytes);
    }

    /** An error as API Gateway and the AWS JSON protocols send it: {@code __type} and {@code Message}. */
    void respondError(int status, String type, String message) throws IOException {
        respondError(status, type, message, Map.of());
    }

    /** The same with headers of its own (a 405's {@code Allow}). */
    void respondError(int status, String type, String message, Map<String, String> headers) throws IOException {
        response.getHeaders().clear();
        headers.forEach(this::addResponseHeader);
        respond(status, JSON.writeValueAsString(Map.of("__type", type, "Message", message)));
    }

    /** Runs {@code task} on the server's scheduler after {@code delay}; no thread waits meanwhile. */
    void after(Duration delay, Runnable task) {
        request.getComponents().getScheduler().schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Closes the connection with no answer: what the caller of a region that is down gets. */
    void drop() {
        if (answered) {
            return;
        }
        answered = true;
        note(AccessLog.DROPPED, true);
        request.getConnectionMetaData().getConnection().getEndPoint().close();
        callback.failed(new EofException("dropped: the region is down"));
    }

    private void send(int status, byte[] bytes) {
        if (answered) {
            return;
        }
        answered = true;
        response.setStatus(status);
        response.getHeaders().remove(HttpHeader.TRANSFER_ENCODING);
        response.getHeaders().remove(HttpHeader.CONNECTION);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }
}

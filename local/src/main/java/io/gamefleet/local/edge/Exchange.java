package io.gamefleet.local.edge;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.Headers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One request to the edge server, its body read, and the means to answer it. */
final class Exchange {
    static final ObjectMapper JSON = new ObjectMapper();

    private final LoopbackHttpServer.Request request;
    private final LoopbackHttpServer.Responder responder;
    private final Map<String, List<String>> responseHeaders = new LinkedHashMap<>();
    private boolean answered;

    Exchange(LoopbackHttpServer.Request request, LoopbackHttpServer.Responder responder) {
        this.request = request;
        this.responder = responder;
    }

    String method() {
        return request.method();
    }

    /** The path as it arrived, still percent-encoded (SigV4 signs it so). */
    String path() {
        return request.rawPath();
    }

    /** The query as it arrived, without '?'; null if none. */
    String query() {
        return request.rawQuery();
    }

    Headers headers() {
        return request.headers();
    }

    byte[] body() {
        return request.body();
    }

    boolean isPost(String path) {
        return method().equals("POST") && path().equals(path);
    }

    /** Whether a response was sent. */
    boolean answered() {
        return answered;
    }

    void addResponseHeader(String name, String value) {
        responseHeaders.computeIfAbsent(name, k -> new java.util.ArrayList<>()).add(value);
    }

    /** Sends the body as JSON, unless a Content-Type was added before. */
    void respond(int status, String body) throws IOException {
        if (responseHeaders.keySet().stream().noneMatch(k -> k.equalsIgnoreCase("Content-Type"))) {
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
        responseHeaders.clear();
        respond(status, JSON.writeValueAsString(Map.of("__type", type, "Message", message)));
    }

    private void send(int status, byte[] bytes) {
        answered = true;
        responder.respond(status, responseHeaders, bytes);
    }
}

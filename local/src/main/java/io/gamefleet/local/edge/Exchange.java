package io.gamefleet.local.edge;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** One request to the edge server, its body read, and the means to answer it. */
final class Exchange {
    static final ObjectMapper JSON = new ObjectMapper();

    private final HttpExchange http;
    private final byte[] body;

    Exchange(HttpExchange http) throws IOException {
        this.http = http;
        this.body = http.getRequestBody().readAllBytes();
    }

    String method() {
        return http.getRequestMethod();
    }

    /** The path as it arrived, still percent-encoded (SigV4 signs it so). */
    String path() {
        return http.getRequestURI().getRawPath();
    }

    /** The query as it arrived, without '?'; null if none. */
    String query() {
        return http.getRequestURI().getRawQuery();
    }

    Headers headers() {
        return http.getRequestHeaders();
    }

    byte[] body() {
        return body;
    }

    boolean isPost(String path) {
        return method().equals("POST") && path().equals(path);
    }

    void addResponseHeader(String name, String value) {
        http.getResponseHeaders().add(name, value);
    }

    /** Sends the body as JSON, unless a Content-Type was added before. */
    void respond(int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        if (!http.getResponseHeaders().containsKey("Content-Type")) {
            http.getResponseHeaders().add("Content-Type", "application/json");
        }
        http.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = http.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** Sends a function's response: its headers and its body's bytes. */
    void respond(int status, Map<String, String> headers, byte[] bytes) throws IOException {
        headers.forEach((name, value) -> http.getResponseHeaders().add(name, value));
        http.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = http.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** An error as API Gateway and the AWS JSON protocols send it: {@code __type} and {@code Message}. */
    void respondError(int status, String type, String message) throws IOException {
        respond(status, JSON.writeValueAsString(Map.of("__type", type, "Message", message)));
    }
}

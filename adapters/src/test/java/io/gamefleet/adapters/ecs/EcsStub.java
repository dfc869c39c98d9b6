package io.gamefleet.adapters.ecs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ecs.EcsClient;

/**
 * ECS's JSON 1.1 wire on a socket of this machine: it records each request (its operation from
 * X-Amz-Target, its headers and its JSON body) and answers from a script, one answer per call of an
 * operation ({@code {}} where none is scripted). The client it builds is the SDK's, as the functions
 * build theirs: static credentials, an explicit region, no retries (a test sees each failure once).
 */
final class EcsStub implements AutoCloseable {
    static final String TARGET_PREFIX = "AmazonEC2ContainerServiceV20141113.";
    static final String CONTENT_TYPE = "application/x-amz-json-1.1";
    private static final ObjectMapper JSON = new ObjectMapper();

    record Call(String method, String path, String operation, Map<String, List<String>> headers, JsonNode body) {
        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0)).findFirst().orElse(null);
        }
    }

    private record Answer(int status, String body) {}

    private final HttpServer server;
    private final List<Call> calls = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, Deque<Answer>> answers = new HashMap<>();

    EcsStub() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.start();
    }

    /** Scripts the next answer of {@code operation}: a 200 with this JSON. */
    EcsStub answer(String operation, String json) {
        return script(operation, new Answer(200, json));
    }

    /** Scripts the next answer of {@code operation}: ECS's error {@code type}. */
    EcsStub fail(String operation, int status, String type, String message) {
        return script(operation, new Answer(status, JSON.createObjectNode().put("__type", type).put("message", message)
                .toString()));
    }

    private synchronized EcsStub script(String operation, Answer answer) {
        answers.computeIfAbsent(operation, o -> new ArrayDeque<>()).add(answer);
        return this;
    }

    List<Call> calls() {
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }

    List<String> operations() {
        return calls().stream().map(Call::operation).toList();
    }

    /** The body of the only call of {@code operation}. */
    JsonNode only(String operation) {
        List<Call> of = calls().stream().filter(c -> c.operation().equals(operation)).toList();
        if (of.size() != 1) {
            throw new AssertionError(operation + " was called " + of.size() + " times: " + operations());
        }
        return of.get(0).body();
    }

    EcsClient client() {
        return EcsClient.builder()
                .endpointOverride(URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", "secret")))
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            byte[] request = exchange.getRequestBody().readAllBytes();
            String operation = target != null && target.startsWith(TARGET_PREFIX)
                    ? target.substring(TARGET_PREFIX.length()) : "<not ECS: " + exchange.getRequestURI() + ">";
            calls.add(new Call(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), operation,
                    Map.copyOf(exchange.getRequestHeaders()),
                    JSON.readTree(request.length == 0 ? "{}".getBytes(StandardCharsets.UTF_8) : request)));
            Answer answer;
            synchronized (this) {
                Deque<Answer> scripted = answers.get(operation);
                answer = scripted == null || scripted.isEmpty() ? new Answer(200, "{}") : scripted.remove();
            }
            byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            exchange.sendResponseHeaders(answer.status(), body.length);
            exchange.getResponseBody().write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

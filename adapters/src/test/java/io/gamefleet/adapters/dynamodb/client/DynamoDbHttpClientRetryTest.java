package io.gamefleet.adapters.dynamodb.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.ThrottlingException;

/**
 * The client's requests, retries and timeouts against a JDK HTTP server that answers as told:
 * DynamoDB's answers, 5xx, throttling, a corrupt body, or nothing at all.
 */
class DynamoDbHttpClientRetryTest {
    /** What the server does with each request, in turn (the last one again once they run out). */
    private interface Behaviour {
        void answer(HttpExchange exchange) throws IOException;
    }

    private HttpServer server;
    private final List<Behaviour> script = new ArrayList<>();
    private final ConcurrentLinkedQueue<Request> received = new ConcurrentLinkedQueue<>();
    private final CountDownLatch release = new CountDownLatch(1);

    private record Request(Map<String, List<String>> headers, String body) {}

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(new Request(Map.copyOf(exchange.getRequestHeaders()), body));
            Behaviour b;
            synchronized (script) {
                b = script.size() > 1 ? script.remove(0) : script.get(0);
            }
            b.answer(exchange);
        });
        server.start();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(0);
    }

    private DynamoDbHttpClient.Builder client() {
        return DynamoDbHttpClient.builder().endpoint(URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
                .region("eu-west-1")
                .credentialsProvider(StaticCredentialsProvider.create(AwsSessionCredentials.create("AKID", "secret", "token")))
                .backoff(Duration.ofMillis(1), Duration.ofMillis(2));
    }

    /** From now on, these answers in turn. */
    private void then(Behaviour... behaviours) {
        synchronized (script) {
            script.clear();
            script.addAll(List.of(behaviours));
        }
    }

    private static Behaviour json(int status, String body) {
        return exchange -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
            exchange.getResponseHeaders().add("x-amzn-RequestId", "request-" + status);
            CRC32 crc = new CRC32();
            crc.update(bytes);
            exchange.getResponseHeaders().add("x-amz-crc32", Long.toString(crc.getValue()));
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        };
    }

    private static Behaviour error(int status, String type, String message) {
        return json(status, "{\"__type\":\"com.amazonaws.dynamodb.v20120810#" + type + "\",\"message\":\"" + message + "\"}");
    }

    private static final Behaviour ITEM = json(200, "{\"Item\":{\"GameServerId\":{\"S\":\"a\"}}}");

    private Behaviour stall() {
        return exchange -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        };
    }

    private GetItemResponse get(DynamoDbHttpClient client) {
        return client.getItem(g -> g.tableName("T").key(Map.of("GameServerId", AttributeValue.fromS("a"))));
    }

    @Test
    void sendsASignedJson10Request() {
        then(ITEM);
        GetItemResponse response = get(client().build());
        assertThat(response.item()).containsEntry("GameServerId", AttributeValue.fromS("a"));
        Request r = received.peek();
        assertThat(r.body()).isEqualTo("{\"TableName\":\"T\",\"Key\":{\"GameServerId\":{\"S\":\"a\"}}}");
        assertThat(r.headers().get("X-amz-target")).containsExactly("DynamoDB_20120810.GetItem");
        assertThat(r.headers().get("Content-type")).containsExactly("application/x-amz-json-1.0");
        assertThat(r.headers().get("X-amz-security-token")).containsExactly("token");
        assertThat(r.headers().get("X-amz-date").get(0)).matches("\\d{8}T\\d{6}Z");
        assertThat(r.headers().get("Authorization").get(0))
                .startsWith("AWS4-HMAC-SHA256 Credential=AKID/" + r.headers().get("X-amz-date").get(0).substring(0, 8)
                        + "/eu-west-1/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;"
                        + "x-amz-security-token;x-amz-target, Signature=");
    }

    @Test
    void serverErrorsAreTriedAgain() {
        then(error(500, "InternalServerError", "oops"), json(503, ""), ITEM);
        assertThat(get(client().build()).hasItem()).isTrue();
        assertThat(received).hasSize(3);
    }

    @Test
    void throttlingIsTriedThreeTimesThenThrown() {
        then(error(400, "ThrottlingException", "slow down"));
        ThrottlingException e = catchThrowableOfType(ThrottlingException.class, () -> get(client().build()));
        assertThat(received).hasSize(3);
        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ThrottlingException");
        assertThat(e.requestId()).isEqualTo("request-400");
        assertThat(e.isThrottlingException()).isTrue();
    }

    @Test
    void provisionedThroughputAndRequestLimitAreThrottling() {
        then(error(400, "ProvisionedThroughputExceededException", "too much"), error(400, "RequestLimitExceeded", "limit"),
                error(400, "ProvisionedThroughputExceededException", "still"));
        ProvisionedThroughputExceededException e = catchThrowableOfType(ProvisionedThroughputExceededException.class,
                () -> get(client().build()));
        assertThat(e.awsErrorDetails().errorMessage()).isEqualTo("still");
        assertThat(received).hasSize(3);
    }

    @Test
    void fewerAttemptsWhenConfigured() {
        then(error(500, "InternalServerError", "oops"));
        InternalServerErrorException e = catchThrowableOfType(InternalServerErrorException.class,
                () -> get(client().maxAttempts(2).build()));
        assertThat(e.statusCode()).isEqualTo(500);
        assertThat(received).hasSize(2);
    }

    @Test
    void clientErrorsAreNotTriedAgain() {
        then(error(400, "ConditionalCheckFailedException", "The conditional request failed"));
        catchThrowableOfType(ConditionalCheckFailedException.class, () -> get(client().build()));
        assertThat(received).hasSize(1);
        received.clear();
        then(json(400, "{\"__type\":\"com.amazon.coral.validate#ValidationException\",\"Message\":\"bad\"}"));
        DynamoDbException e = catchThrowableOfType(DynamoDbException.class, () -> get(client().build()));
        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
        assertThat(e.awsErrorDetails().errorMessage()).isEqualTo("bad");
    }

    @Test
    void aCorruptAnswerIsTriedAgain() {
        Behaviour corrupt = exchange -> {
            byte[] bytes = "{\"Item\":{\"GameServerId\":{\"S\":\"b\"}}}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("x-amz-crc32", "12345");
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        };
        then(corrupt, ITEM);
        assertThat(get(client().build()).item().get("GameServerId").s()).isEqualTo("a");
        assertThat(received).hasSize(2);
    }

    /** A server that takes requests and never answers: each attempt ends at the socket timeout, the call within its own. */
    @Test
    void aStalledServerEndsInAClientErrorWithinTheCallTimeout() {
        then(stall());
        long start = System.nanoTime();
        SdkClientException e = catchThrowableOfType(SdkClientException.class, () -> get(client()
                .socketTimeout(Duration.ofMillis(300)).callTimeout(Duration.ofMillis(2000)).build()));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(e.getMessage()).contains("timed out").contains("GetItem");
        assertThat(received).hasSize(3);
        assertThat(millis).isBetween(900L, 1900L);
    }

    /** The call timeout bounds the whole call even when the socket timeout alone would not. */
    @Test
    void theCallTimeoutCutsTheLastAttemptShort() {
        then(stall());
        long start = System.nanoTime();
        SdkClientException e = catchThrowableOfType(SdkClientException.class, () -> get(client()
                .socketTimeout(Duration.ofSeconds(5)).callTimeout(Duration.ofMillis(700)).build()));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(e.getMessage()).contains("timed out");
        assertThat(received).hasSize(1);
        assertThat(millis).isBetween(650L, 1500L);
    }

    @Test
    void aRefusedConnectionIsTriedAgainThenThrown() throws IOException {
        int port = server.getAddress().getPort();
        server.stop(0);
        long start = System.nanoTime();
        SdkClientException e = catchThrowableOfType(SdkClientException.class, () -> get(DynamoDbHttpClient.builder()
                .endpoint(URI.create("http://127.0.0.1:" + port)).region("eu-west-1")
                .credentialsProvider(StaticCredentialsProvider.create(AwsSessionCredentials.create("a", "b", "c")))
                .backoff(Duration.ofMillis(1), Duration.ofMillis(1)).build()));
        assertThat(e.getMessage()).contains("Unable to execute HTTP request").contains("3 attempts");
        assertThat(e.getCause()).isInstanceOf(java.net.ConnectException.class);
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(2000);
    }

    @Test
    void theDefaultEndpointIsTheRegions() {
        assertThat(DynamoDbHttpClient.defaultEndpoint("eu-west-1")).isEqualTo(URI.create("https://dynamodb.eu-west-1.amazonaws.com"));
        assertThat(DynamoDbHttpClient.defaultEndpoint("cn-north-1"))
                .isEqualTo(URI.create("https://dynamodb.cn-north-1.amazonaws.com.cn"));
        assertThat(DynamoDbHttpClient.builder().region("us-east-2")
                .credentialsProvider(StaticCredentialsProvider.create(AwsSessionCredentials.create("a", "b", "c"))).build()
                .endpoint()).isEqualTo(URI.create("https://dynamodb.us-east-2.amazonaws.com"));
    }
}

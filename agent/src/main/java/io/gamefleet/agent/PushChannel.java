package io.gamefleet.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;

/**
 * The instance's push channel (docs/agent.md, "Push channel"): a WebSocket whose upgrade is signed
 * with SigV4 for {@code execute-api} by the instance's credentials. It brings claim and terminate
 * notices, carries the agent's health reports, is pinged when nothing else went out for 5 min (API
 * Gateway drops an idle one after 10), and is opened again with backoff and jitter whenever it closes.
 */
final class PushChannel implements WebSocket.Listener, HealthChannel {
    static final String SIGNING_NAME = "execute-api";
    static final Duration RECONNECT_INITIAL = Duration.ofSeconds(1);
    static final Duration RECONNECT_MAX = Duration.ofSeconds(60);
    /** How much of an unreadable notice the log shows. */
    static final int NOTICE_PREFIX = 40;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> UNSIGNABLE = List.of("host", "connection", "upgrade");

    private final URI endpoint;
    private final String instanceId;
    private final String groupName;
    private final String region;
    private final AwsCredentialsProvider credentials;
    private final Supervisor supervisor;
    private final ScheduledExecutorService scheduler;
    private final Duration pingPeriod;
    private final AgentLog log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final Random jitter = new Random();
    private final StringBuilder partial = new StringBuilder();
    private volatile WebSocket socket;
    private Runnable onOpen = () -> { };
    /** The JDK's WebSocket takes one send at a time: each waits for the one before. */
    private java.util.concurrent.CompletableFuture<?> sending = java.util.concurrent.CompletableFuture.completedFuture(null);
    private volatile long lastSentNanos = System.nanoTime();
    private final java.util.concurrent.atomic.AtomicInteger failures = new java.util.concurrent.atomic.AtomicInteger();

    PushChannel(URI endpoint, String instanceId, String groupName, String region, AwsCredentialsProvider credentials,
            Supervisor supervisor, ScheduledExecutorService scheduler, Duration pingPeriod, AgentLog log) {
        this.endpoint = endpoint;
        this.instanceId = instanceId;
        this.groupName = groupName;
        this.region = region;
        this.credentials = credentials;
        this.supervisor = supervisor;
        this.scheduler = scheduler;
        this.pingPeriod = pingPeriod;
        this.log = log;
    }

    /** What to do each time the channel opens: a notice sent while it was closed was lost. */
    PushChannel onOpen(Runnable action) {
        this.onOpen = action;
        return this;
    }

    void start() {
        scheduler.scheduleAtFixedRate(this::ping, pingPeriod.toMillis(), pingPeriod.toMillis(), TimeUnit.MILLISECONDS);
        connect();
    }

    private void connect() {
        URI uri = URI.create(endpoint + (endpoint.getQuery() == null ? "?" : "&")
                + "instanceId=" + encode(instanceId) + "&gameServerGroupName=" + encode(groupName));
        WebSocket.Builder builder = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10));
        try {
            signedHeaders(uri).forEach((name, values) -> {
                if (!UNSIGNABLE.contains(name.toLowerCase())) {
                    values.forEach(v -> builder.header(name, v));
                }
            });
        } catch (RuntimeException e) {
            reconnectLater("cannot sign the connect: " + e.getMessage());
            return;
        }
        builder.buildAsync(uri, this).whenComplete((ws, error) -> {
            if (error != null) {
                reconnectLater("connect failed: " + error.getMessage());
            } else {
                socket = ws;
                failures.set(0);
                log.info("push channel open: " + endpoint);
                onOpen.run();
            }
        });
    }

    /** SigV4 of the upgrade's GET as HTTP(S), which is what API Gateway (and the local edge) verify. */
    private Map<String, List<String>> signedHeaders(URI uri) {
        String scheme = uri.getScheme().equals("wss") ? "https" : "http";
        SdkHttpRequest request = SdkHttpRequest.builder().method(SdkHttpMethod.GET)
                .uri(URI.create(scheme + uri.toString().substring(uri.getScheme().length()))).build();
        SignedRequest signed = AwsV4HttpSigner.create().sign(r -> r
                .identity(credentials.resolveCredentials())
                .request(request)
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, SIGNING_NAME)
                .putProperty(AwsV4HttpSigner.REGION_NAME, region));
        return signed.request().headers();
    }

    private void reconnectLater(String why) {
        socket = null;
        Duration max = FleetSync.backoff(RECONNECT_INITIAL, RECONNECT_MAX, failures.incrementAndGet());
        long delay = max.toMillis() / 2 + (long) (jitter.nextDouble() * max.toMillis() / 2);
        log.warn("push channel: " + why + "; reconnecting in " + delay + " ms");
        scheduler.schedule(this::connect, delay, TimeUnit.MILLISECONDS);
    }

    /** Only when nothing went out for a ping period: the health reports keep the connection alive. */
    private void ping() {
        if (System.nanoTime() - lastSentNanos >= pingPeriod.toNanos() * 9 / 10) {
            send("{\"action\":\"ping\"}");
        }
    }

    @Override
    public synchronized boolean send(String text) {
        WebSocket ws = socket;
        if (ws == null) {
            return false;
        }
        lastSentNanos = System.nanoTime();
        sending = sending.handle((done, failed) -> null).thenCompose(x -> ws.sendText(text, true))
                .whenComplete((done, failed) -> {
                    if (failed != null) {
                        log.warn("push channel: a send failed (" + failed.getMessage() + ")");
                    }
                });
        return true;
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
            String text = partial.toString();
            partial.setLength(0);
            receive(text);
        }
        webSocket.request(1);
        return null;
    }

    /** A whole message: delivered, or, unreadable, said so in the log. */
    void receive(String text) {
        try {
            deliver(text);
        } catch (RuntimeException e) {
            // A claim's notice carries the matchmaker's GameServerData, which is no log's to keep.
            log.warn("push channel: unreadable notice (" + text.length() + " characters, starting "
                    + text.substring(0, Math.min(text.length(), NOTICE_PREFIX)) + "): " + e.getMessage());
        }
    }

    /** Hands a notice or a refusal to the supervisor; anything else (pong, unknown actions) is let go. */
    void deliver(String text) {
        JsonNode n;
        try {
            n = JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("not JSON");
        }
        if (!groupName.equals(n.path("gameServerGroupName").asText(groupName))) {
            return;
        }
        switch (n.path("action").asText()) {
            case "claimed" -> supervisor.claimed(new Notices.Claimed(n.path("gameServerId").asText(),
                    n.path("gameServerData").isTextual() ? n.path("gameServerData").asText() : null,
                    Instant.parse(n.path("claimedAt").asText()), Instant.parse(n.path("claimExpiresAt").asText())));
            case "terminate" -> supervisor.terminate(new Notices.Terminate(n.path("gameServerId").asText(),
                    n.path("reason").asText("operator")));
            default -> {
                // A refusal (Gamefleet's {"__type","Message"}, or API Gateway's {"message"} when the route
                // failed) answers a health report: pings are never refused.
                if (n.has("__type") || n.has("message")) {
                    supervisor.healthReportRefused(n.path("__type").asText("") + " " + n.path("Message")
                            .asText(n.path("message").asText("")));
                }
            }
        }
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        reconnectLater("closed (" + statusCode + " " + reason + ")");
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        reconnectLater("error: " + error.getMessage());
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}

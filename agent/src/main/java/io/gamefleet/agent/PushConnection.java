package io.gamefleet.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.catalog.PushChannel;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;

/**
 * The instance's push channel (docs/agent.md, "Push channel"): a WebSocket whose upgrade is signed
 * with SigV4 for {@code execute-api} by the instance's credentials. It brings claim, terminate and
 * retiring notices and carries the agent's health reports. It is known alive, not taken on trust: a
 * ping goes out every {@code pushPingSeconds} and a pong (or any message) is expected within two of
 * them, and every send must be written within one; otherwise the connection is taken for dead (a
 * half-open one swallows what is sent to it), dropped, and opened again with the agent's backoff,
 * the health going through the API meanwhile. The checks run on the agent's clock. A new instance's
 * connect is refused until Gamefleet has recorded the instance (at its first registration): a
 * registration that goes through while the channel waits out its backoff connects it at once, once
 * a closed spell, so that its servers' claims find it open; the backoff holds for other failures.
 */
final class PushConnection implements WebSocket.Listener, HealthChannel {
    static final Duration RECONNECT_INITIAL = Duration.ofSeconds(1);
    static final Duration RECONNECT_MAX = Duration.ofSeconds(60);
    /** How often the liveness checks look at the clock. */
    static final Duration CHECK = Duration.ofMillis(100);
    /** How much of an unreadable notice the log shows. */
    static final int NOTICE_PREFIX = 40;
    private static final String PING = "{\"action\":\"" + PushChannel.PING + "\"}";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> UNSIGNABLE = List.of("host", "connection", "upgrade");

    private final URI endpoint;
    private final String instanceId;
    private final String groupName;
    private final String region;
    /** The QoS beacon's port, given in the connect so that Gamefleet lists it (none: no beacon runs). */
    private final OptionalInt qosPort;
    private final AwsCredentialsProvider credentials;
    private final Supervisor supervisor;
    private final ScheduledExecutorService scheduler;
    private final Clock clock;
    private final Duration pingPeriod;
    private final Backoff backoff;
    private final AgentLog log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final StringBuilder partial = new StringBuilder();
    private Runnable onOpen = () -> { };

    /** The open connection, or null while there is none (connecting, or waiting to reconnect). */
    private WebSocket socket;
    private int failures;
    /** When something last came from the server on this connection (or it opened). */
    private Instant lastHeardAt;
    private Instant nextPingAt;
    /** The JDK's WebSocket takes one send at a time: each waits for the one before. */
    private CompletableFuture<?> sending = CompletableFuture.completedFuture(null);
    /** Each send not yet written, with when it was given. */
    private final Deque<Pending> unconfirmed = new ArrayDeque<>();
    private boolean closed;
    /** The reconnect waiting out its backoff (null: none). */
    private ScheduledFuture<?> reconnect;
    /** This closed spell's reconnect was hurried by a registration already. */
    private boolean hurried;

    private record Pending(CompletableFuture<?> written, Instant at) {}

    PushConnection(URI endpoint, String instanceId, String groupName, OptionalInt qosPort, String region,
            AwsCredentialsProvider credentials, Supervisor supervisor, ScheduledExecutorService scheduler, Clock clock,
            Duration pingPeriod, Backoff backoff, AgentLog log) {
        this.endpoint = endpoint;
        this.instanceId = instanceId;
        this.groupName = groupName;
        this.qosPort = qosPort;
        this.region = region;
        this.credentials = credentials;
        this.supervisor = supervisor;
        this.scheduler = scheduler;
        this.clock = clock;
        this.pingPeriod = pingPeriod;
        this.backoff = backoff;
        this.log = log;
    }

    /** What to do each time the channel opens: a notice sent while it was closed was lost. */
    PushConnection onOpen(Runnable action) {
        this.onOpen = action;
        return this;
    }

    void start() {
        scheduler.scheduleWithFixedDelay(this::check, CHECK.toMillis(), CHECK.toMillis(), TimeUnit.MILLISECONDS);
        connect();
    }

    /** Whether a connection is open and not found dead. */
    synchronized boolean open() {
        return socket != null;
    }

    /** When something last came on the open connection (a pong, a notice), or it opened. */
    synchronized Instant lastHeardAt() {
        return lastHeardAt;
    }

    /** Lets go of the connection for good (the agent stops). */
    synchronized void close() {
        closed = true;
        if (socket != null) {
            socket.abort();
            socket = null;
        }
    }

    private void connect() {
        synchronized (this) {
            if (closed) {
                return;
            }
        }
        URI uri = URI.create(endpoint + (endpoint.getQuery() == null ? "?" : "&")
                + PushChannel.INSTANCE_ID_PARAMETER + "=" + encode(instanceId) + "&" + PushChannel.GROUP_NAME_PARAMETER + "="
                + encode(groupName)
                + (qosPort.isPresent() ? "&" + PushChannel.QOS_PORT_PARAMETER + "=" + qosPort.getAsInt() : ""));
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
                opened(ws);
            }
        });
    }

    private void opened(WebSocket ws) {
        synchronized (this) {
            if (closed) {
                ws.abort();
                return;
            }
            socket = ws;
            failures = 0;
            reconnect = null;
            hurried = false;
            lastHeardAt = clock.instant();
            nextPingAt = lastHeardAt.plus(pingPeriod);
            unconfirmed.clear();
            sending = CompletableFuture.completedFuture(null);
        }
        log.info("push channel open: " + endpoint);
        onOpen.run();
    }

    /** SigV4 of the upgrade's GET as HTTP(S), which is what API Gateway (and the local edge) verify. */
    private Map<String, List<String>> signedHeaders(URI uri) {
        String scheme = uri.getScheme().equals("wss") ? "https" : "http";
        SdkHttpRequest request = SdkHttpRequest.builder().method(SdkHttpMethod.GET)
                .uri(URI.create(scheme + uri.toString().substring(uri.getScheme().length()))).build();
        SignedRequest signed = AwsV4HttpSigner.create().sign(r -> r
                .identity(credentials.resolveCredentials())
                .request(request)
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, PushChannel.SIGNING_SERVICE)
                .putProperty(AwsV4HttpSigner.REGION_NAME, region));
        return signed.request().headers();
    }

    private void reconnectLater(String why) {
        synchronized (this) {
            if (closed) {
                return;
            }
            Duration delay = backoff.delay(++failures);
            log.warn("push channel: " + why + "; reconnecting in " + delay.toMillis() + " ms");
            reconnect = scheduler.schedule(this::connect, delay.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * The instance is recorded now (a registration went through): a reconnect waiting out its
     * backoff is made at once, at most once a closed spell (a connect that fails again waits its turn).
     */
    @Override
    public void instanceRecorded() {
        synchronized (this) {
            if (closed || socket != null || hurried || reconnect == null || !reconnect.cancel(false)) {
                return;
            }
            reconnect = null;
            hurried = true;
        }
        log.info("push channel: a registration recorded the instance; connecting now, not at the backoff's end");
        try {
            scheduler.execute(this::connect);
        } catch (java.util.concurrent.RejectedExecutionException stopping) {
            // the agent stops: nothing to connect, and the registration that told it went through all the same
        }
    }

    /**
     * The liveness checks, on the agent's clock: a ping when one is due; the connection dropped when
     * nothing came for two pings, or a send has not been written for one.
     */
    void check() {
        WebSocket dead = null;
        String why = null;
        synchronized (this) {
            WebSocket ws = socket;
            if (ws == null) {
                return;
            }
            Instant now = clock.instant();
            while (!unconfirmed.isEmpty() && unconfirmed.peekFirst().written().isDone()) {
                if (unconfirmed.removeFirst().written().isCompletedExceptionally()) {
                    dead = ws;
                    why = "a send failed";
                }
            }
            if (dead == null && !now.isBefore(lastHeardAt.plus(pingPeriod.multipliedBy(2)))) {
                dead = ws;
                why = "no pong within two pings (" + pingPeriod.multipliedBy(2).toMillis() / 1000.0 + " s): the connection is half-open";
            } else if (dead == null && !unconfirmed.isEmpty() && !now.isBefore(unconfirmed.peekFirst().at().plus(pingPeriod))) {
                dead = ws;
                why = "a send not written within " + pingPeriod.toMillis() / 1000.0 + " s";
            } else if (dead == null && !now.isBefore(nextPingAt)) {
                nextPingAt = now.plus(pingPeriod);
                send(PING);
            }
        }
        if (dead != null) {
            lost(dead, why);
        }
    }

    /** The connection is gone or taken for dead: dropped, its last report's process events kept, and opened again. */
    private void lost(WebSocket ws, String why) {
        synchronized (this) {
            if (ws != socket) {
                return; // a connection already let go of
            }
            socket = null;
        }
        ws.abort();
        supervisor.healthChannelLost();
        reconnectLater(why + "; the health goes through the API meanwhile");
    }

    /** Sends the message if the channel is open; false, with nothing sent, if it is not. */
    @Override
    public synchronized boolean send(String text) {
        WebSocket ws = socket;
        if (ws == null) {
            return false;
        }
        CompletableFuture<?> written = sending.handle((done, failed) -> null).thenCompose(x -> ws.sendText(text, true));
        sending = written;
        unconfirmed.addLast(new Pending(written, clock.instant()));
        // On the scheduler: a send can fail at once, under the supervisor's lock, which lost() takes in turn.
        written.whenCompleteAsync((done, failed) -> {
            if (failed != null) {
                lost(ws, "a send failed (" + failed.getMessage() + ")");
            }
        }, scheduler);
        return true;
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        synchronized (this) {
            if (webSocket == socket) {
                lastHeardAt = clock.instant(); // a pong, or a notice: the connection carries both ways
            }
        }
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
    /** A claimed notice's session, when the claim was a session's (a ClaimGameServer's has none). */
    private static Notices.Session session(JsonNode session) {
        if (!session.isObject()) {
            return null;
        }
        JsonNode cookie = session.path(PushChannel.SESSION_COOKIE);
        List<String> players = new ArrayList<>();
        session.path(PushChannel.INITIAL_PLAYERS).forEach(p -> players.add(p.asText()));
        return new Notices.Session(session.path(PushChannel.SESSION_ID).asText(),
                cookie.isTextual() ? cookie.asText() : null, players);
    }

    void deliver(String text) {
        JsonNode n;
        try {
            n = JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("not JSON");
        }
        if (!groupName.equals(n.path(PushChannel.GROUP_NAME_PARAMETER).asText(groupName))) {
            return;
        }
        switch (n.path("action").asText()) {
            case PushChannel.CLAIMED -> supervisor.claimed(new Notices.Claimed(n.path("gameServerId").asText(),
                    n.path("gameServerData").isTextual() ? n.path("gameServerData").asText() : null,
                    Instant.parse(n.path("claimedAt").asText()), Instant.parse(n.path("claimExpiresAt").asText()),
                    session(n.path(PushChannel.SESSION))));
            case PushChannel.TERMINATE -> supervisor.terminate(new Notices.Terminate(n.path("gameServerId").asText(),
                    n.path("reason").asText("operator")));
            case PushChannel.RETIRING -> {
                if (instanceId.equals(n.path(PushChannel.INSTANCE_ID).asText())) {
                    supervisor.retiring(Instant.parse(n.path(PushChannel.RETIRES_AT).asText()),
                            n.path(PushChannel.REASON).asText(PushChannel.MAX_INSTANCE_LIFETIME));
                }
            }
            case PushChannel.PONG -> { }
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
        lost(webSocket, "closed (" + statusCode + " " + reason + ")");
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        lost(webSocket, "error: " + error.getMessage());
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}

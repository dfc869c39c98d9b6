package io.gamefleet.adapters.peers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.domain.PeerRegions;
import io.gamefleet.domain.QosServers.QosServer;
import io.gamefleet.domain.Session;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;

/**
 * Peer regions over their APIs: each call a Gamefleet route of the peer's, signed with SigV4 for
 * {@code execute-api} in the peer's region by the AWS SDK's signer, with the credentials given for
 * that peer (in AWS, a session of the peer's MATCHMAKER role), and sent by an SDK HTTP client. A
 * call runs on a thread of its own and is given up (its request aborted) when the budget ends:
 * resolving credentials, connecting, sending and reading the answer all count.
 */
public final class HttpPeerRegions implements PeerRegions, AutoCloseable {
    /** A peer, and the credentials its calls are signed with. */
    public record Endpoint(String region, URI apiUrl, AwsCredentialsProvider credentials) {}

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AwsV4HttpSigner SIGNER = AwsV4HttpSigner.create();

    private final Map<String, Endpoint> endpoints = new LinkedHashMap<>();
    private final SdkHttpClient http;
    private final Duration budget;
    private final Clock clock;
    private final ExecutorService calls;

    /** {@code clock}: what the signatures are dated by (the local profile's tests move theirs). */
    public HttpPeerRegions(List<Endpoint> endpoints, SdkHttpClient http, Duration budget, Clock clock) {
        endpoints.forEach(e -> this.endpoints.put(e.region(), e));
        this.http = http;
        this.budget = budget;
        this.clock = clock;
        this.calls = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "gamefleet-peer-call");
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public List<Peer> peers() {
        return endpoints.values().stream().map(e -> new Peer(e.region(), e.apiUrl().toString())).toList();
    }

    /** Placed in that region alone ({@code PreferredRegions} names it only), so that the peer forwards it nowhere. */
    @Override
    public Answer createSession(String region, Session.Request request) {
        ObjectNode body = JSON.createObjectNode();
        body.put("SessionId", request.sessionId());
        if (request.sessionCookie() != null) {
            body.put("SessionCookie", request.sessionCookie());
        }
        ArrayNode players = body.putArray("InitialPlayers");
        request.initialPlayers().forEach(players::add);
        ArrayNode statuses = body.putObject("FilterOption").putArray("InstanceStatuses");
        request.instanceStatuses().stream().map(Enum::name).sorted().forEach(statuses::add);
        body.putArray("PreferredRegions").add(region);
        Reply reply;
        try {
            reply = call(region, SdkHttpMethod.POST, "/game-server-groups/" + encode(request.gameServerGroupName())
                    + "/sessions", body.toString());
        } catch (Unanswered e) {
            return new Answer.Refused(e.getMessage());
        }
        if (reply.status() == 200) {
            JsonNode id = reply.json().path("Session").path("GameServerId");
            if (id.isTextual()) {
                return new Answer.Placed(id.asText(), reply.text());
            }
            return new Answer.Refused("answered 200 without a session's GameServerId");
        }
        return new Answer.Refused(reply.refusal());
    }

    @Override
    public List<QosServer> qosServers(String region) {
        Reply reply;
        try {
            reply = call(region, SdkHttpMethod.GET, "/qos-servers?Region=" + encode(region), null);
        } catch (Unanswered e) {
            return List.of();
        }
        List<QosServer> servers = new ArrayList<>();
        if (reply.status() == 200) {
            for (JsonNode s : reply.json().path("QosServers")) {
                if (s.path("ServerUrl").isTextual() && s.path("Port").isInt()) {
                    servers.add(new QosServer(s.get("ServerUrl").asText(), s.get("Port").asInt()));
                }
            }
        }
        return servers;
    }

    /** What a peer sent back: its status, and its body as text and as JSON (an empty object if it was none). */
    private record Reply(int status, String text, JsonNode json) {
        /** An error's answer in a sentence: its status, and the error's type and message where it has them. */
        String refusal() {
            String type = json.path("__type").asText(json.path("code").asText(""));
            String message = json.path("message").asText(json.path("Message").asText(""));
            return "answered " + status + (type.isEmpty() ? "" : " " + type.substring(type.lastIndexOf('#') + 1))
                    + (message.isEmpty() ? "" : ": " + message);
        }
    }

    /** No answer within the budget, or none at all: why, in a sentence. */
    private static final class Unanswered extends Exception {
        Unanswered(String message) {
            super(message, null, false, false);
        }
    }

    private Reply call(String region, SdkHttpMethod method, String pathAndQuery, String json) throws Unanswered {
        Endpoint peer = endpoints.get(region);
        if (peer == null) {
            throw new IllegalArgumentException("no peer region " + region);
        }
        AtomicReference<ExecutableHttpRequest> sent = new AtomicReference<>();
        Future<Reply> reply = calls.submit(() -> send(peer, method, pathAndQuery, json, sent));
        try {
            return reply.get(budget.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            reply.cancel(true);
            Optional.ofNullable(sent.get()).ifPresent(ExecutableHttpRequest::abort);
            throw new Unanswered("did not answer within " + budget.toMillis() + " ms");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new Unanswered("could not be reached (" + cause.getClass().getSimpleName()
                    + (cause.getMessage() == null ? "" : ": " + cause.getMessage()) + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            reply.cancel(true);
            throw new Unanswered("was not asked: the call was interrupted");
        }
    }

    private Reply send(Endpoint peer, SdkHttpMethod method, String pathAndQuery, String json,
            AtomicReference<ExecutableHttpRequest> sent) throws IOException {
        String base = peer.apiUrl().toString().replaceAll("/+$", "");
        SdkHttpRequest.Builder request = SdkHttpRequest.builder().method(method).uri(URI.create(base + pathAndQuery));
        ContentStreamProvider body = json == null ? null : ContentStreamProvider.fromUtf8String(json);
        if (body != null) {
            request.putHeader("Content-Type", "application/json");
        }
        SignedRequest signed = SIGNER.sign(r -> r.identity(peer.credentials().resolveCredentials())
                .request(request.build())
                .payload(body)
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "execute-api")
                .putProperty(AwsV4HttpSigner.REGION_NAME, peer.region())
                .putProperty(HttpSigner.SIGNING_CLOCK, clock));
        ExecutableHttpRequest call = http.prepareRequest(HttpExecuteRequest.builder().request(signed.request())
                .contentStreamProvider(signed.payload().orElse(null)).build());
        sent.set(call);
        HttpExecuteResponse response = call.call();
        String text = "";
        if (response.responseBody().isPresent()) {
            try (InputStream in = response.responseBody().get()) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
        JsonNode parsed;
        try {
            parsed = text.isBlank() ? JSON.createObjectNode() : JSON.readTree(text);
        } catch (IOException e) {
            parsed = JSON.createObjectNode();
        }
        return new Reply(response.httpResponse().statusCode(), text, parsed == null ? JSON.createObjectNode() : parsed);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Override
    public void close() {
        calls.shutdownNow();
    }
}

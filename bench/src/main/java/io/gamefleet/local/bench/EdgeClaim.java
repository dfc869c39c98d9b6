package io.gamefleet.local.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.local.demo.ApiClient;
import io.gamefleet.local.edge.Principals;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * A group's claim request through the local edge server, signed with SigV4 by the AWS SDK's
 * signer as the built-in admin (what a matchmaker sends). The claimers share this machine's cores
 * with the server, as a matchmaker would not: they use HttpURLConnection (keep-alive; a new
 * connection whenever none is idle, so a claim never queues for one) and sign a request once a
 * second (a signature covers the second, and every claim of the second is the same request), so
 * that little of the cores goes to the client's side.
 */
final class EdgeClaim {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] BODY = "{}".getBytes(StandardCharsets.UTF_8);

    private final URI endpoint;
    private final String target;
    private final URL url;
    private final AwsCredentialsIdentity caller;
    private final AtomicReference<Signed> signed = new AtomicReference<>(new Signed(Instant.EPOCH, Map.of()));

    EdgeClaim(URI endpoint, String group) throws IOException {
        var admin = Principals.builtInAdmin();
        this.caller = AwsCredentialsIdentity.create(admin.accessKeyId(), admin.secretAccessKey());
        this.endpoint = endpoint;
        this.target = "/game-server-groups/" + group + "/claim";
        this.url = URI.create(endpoint + target).toURL();
    }

    /** The signed headers of the claim request for one second. */
    private record Signed(Instant second, Map<String, List<String>> headers) {}

    /** Claims a server: its id, or empty when the group is out of capacity; any other answer throws. */
    Optional<String> claim() throws IOException {
        Instant second = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Signed current = signed.get();
        if (!current.second().equals(second)) {
            current = new Signed(second, ApiClient.signedHeaders(endpoint, LocalAccount.REGION, caller,
                    Clock.fixed(second, ZoneOffset.UTC), "POST", target, true, BODY));
            signed.set(current);
        }
        HttpURLConnection connection = (HttpURLConnection) url.openConnection();
        connection.setRequestMethod("POST");
        connection.setDoOutput(true);
        current.headers().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("host")) {
                values.forEach(v -> connection.addRequestProperty(name, v));
            }
        });
        try (OutputStream out = connection.getOutputStream()) {
            out.write(BODY);
        }
        int status = connection.getResponseCode();
        String answer;
        try (InputStream in = status < 400 ? connection.getInputStream() : connection.getErrorStream()) {
            answer = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (status == 200) {
            return Optional.of(JSON.readTree(answer).path("GameServer").path("GameServerId").asText());
        }
        if (status == 409 && answer.contains("OutOfCapacityException")) {
            return Optional.empty();
        }
        throw new IllegalStateException("claim answered " + status + " " + answer);
    }
}

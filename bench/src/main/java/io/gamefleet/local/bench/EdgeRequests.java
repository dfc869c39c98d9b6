package io.gamefleet.local.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.local.demo.ApiClient;
import io.gamefleet.local.edge.Principals;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * JSON requests through the local edge server as the built-in admin, each signed with SigV4 by the
 * AWS SDK's signer ({@link ApiClient#signedHeaders}) when it is sent: what a matchmaker sends to
 * Gamefleet's own routes, which no SDK client knows.
 */
final class EdgeRequests {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final URI endpoint;
    private final AwsCredentialsIdentity caller;

    EdgeRequests(URI endpoint) {
        var admin = Principals.builtInAdmin();
        this.caller = AwsCredentialsIdentity.create(admin.accessKeyId(), admin.secretAccessKey());
        this.endpoint = endpoint;
    }

    /** An answer: its status and its JSON body. */
    record Answer(int status, JsonNode body) {}

    /** {@code target}: the path, percent-encoded; {@code body}: JSON. */
    Answer send(String method, String target, String body) throws IOException, InterruptedException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(endpoint + target)).timeout(Duration.ofSeconds(30))
                .method(method, HttpRequest.BodyPublishers.ofByteArray(bytes));
        ApiClient.signedHeaders(endpoint, LocalAccount.REGION, caller, Clock.systemUTC(), method, target, true, bytes)
                .forEach((name, values) -> {
                    if (!name.equalsIgnoreCase("host")) { // the HTTP client sets Host itself
                        values.forEach(v -> request.header(name, v));
                    }
                });
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        return new Answer(response.statusCode(), JSON.readTree(response.body().isEmpty() ? "{}" : response.body()));
    }
}

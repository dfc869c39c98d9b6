package io.gamefleet.local.demo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import io.gamefleet.local.edge.SigV4Verifier;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * Calls a Gamefleet API as its clients do: JSON over HTTP, every request signed with SigV4 for
 * the service {@code execute-api} by the AWS SDK's own signer, at the time of the given clock.
 * Public for {@link #signedHeaders}, which the tests' client signs with too.
 */
public final class ApiClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AwsV4HttpSigner SIGNER = AwsV4HttpSigner.create();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    /** A response: its status and JSON body ({@code null} JSON when the body is not JSON). */
    record Reply(int status, JsonNode body) {
        boolean ok() {
            return status == 200;
        }

        /** The error's {@code __type}, or the status when there is none. */
        String error() {
            return body.path("__type").asText("HTTP " + status);
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    private final URI endpoint;
    private final String region;
    private final AwsCredentialsIdentity caller;
    private final Clock clock;

    ApiClient(URI endpoint, String region, AwsCredentialsIdentity caller, Clock clock) {
        this.endpoint = endpoint;
        this.region = region;
        this.caller = caller;
        this.clock = clock;
    }

    /** {@code target} is the path and query, already percent-encoded; {@code body} may be null. */
    Reply call(String method, String target, JsonNode body) {
        byte[] bytes = body == null ? new byte[0] : body.toString().getBytes(StandardCharsets.UTF_8);
        HttpRequest.Builder http = HttpRequest.newBuilder(URI.create(endpoint + target))
                .timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(bytes));
        signedHeaders(endpoint, region, caller, clock, method, target, body != null, bytes).forEach((name, values) -> {
            if (!name.equalsIgnoreCase("host")) { // the HTTP client sets Host itself
                values.forEach(v -> http.header(name, v));
            }
        });
        HttpResponse<String> response;
        try {
            response = HTTP.send(http.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + target + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(method + " " + target + " interrupted", e);
        }
        try {
            return new Reply(response.statusCode(), JSON.readTree(response.body()));
        } catch (JsonProcessingException e) {
            return new Reply(response.statusCode(), NullNode.getInstance());
        }
    }

    /**
     * The headers that sign this request (Authorization, X-Amz-Date, x-amz-content-sha256, the
     * session token if any, Host, and Content-Type when there is a body). {@code target} is the
     * path and query after the endpoint's own path, percent-encoded as sent.
     */
    public static Map<String, List<String>> signedHeaders(URI endpoint, String region, AwsCredentialsIdentity caller,
            Clock clock, String method, String target, boolean hasBody, byte[] body) {
        int q = target.indexOf('?');
        String rawPath = q < 0 ? target : target.substring(0, q);
        String rawQuery = q < 0 ? "" : target.substring(q + 1);
        SdkHttpRequest.Builder request = SdkHttpRequest.builder().protocol(endpoint.getScheme())
                .host(endpoint.getHost()).port(endpoint.getPort())
                .method(SdkHttpMethod.fromValue(method)).encodedPath(endpoint.getRawPath() + rawPath);
        if (!rawQuery.isEmpty()) {
            for (String pair : rawQuery.split("&")) {
                int eq = pair.indexOf('=');
                request.appendRawQueryParameter(SigV4Verifier.percentDecode(eq < 0 ? pair : pair.substring(0, eq)),
                        eq < 0 ? "" : SigV4Verifier.percentDecode(pair.substring(eq + 1)));
            }
        }
        if (hasBody) {
            request.putHeader("Content-Type", "application/json");
        }
        return SIGNER.sign((SignRequest.Builder<AwsCredentialsIdentity> r) -> r
                .identity(caller).request(request.build()).payload(ContentStreamProvider.fromByteArray(body))
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, "execute-api")
                .putProperty(HttpSigner.SIGNING_CLOCK, clock)).request().headers();
    }
}

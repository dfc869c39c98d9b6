package io.gamefleet.sdktests;

// docs/api.md, "From Java": from here to the end, as the page shows it (SessionsFromJavaTest checks).
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;

/**
 * Gamefleet's own routes from Java: each request signed for execute-api by the AWS SDK's SigV4
 * signer and sent by one of its HTTP clients. The answers are the routes' JSON, as text.
 */
final class GamefleetRoutes {
    private final String endpoint; // the API's URL, without a trailing slash
    private final String region;
    private final AwsCredentialsProvider credentials;
    private final SdkHttpClient http;
    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

    GamefleetRoutes(String endpoint, String region, AwsCredentialsProvider credentials, SdkHttpClient http) {
        this.endpoint = endpoint;
        this.region = region;
        this.credentials = credentials;
        this.http = http;
    }

    /** CreateSession: {@code session} is its JSON body, {"SessionId": "<a UUID>", ...}. */
    String createSession(String group, String session) {
        return send(SdkHttpMethod.POST, "/game-server-groups/" + group + "/sessions", session);
    }

    String describeSession(String group, String sessionId) {
        return send(SdkHttpMethod.GET, "/game-server-groups/" + group + "/sessions/" + sessionId, null);
    }

    /** ListSessions: {@code query} is "" or, say, "?Limit=10&NextToken=..." (the token URL-encoded). */
    String listSessions(String group, String query) {
        return send(SdkHttpMethod.GET, "/game-server-groups/" + group + "/sessions" + query, null);
    }

    private String send(SdkHttpMethod method, String path, String json) {
        SdkHttpRequest.Builder request = SdkHttpRequest.builder().method(method).uri(URI.create(endpoint + path));
        ContentStreamProvider body = json == null ? null : ContentStreamProvider.fromUtf8String(json);
        if (body != null) {
            request.putHeader("Content-Type", "application/json");
        }
        SignedRequest signed = signer.sign(r -> r.identity(credentials.resolveCredentials())
                .request(request.build())
                .payload(body)
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "execute-api")
                .putProperty(AwsV4HttpSigner.REGION_NAME, region));
        try {
            HttpExecuteResponse response = http.prepareRequest(HttpExecuteRequest.builder()
                    .request(signed.request())
                    .contentStreamProvider(signed.payload().orElse(null))
                    .build()).call();
            String answer = response.responseBody().isEmpty() ? ""
                    : new String(response.responseBody().get().readAllBytes(), StandardCharsets.UTF_8);
            if (!response.httpResponse().isSuccessful()) {
                throw new IllegalStateException(method + " " + path + ": " + response.httpResponse().statusCode()
                        + " " + answer);
            }
            return answer;
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path, e);
        }
    }
}

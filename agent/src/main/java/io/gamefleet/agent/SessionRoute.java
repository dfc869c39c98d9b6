package io.gamefleet.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.catalog.Routes;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;

/**
 * DescribeGameServerSession ({@link Routes#DESCRIBE_GAME_SERVER_SESSION}) of one of this instance's
 * servers, signed for {@code execute-api} with SigV4 by the instance's credentials and sent by the
 * AWS SDK's HTTP client: the session whose claim the server's current claim is, as the claimed
 * notice would have brought it.
 */
final class SessionRoute implements ClaimCatchUp.ServerSessions {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI apiEndpoint;
    private final String groupName;
    private final String region;
    private final AwsCredentialsProvider credentials;
    private final SdkHttpClient http;
    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

    SessionRoute(URI apiEndpoint, String groupName, String region, AwsCredentialsProvider credentials, SdkHttpClient http) {
        this.apiEndpoint = apiEndpoint;
        this.groupName = groupName;
        this.region = region;
        this.credentials = credentials;
        this.http = http;
    }

    /** Empty when the route says the server's claim is no session's (404); {@link FleetApi.Unreachable} on any other failure. */
    @Override
    public Optional<Notices.Session> of(String gameServerId) {
        String base = apiEndpoint.toString().replaceAll("/+$", "");
        String path = Routes.DESCRIBE_GAME_SERVER_SESSION.path().replace("{GameServerGroupName}", encode(groupName))
                .replace("{GameServerId}", encode(gameServerId));
        SignedRequest signed = signer.sign(r -> r.identity(credentials.resolveCredentials())
                .request(SdkHttpRequest.builder().method(SdkHttpMethod.GET).uri(URI.create(base + path)).build())
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, PushChannel.SIGNING_SERVICE)
                .putProperty(AwsV4HttpSigner.REGION_NAME, region));
        int status;
        String body;
        try {
            HttpExecuteResponse response = http.prepareRequest(HttpExecuteRequest.builder().request(signed.request()).build())
                    .call();
            status = response.httpResponse().statusCode();
            body = response.responseBody().isEmpty() ? ""
                    : new String(response.responseBody().get().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new FleetApi.Unreachable(Routes.DESCRIBE_GAME_SERVER_SESSION.name() + ": " + e.getMessage(), e);
        }
        if (status == 404) {
            return Optional.empty();
        }
        JsonNode session;
        try {
            session = JSON.readTree(body).path("Session");
        } catch (IOException e) {
            session = JSON.missingNode();
        }
        if (status != 200 || !session.path("SessionId").isTextual()) {
            // A refusal's message names no session: it is safe for the log.
            throw new FleetApi.Unreachable(Routes.DESCRIBE_GAME_SERVER_SESSION.name() + " answered " + status + " "
                    + body.substring(0, Math.min(body.length(), 200)), null);
        }
        List<String> players = new ArrayList<>();
        session.path("InitialPlayers").forEach(p -> players.add(p.asText()));
        JsonNode cookie = session.path("SessionCookie");
        return Optional.of(new Notices.Session(session.path("SessionId").asText(), cookie.isTextual() ? cookie.asText() : null,
                players));
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}

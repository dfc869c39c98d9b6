package io.gamefleet.local;

import static io.gamefleet.local.LocalProfileExtension.ADMIN;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.Routes;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a web page in the developer's browser, or a plain curl, can no longer do to the profile:
 * call an API function through Lambda's unsigned Invoke path with a caller of its own making,
 * reach the unsigned paths that change state without this run's token, or reach the edge at all
 * under another Host (DNS rebinding) or from another Origin, or put EventBridge events unsigned.
 */
class LocalGuardTest {
    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension()
            .localOnly("the local edge's own checks");

    private static RawHttp raw;
    private static String host;
    private static String token;

    @BeforeAll
    static void connect() {
        raw = new RawHttp(LOCAL.profile().endpoint());
        host = LOCAL.profile().endpoint().getAuthority();
        token = LOCAL.profile().localToken();
    }

    private static RawHttp.Answer post(String path, String extraHeaders, String body) {
        return raw.exchange("POST " + path + " HTTP/1.1\r\nHost: " + host + "\r\n" + extraHeaders
                + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\nConnection: close\r\n\r\n"
                + body);
    }

    /** An API Gateway event of someone's own making: an ADMIN caller, written in the body. */
    private static String forgedCreate(String group) {
        return "{\"version\":\"2.0\",\"routeKey\":\"POST /game-server-groups\",\"rawPath\":\"/game-server-groups\","
                + "\"body\":\"" + GamefleetClient.groupBody(group, 1, 1).toString().replace("\"", "\\\"") + "\","
                + "\"requestContext\":{\"http\":{\"method\":\"POST\",\"path\":\"/game-server-groups\"},"
                + "\"authorizer\":{\"iam\":{\"accountId\":\"000000000000\",\"userArn\":"
                + "\"arn:aws:sts::000000000000:assumed-role/gamefleet-admin/forged\"}}}}";
    }

    @Test
    void theInvokePathServesNoApiFunctionEvenWithTheToken() {
        String function = Routes.ALL.stream().filter(r -> r.operation() == Operation.CREATE_GAME_SERVER_GROUP)
                .findFirst().orElseThrow().functionName();
        RawHttp.Answer answer = post("/2015-03-31/functions/" + function + "/invocations",
                "X-Gamefleet-Local-Token: " + token + "\r\n", forgedCreate("forged"));
        assertThat(answer.status()).as("%s", answer).isEqualTo(404);
        assertThat(answer.headers().get("x-amzn-errortype")).isEqualTo("ResourceNotFoundException");
        LOCAL.admin().describeGroup("forged").error(404, "NotFoundException");
        // The JSON door's function neither.
        assertThat(post("/2015-03-31/functions/" + Routes.JSON_DOOR.functionName() + "/invocations",
                "X-Gamefleet-Local-Token: " + token + "\r\n", "{}").status()).isEqualTo(404);
    }

    @Test
    void theUnsignedPathsThatChangeStateNeedTheToken() {
        String step = "/2015-03-31/functions/gamefleet-RecordFailure/invocations";
        String event = "{\"source\":\"aws.ec2\",\"detail-type\":\"EC2 Instance State-change Notification\","
                + "\"detail\":{\"instance-id\":\"i-0123456789abcdef0\",\"state\":\"terminated\"}}";
        for (String path : new String[] {step, "/_local/events", "/_local/schedules/RunBalancer"}) {
            assertThat(post(path, "", "{}").refusal(403, "UnauthorizedException")).as(path)
                    .contains("X-Gamefleet-Local-Token");
            post(path, "X-Gamefleet-Local-Token: " + token + "x\r\n", "{}").refusal(403, "UnauthorizedException");
        }
        assertThat(post("/_local/events", "X-Gamefleet-Local-Token: " + token + "\r\n", event).status()).isEqualTo(200);
        // Reading needs none.
        assertThat(raw.exchange("GET /_local/health HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                .status()).isIn(200, 503);
    }

    @Test
    void anotherHostOrOriginIsRefused() {
        // DNS rebinding: the browser sends the page's own name as Host.
        assertThat(raw.exchange("GET /_local/health HTTP/1.1\r\nHost: rebind.example:" + LOCAL.profile().endpoint()
                .getPort() + "\r\nConnection: close\r\n\r\n").refusal(403, "UnauthorizedException")).contains("Host");
        raw.exchange("GET /_local/health HTTP/1.1\r\nHost: 127.0.0.1:1\r\nConnection: close\r\n\r\n")
                .refusal(403, "UnauthorizedException");
        // A page elsewhere: its Origin, even with the token and a signature.
        assertThat(post("/_local/events", "Origin: http://evil.example\r\nX-Gamefleet-Local-Token: " + token + "\r\n",
                "[]").refusal(403, "UnauthorizedException")).contains("origin");
        assertThat(raw.signed(ADMIN, LOCAL.clock(), "GET", "/game-server-groups", null, Map.of("Origin", "null"))
                .refusal(403, "UnauthorizedException")).contains("origin");
        // The profile's own origin (a console it serves) is taken.
        assertThat(raw.signed(ADMIN, LOCAL.clock(), "GET", "/game-server-groups", null,
                Map.of("Origin", "http://" + host)).status()).isEqualTo(200);
        assertThat(post("/_local/events", "Origin: http://" + host + "\r\nX-Gamefleet-Local-Token: " + token + "\r\n",
                "[]").status()).isEqualTo(200);
    }

    @Test
    void anotherLocalEdgesConsoleMayCallTheApiAndNothingElse() {
        // The console of another region's profile, on another loopback port.
        String console = "http://127.0.0.1:" + (LOCAL.profile().endpoint().getPort() == 1 ? 2 : 1);
        RawHttp.Answer preflight = raw.exchange("OPTIONS /game-server-groups/demo/sessions?Limit=50 HTTP/1.1\r\nHost: "
                + host + "\r\nOrigin: " + console + "\r\nAccess-Control-Request-Method: GET\r\n"
                + "Access-Control-Request-Headers: authorization,x-amz-content-sha256,x-amz-date\r\nConnection: close\r\n\r\n");
        assertThat(preflight.status()).as("%s", preflight).isEqualTo(204);
        assertThat(preflight.headers()).containsEntry("access-control-allow-origin", console)
                .containsEntry("access-control-allow-methods", "GET")
                .containsEntry("access-control-allow-headers", "authorization,x-amz-content-sha256,x-amz-date");
        RawHttp.Answer signed = raw.signed(ADMIN, LOCAL.clock(), "GET", "/game-server-groups", null, Map.of("Origin", console));
        assertThat(signed.status()).isEqualTo(200);
        assertThat(signed.headers()).containsEntry("access-control-allow-origin", console).containsEntry("vary", "Origin");
        // Still signed or refused, and the page may read the refusal.
        RawHttp.Answer unsigned = raw.exchange("GET /regions HTTP/1.1\r\nHost: " + host + "\r\nOrigin: " + console
                + "\r\nConnection: close\r\n\r\n");
        unsigned.refusal(403, "UnauthorizedException");
        assertThat(unsigned.headers()).containsEntry("access-control-allow-origin", console);
        // Nothing but the API: not the console's config (the admin's keys), not the token's paths.
        for (String path : List.of("/console/config.json", "/_local/timeline?after=0", "/_local/health")) {
            RawHttp.Answer answer = raw.exchange("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nOrigin: " + console
                    + "\r\nConnection: close\r\n\r\n");
            assertThat(answer.refusal(403, "UnauthorizedException")).as(path).contains("origin");
            assertThat(answer.headers()).as(path).doesNotContainKey("access-control-allow-origin");
        }
        assertThat(post("/_local/events", "Origin: " + console + "\r\nX-Gamefleet-Local-Token: " + token + "\r\n", "[]")
                .refusal(403, "UnauthorizedException")).contains("origin");
        assertThat(raw.exchange("OPTIONS /console/config.json HTTP/1.1\r\nHost: " + host + "\r\nOrigin: " + console
                + "\r\nAccess-Control-Request-Method: GET\r\nConnection: close\r\n\r\n").status()).isEqualTo(403);
        // Nor any other page's: only loopback edges.
        assertThat(raw.signed(ADMIN, LOCAL.clock(), "GET", "/game-server-groups", null, Map.of("Origin", "http://evil.example:1"))
                .refusal(403, "UnauthorizedException")).contains("origin");
    }

    @Test
    void aHandlerAddedToTheEdgeAnswersItsOwnPathsBehindTheSameChecks() {
        LOCAL.profile().edge().addHandler(new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                if (!request.getHttpURI().getPath().equals("/_test/hello")) {
                    return false;
                }
                response.write(true, java.nio.ByteBuffer.wrap("hello".getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                        callback);
                return true;
            }
        });
        RawHttp.Answer hello = raw.exchange("GET /_test/hello HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
        assertThat(hello.status()).isEqualTo(200);
        assertThat(hello.body()).isEqualTo("hello");
        raw.exchange("GET /_test/hello HTTP/1.1\r\nHost: rebind.example\r\nConnection: close\r\n\r\n")
                .refusal(403, "UnauthorizedException");
        // The emulated services still answer the rest.
        assertThat(raw.signed(ADMIN, LOCAL.clock(), "GET", "/game-server-groups", null).status()).isEqualTo(200);
    }

    /** PutEvents as an AWS SDK's EventBridge client sends it: signed for {@code events}. */
    private static RawHttp.Answer putEvents(io.gamefleet.local.edge.Principal caller, String service) {
        String body = "{\"Entries\":[{\"Source\":\"aws.s3\",\"DetailType\":\"Object Created\",\"Detail\":\"{}\"}]}";
        byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        var request = software.amazon.awssdk.http.SdkHttpRequest.builder().protocol("http").host("127.0.0.1")
                .port(LOCAL.profile().endpoint().getPort()).method(software.amazon.awssdk.http.SdkHttpMethod.POST)
                .encodedPath("/").putHeader("X-Amz-Target", "AWSEvents.PutEvents")
                .putHeader("Content-Type", "application/x-amz-json-1.1").build();
        var signed = software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner.create().sign(r -> r
                .identity(software.amazon.awssdk.identity.spi.AwsCredentialsIdentity.create(caller.accessKeyId(),
                        caller.secretAccessKey()))
                .request(request).payload(software.amazon.awssdk.http.ContentStreamProvider.fromByteArray(bytes))
                .putProperty(software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner.REGION_NAME, "us-east-1")
                .putProperty(software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner.SERVICE_SIGNING_NAME, service)
                .putProperty(software.amazon.awssdk.http.auth.spi.signer.HttpSigner.SIGNING_CLOCK, LOCAL.clock()))
                .request();
        StringBuilder head = new StringBuilder("POST / HTTP/1.1\r\n");
        signed.headers().forEach((name, values) -> values.forEach(v -> head.append(name).append(": ").append(v)
                .append("\r\n")));
        return raw.exchange(head + "Content-Length: " + bytes.length + "\r\nConnection: close\r\n\r\n" + body);
    }

    @Test
    void putEventsNeedsAnAdminsSignature() {
        assertThat(putEvents(ADMIN, "events").status()).isEqualTo(200);
        putEvents(ADMIN, "execute-api").refusal(403, "UnauthorizedException");
        assertThat(putEvents(LocalProfileExtension.MATCHMAKER, "events").refusal(403, "UnauthorizedException"))
                .contains("may not put events");
        post("/", "X-Amz-Target: AWSEvents.PutEvents\r\n", "{\"Entries\":[]}").refusal(403, "UnauthorizedException");
    }
}

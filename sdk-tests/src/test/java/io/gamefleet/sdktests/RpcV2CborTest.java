package io.gamefleet.sdktests;

import static io.gamefleet.sdktests.JavaClients.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.sdktests.Cbor.Tagged;
import io.gamefleet.sdktests.LocalGamefleet.Caller;
import io.gamefleet.sdktests.LocalGamefleet.Profile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * Smithy RPC v2 CBOR as its specification (smithy.io, "Smithy RPC v2 CBOR protocol") fixes it, sent
 * by hand, since no client that resolves here speaks it for GameLift: the Java v2 client 2.40.2 and
 * the JavaScript v3 client speak AWS JSON 1.1 by default. Requests are CBOR maps encoded by
 * {@link Cbor} from RFC 8949, signed with the SDK's {@link AwsV4HttpSigner} for {@code gamelift};
 * responses are checked where the specification fixes them, down to the bytes.
 */
@ExtendWith(LocalGamefleet.class)
class RpcV2CborTest {
    private static final String NAMESPACE = "com.amazonaws.gamelift#";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** Headers that java.net.http sets itself (and refuses to be given): the signer signed the same values. */
    private static final Set<String> SET_BY_CLIENT = Set.of("host", "content-length", "connection", "expect", "upgrade");

    record Reply(int status, HttpHeaders headers, byte[] body) {
        @SuppressWarnings("unchecked")
        Map<String, Object> map() {
            return (Map<String, Object>) Cbor.decode(body);
        }

        Optional<String> header(String name) {
            return headers.firstValue(name);
        }
    }

    @Test
    void theRequestEncodingIsTheRfcs() {
        // {"Limit": 5}: a map of one pair (0xa1), a text of 5 bytes (0x65), the integer 5 in one byte.
        assertThat(HexFormat.of().formatHex(Cbor.encode(Map.of("Limit", 5)))).isEqualTo("a1" + "65" + hex("Limit") + "05");
        // Lengths of 24 and more take a following byte: "GameServerGroupName" has 19 bytes (0x73).
        assertThat(HexFormat.of().formatHex(Cbor.encode(Map.of("GameServerGroupName", "x".repeat(24)))))
                .isEqualTo("a1" + "73" + hex("GameServerGroupName") + "7818" + hex("x".repeat(24)));
        // And back: tag 1 (0xc1) over a float64 (0xfb) is an epoch-seconds timestamp, 2025-01-01T00:00:00.5Z.
        assertThat(Cbor.decode(HexFormat.of().parseHex("c1fb41d9dd2160200000"))).isEqualTo(new Tagged(1, 1735689600.5));
    }

    @Test
    void anErrorIsA400WithTheErrorsShapeIdAndMessage(Profile profile) {
        Reply reply = call(profile, LocalGamefleet.ADMIN, "DescribeGameServerGroup",
                Cbor.encode(Map.of("GameServerGroupName", "cbor-no-such-group")), Map.of());
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.header("smithy-protocol")).contains("rpc-v2-cbor");
        assertThat(reply.header("Content-Type")).contains("application/cbor");
        Map<String, Object> error = reply.map();
        // "This value of this component MUST contain the error's absolute shape ID."
        assertThat(error.get("__type")).isEqualTo(NAMESPACE + "NotFoundException");
        assertThat((String) error.get("message")).contains("cbor-no-such-group");
        // "Responses SHOULD NOT contain the X-Amzn-ErrorType header. Type information is always serialized in the payload."
        assertThat(reply.header("X-Amzn-ErrorType")).isEmpty();
    }

    @Test
    void timestampsAreTag1EpochSecondsAndTheLifecycleWorks(Profile profile) {
        Caller admin = LocalGamefleet.ADMIN;
        String group = uniqueName("cbor");
        Map<String, Object> input = new LinkedHashMap<>();
        input.put("GameServerGroupName", group);
        input.put("RoleArn", JavaClients.ROLE_ARN);
        input.put("MinSize", 1);
        input.put("MaxSize", 2);
        input.put("LaunchTemplate", Map.of("LaunchTemplateName", "cbor-lt"));
        input.put("InstanceDefinitions", List.of(Map.of("InstanceType", "c5.large"), Map.of("InstanceType", "m5.large")));
        Instant before = Instant.now();
        Reply created = ok(call(profile, admin, "CreateGameServerGroup", Cbor.encode(input), Map.of()));

        // The bytes after the key "CreationTime": tag 1 (0xc1), then a float (0xfb double, 0xfa single)
        // or an integer (major type 0): epoch seconds.
        String body = HexFormat.of().formatHex(created.body());
        String key = "6c" + hex("CreationTime");
        assertThat(body).contains(key);
        String afterKey = body.substring(body.indexOf(key) + key.length());
        assertThat(afterKey).startsWith("c1");
        assertThat(afterKey.substring(2, 4)).isIn("fb", "fa", "1a", "1b");
        Map<?, ?> groupOut = (Map<?, ?>) created.map().get("GameServerGroup");
        assertThat(groupOut.get("Status")).isEqualTo("NEW");
        Tagged creationTime = (Tagged) groupOut.get("CreationTime");
        assertThat(creationTime.tag()).isEqualTo(1);
        double seconds = ((Number) creationTime.value()).doubleValue();
        assertThat(seconds).isBetween(before.toEpochMilli() / 1000.0 - 1, Instant.now().toEpochMilli() / 1000.0 + 1);

        byte[] describe = Cbor.encode(Map.of("GameServerGroupName", group));
        Map<?, ?> active = Polling.until(group + " ACTIVE over CBOR", JavaClients.ACTIVATION_TIMEOUT, () -> {
            Map<?, ?> g = (Map<?, ?>) ok(call(profile, admin, "DescribeGameServerGroup", describe, Map.of())).map()
                    .get("GameServerGroup");
            return "ACTIVE".equals(g.get("Status")) ? Optional.of(g) : Optional.empty();
        });
        assertThat(active.get("LastUpdatedTime")).isInstanceOf(Tagged.class);
        assertThat(active.get("SuspendedActions")).isEqualTo(List.of());

        String instance = Polling.until("an instance of " + group, JavaClients.ACTIVATION_TIMEOUT, () -> {
            List<?> instances = (List<?>) ok(call(profile, admin, "DescribeGameServerInstances", describe, Map.of()))
                    .map().get("GameServerInstances");
            return instances.stream().map(i -> (String) ((Map<?, ?>) i).get("InstanceId")).findFirst();
        });

        Map<String, Object> server = new LinkedHashMap<>();
        server.put("GameServerGroupName", group);
        server.put("GameServerId", "cbor-match-1");
        server.put("InstanceId", instance);
        server.put("ConnectionInfo", "127.0.0.1:7779");
        Map<?, ?> registered = (Map<?, ?>) ok(call(profile, admin, "RegisterGameServer", Cbor.encode(server), Map.of()))
                .map().get("GameServer");
        assertThat(registered.get("RegistrationTime")).isInstanceOf(Tagged.class);

        Map<?, ?> claimed = (Map<?, ?>) ok(call(profile, LocalGamefleet.MATCHMAKER, "ClaimGameServer", describe, Map.of()))
                .map().get("GameServer");
        assertThat(claimed.get("ClaimStatus")).isEqualTo("CLAIMED");
        assertThat(claimed.get("ConnectionInfo")).isEqualTo("127.0.0.1:7779");
        assertThat(((Tagged) claimed.get("LastClaimTime")).tag()).isEqualTo(1);

        byte[] serverKey = Cbor.encode(Map.of("GameServerGroupName", group, "GameServerId", "cbor-match-1"));
        Map<String, Object> utilize = new LinkedHashMap<>(Map.of("GameServerGroupName", group, "GameServerId", "cbor-match-1"));
        utilize.put("UtilizationStatus", "UTILIZED");
        assertThat(((Map<?, ?>) ok(call(profile, admin, "UpdateGameServer", Cbor.encode(utilize), Map.of())).map()
                .get("GameServer")).get("UtilizationStatus")).isEqualTo("UTILIZED");

        // DeregisterGameServer has no output shape: "Responses for operations with no defined output type
        // MUST NOT contain bodies in their HTTP responses. The Content-Type for the serialization format
        // MUST NOT be set."
        Reply deregistered = ok(call(profile, admin, "DeregisterGameServer", serverKey, Map.of()));
        assertThat(deregistered.body()).isEmpty();
        assertThat(deregistered.header("Content-Type")).isEmpty();

        assertThat(ok(call(profile, admin, "ListGameServers", describe, Map.of())).map().get("GameServers"))
                .isEqualTo(List.of());
        Map<String, Object> delete = new LinkedHashMap<>(Map.of("GameServerGroupName", group));
        delete.put("DeleteOption", "FORCE_DELETE");
        assertThat(((Map<?, ?>) ok(call(profile, admin, "DeleteGameServerGroup", Cbor.encode(delete), Map.of())).map()
                .get("GameServerGroup")).get("Status")).isEqualTo("DELETE_SCHEDULED");
    }

    @Test
    void aRequestWithAnXAmzTargetHeaderIsRefused(Profile profile) {
        // "An rpcv2Cbor request is malformed if it contains either of these headers. Server-side
        // implementations MUST reject such requests for security reasons."
        for (String header : List.of("X-Amz-Target", "X-Amzn-Target")) {
            Reply reply = call(profile, LocalGamefleet.ADMIN, "ListGameServerGroups", Cbor.encode(Map.of("Limit", 1)),
                    Map.of(header, "GameLift.ListGameServerGroups"));
            assertThat(reply.status()).as(header).isEqualTo(400);
            assertThat(reply.map().get("__type")).as(header).isEqualTo(NAMESPACE + "InvalidRequestException");
        }
    }

    @Test
    void aRoleOutsideTheOperationIsRefusedBeforeAnyFunctionRuns(Profile profile) {
        // The CBOR paths are authorized per operation by IAM, as the REST routes are: a 403 from API
        // Gateway (here the edge server), which carries no smithy-protocol header, so a client goes by
        // the status alone.
        Reply reply = call(profile, LocalGamefleet.MATCHMAKER, "CreateGameServerGroup",
                Cbor.encode(Map.of("GameServerGroupName", uniqueName("cbor-mm"))), Map.of());
        assertThat(reply.status()).isEqualTo(403);
        assertThat(reply.header("smithy-protocol")).isEmpty();
    }

    private static Reply ok(Reply reply) {
        if (reply.status() != 200) {
            throw new AssertionError("status " + reply.status() + ": " + describe(reply));
        }
        assertThat(reply.header("smithy-protocol")).contains("rpc-v2-cbor");
        return reply;
    }

    private static String describe(Reply reply) {
        try {
            return String.valueOf(Cbor.decode(reply.body()));
        } catch (RuntimeException notCbor) {
            return new String(reply.body(), StandardCharsets.UTF_8);
        }
    }

    /** POST /service/GameLift/operation/{operation}, as the specification's Requests section fixes it, signed for gamelift. */
    static Reply call(Profile profile, Caller caller, String operation, byte[] body, Map<String, String> extraHeaders) {
        SdkHttpRequest.Builder unsigned = SdkHttpRequest.builder().method(SdkHttpMethod.POST)
                .uri(profile.endpoint().resolve("/service/GameLift/operation/" + operation))
                .putHeader("smithy-protocol", "rpc-v2-cbor")
                .putHeader("Content-Type", "application/cbor")
                .putHeader("Accept", "application/cbor");
        extraHeaders.forEach(unsigned::putHeader);
        SignedRequest signed = AwsV4HttpSigner.create().sign(r -> r
                .identity(AwsCredentialsIdentity.create(caller.accessKeyId(), caller.secretAccessKey()))
                .request(unsigned.build())
                .payload(ContentStreamProvider.fromByteArray(body))
                .putProperty(AwsV4HttpSigner.REGION_NAME, LocalGamefleet.REGION)
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "gamelift"));
        HttpRequest.Builder request = HttpRequest.newBuilder(signed.request().getUri())
                .timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        signed.request().forEachHeader((name, values) -> {
            if (!SET_BY_CLIENT.contains(name.toLowerCase())) {
                values.forEach(v -> request.header(name, v));
            }
        });
        try {
            HttpResponse<byte[]> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Reply(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(operation + " over CBOR", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String hex(String text) {
        return HexFormat.of().formatHex(text.getBytes(StandardCharsets.UTF_8));
    }
}

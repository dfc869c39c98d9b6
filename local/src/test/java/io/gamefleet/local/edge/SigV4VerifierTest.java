package io.gamefleet.local.edge;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.local.edge.SigV4Verifier.Result;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.Optional;
import java.util.function.UnaryOperator;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity;

/**
 * Requests are signed by the real AWS SDK signer (and, for curl, captured off the wire), so the
 * verifier is checked against what clients actually send rather than against itself.
 */
class SigV4VerifierTest {

    private static final String AK = "AKIAGAMEFLEETLOCAL01";
    private static final String SECRET = "gamefleet/local+Secret0123456789abcdefXYZ";
    private static final Instant NOW = Instant.parse("2026-03-14T12:00:00Z");
    private static final String ARN_PATH =
            "/prod/fleets/arn%3Aaws%3Agamelift%3Aus-east-1%3A123456789012%3Agameservergroup%2Farena/instances";

    private static SigV4Verifier verifierAt(Instant now) {
        return new SigV4Verifier("us-east-1", Set.of("execute-api", "gamelift"),
                ak -> ak.equals(AK) ? Optional.of(SECRET) : Optional.empty(), Clock.fixed(now, ZoneOffset.UTC));
    }

    private final SigV4Verifier verifier = verifierAt(NOW);
    /** As local/run --allow-unsigned-payload makes it. */
    private final SigV4Verifier allowingUnsignedPayload = new SigV4Verifier("us-east-1", Set.of("execute-api", "gamelift"),
            ak -> ak.equals(AK) ? Optional.of(SECRET) : Optional.empty(), Clock.fixed(NOW, ZoneOffset.UTC), true);

    /** A request as the server sees it: method, raw path, raw query, headers, body. */
    record Wire(String method, String path, String query, Map<String, List<String>> headers, byte[] body) {
        Wire withPath(String p) { return new Wire(method, p, query, headers, body); }
        Wire withQuery(String q) { return new Wire(method, path, q, headers, body); }
        Wire withBody(String b) { return new Wire(method, path, query, headers, b.getBytes(StandardCharsets.UTF_8)); }
        Wire withHeaders(UnaryOperator<Map<String, List<String>>> f) {
            return new Wire(method, path, query, f.apply(new LinkedHashMap<>(headers)), body);
        }
        Wire withoutHeader(String name) { return withHeaders(h -> { h.keySet().removeIf(name::equalsIgnoreCase); return h; }); }
        Wire withHeader(String name, String value) {
            return withoutHeader(name).withHeaders(h -> { h.put(name, List.of(value)); return h; });
        }
        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0)).findFirst().orElseThrow();
        }
    }

    /** Signs with the SDK's AwsV4HttpSigner; {@code props} may override defaults (region, service...). */
    private static Wire sdkSign(SdkHttpMethod method, String encodedPath, Map<String, String> query, String body,
                                AwsCredentialsIdentity identity, UnaryOperator<SignRequest.Builder<AwsCredentialsIdentity>> props) {
        return sdkSign(method, encodedPath, query, body, Map.of(), identity, props);
    }

    private static Wire sdkSign(SdkHttpMethod method, String encodedPath, Map<String, String> query, String body,
                                Map<String, List<String>> extraHeaders, AwsCredentialsIdentity identity,
                                UnaryOperator<SignRequest.Builder<AwsCredentialsIdentity>> props) {
        SdkHttpRequest.Builder req = SdkHttpRequest.builder().protocol("https").host("localhost").port(8443)
                .method(method).encodedPath(encodedPath);
        query.forEach(req::putRawQueryParameter);
        extraHeaders.forEach(req::putHeader);
        if (body != null) req.putHeader("Content-Type", "application/json");
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        SdkHttpRequest signed = AwsV4HttpSigner.create().sign((SignRequest.Builder<AwsCredentialsIdentity> r) -> props.apply(r
                .identity(identity).request(req.build()).payload(ContentStreamProvider.fromByteArray(bytes))
                .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
                .putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, "execute-api")
                .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(NOW, ZoneOffset.UTC)))).request();
        return new Wire(signed.method().name(), signed.encodedPath(), signed.encodedQueryParameters().orElse(null),
                signed.headers(), bytes);
    }

    private static Wire sdkSign(SdkHttpMethod method, String path, Map<String, String> query, String body) {
        return sdkSign(method, path, query, body, AwsCredentialsIdentity.create(AK, SECRET), r -> r);
    }

    private static Wire getInstances() {
        Map<String, String> q = new LinkedHashMap<>();
        q.put("InstanceIds", "i-0123456789abcdef0,i-0fedcba9876543210");
        q.put("Limit", "5");
        q.put("Filter", "name=red team/é*");
        return sdkSign(SdkHttpMethod.GET, "/prod/fleets/arena/instances", q, null);
    }

    private static Wire postScale() {
        return sdkSign(SdkHttpMethod.POST, "/prod/fleets/arena/scale", Map.of(), "{\"desired\": 3, \"name\": \"arena\"}");
    }

    private Result verify(SigV4Verifier v, Wire w) {
        return v.verify(w.method(), w.path(), w.query(), w.headers(), w.body());
    }

    private Result verify(Wire w) {
        return verify(verifier, w);
    }

    private static Result accepted() {
        return new Result.Accepted(AK);
    }

    private static final String WRONG_SECRET = "the secret does not match the access key's (or the request was changed"
            + " in flight)";

    private static String likelyCause(Result r) {
        assertThat(r).isInstanceOf(Result.Rejected.class);
        return ((Result.Rejected) r).likelyCause();
    }

    private static String reason(Result r) {
        assertThat(r).isInstanceOf(Result.Rejected.class);
        return ((Result.Rejected) r).reason();
    }

    // ---- accepted ----

    @Test
    void acceptsGetWithQueryNeedingEncoding() {
        Wire w = getInstances();
        assertThat(w.query()).contains("%2C").contains("%20").contains("%C3%A9"); // the signer really encoded them
        assertThat(verify(w)).isEqualTo(accepted());
    }

    @Test
    void acceptsQuerySentInAnotherOrderAndEncoding() {
        // Same parameters as signed, but the client put them on the wire in its own order and left ','
        // and '*' unescaped: the canonical query decodes and re-encodes, so this still verifies.
        Wire w = getInstances().withQuery(
                "Limit=5&InstanceIds=i-0123456789abcdef0,i-0fedcba9876543210&Filter=name%3Dred%20team%2F%C3%A9*");
        assertThat(verify(w)).isEqualTo(accepted());
    }

    @Test
    void acceptsPostWithJsonBody() {
        assertThat(verify(postScale())).isEqualTo(accepted());
    }

    @Test
    void acceptsEncodedArnPathSignedWithSdkDoubleEncoding() {
        Wire w = sdkSign(SdkHttpMethod.GET, ARN_PATH, Map.of("Limit", "5"), null);
        assertThat(w.path()).isEqualTo(ARN_PATH);
        assertThat(verify(w)).isEqualTo(accepted());
    }

    @Test
    void acceptsEncodedArnPathSignedWithSingleEncoding() {
        Wire w = sdkSign(SdkHttpMethod.GET, ARN_PATH, Map.of(), null, AwsCredentialsIdentity.create(AK, SECRET),
                r -> r.putProperty(AwsV4FamilyHttpSigner.DOUBLE_URL_ENCODE, false));
        assertThat(verify(w)).isEqualTo(accepted());
        // The two encodings really produce different signatures, so both code paths were exercised.
        assertThat(w.header("Authorization"))
                .isNotEqualTo(sdkSign(SdkHttpMethod.GET, ARN_PATH, Map.of(), null).header("Authorization"));
    }

    @Test
    void acceptsSessionTokenAndHeaderNamesInAnyCase() {
        Wire w = sdkSign(SdkHttpMethod.POST, "/prod/fleets/arena/scale", Map.of(), "{}",
                AwsSessionCredentialsIdentity.create(AK, SECRET, "FwoGZXIvYXdzEBYaDH+token/=="), r -> r);
        assertThat(w.header("Authorization")).contains("x-amz-security-token");
        Map<String, List<String>> upper = new LinkedHashMap<>();
        w.headers().forEach((k, v) -> upper.put(k.toUpperCase(Locale.ROOT), v));
        assertThat(verify(w.withHeaders(h -> upper))).isEqualTo(accepted());
    }

    @Test
    void acceptsSignedHeaderWithSpacesAndSeveralValues() {
        // The SDK signs these trimmed, collapsed and comma-joined while sending them as they are.
        Wire w = sdkSign(SdkHttpMethod.GET, "/prod/fleets", Map.of(), null,
                Map.of("X-Fleet-Tags", List.of("  red    team ", "blue")), AwsCredentialsIdentity.create(AK, SECRET), r -> r);
        assertThat(w.header("Authorization")).contains("x-fleet-tags");
        assertThat(w.header("X-Fleet-Tags")).isEqualTo("  red    team ");
        assertThat(verify(w)).isEqualTo(accepted());
        // One header line "red team,blue" is the same canonical header as the two lines; dropping a value is not.
        assertThat(verify(w.withHeader("X-Fleet-Tags", " red team,blue"))).isEqualTo(accepted());
        assertThat(reason(verify(w.withHeader("X-Fleet-Tags", "red team")))).isEqualTo("signature does not match");
    }

    @Test
    void acceptsUnsignedPayloadWhenThatIsWhatWasSignedAndTheFlagAllowsIt() {
        Wire w = sdkSign(SdkHttpMethod.POST, "/prod/fleets/arena/scale", Map.of(), "{\"desired\": 3}",
                AwsCredentialsIdentity.create(AK, SECRET),
                r -> r.putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, false));
        assertThat(w.header("x-amz-content-sha256")).isEqualTo("UNSIGNED-PAYLOAD");
        assertThat(verify(allowingUnsignedPayload, w.withBody("{\"desired\": 300}"))).isEqualTo(accepted());
    }

    @Test
    void refusesUnsignedPayloadUnlessAllowed() {
        Wire w = sdkSign(SdkHttpMethod.POST, "/prod/fleets/arena/scale", Map.of(), "{\"desired\": 3}",
                AwsCredentialsIdentity.create(AK, SECRET),
                r -> r.putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, false));
        assertThat(reason(verify(w))).contains("UNSIGNED-PAYLOAD").contains("--allow-unsigned-payload");
    }

    @Test
    void aSignatureThatDoesNotMatchSaysWhatTheServerSigned() {
        Wire w = getInstances();
        Result r = verify(w.withQuery(w.query().replace("Limit=5", "Limit=50")));
        assertThat(reason(r)).isEqualTo("signature does not match");
        assertThat(((Result.Rejected) r).serverSigned()).contains("The Canonical String for this request should have been")
                .contains("'GET\n/prod/fleets/arena/instances\n").contains("Limit=50").contains("The String-to-Sign should have been")
                .contains("AWS4-HMAC-SHA256\n");
    }

    @Test
    void acceptsRequestTimeExactlyFiveMinutesOff() {
        assertThat(verify(verifierAt(NOW.plus(Duration.ofMinutes(5))), postScale())).isEqualTo(accepted());
        assertThat(verify(verifierAt(NOW.minus(Duration.ofMinutes(5))), postScale())).isEqualTo(accepted());
    }

    // ---- rejected ----

    @Test
    void rejectsTamperedBody() {
        assertThat(reason(verify(postScale().withBody("{\"desired\": 300, \"name\": \"arena\"}"))))
                .isEqualTo("x-amz-content-sha256 does not match the body");
        // Dropping the signed body hash to dodge that check fails too.
        Wire noHashHeader = postScale().withBody("{\"desired\": 300}").withoutHeader("x-amz-content-sha256");
        assertThat(reason(verify(noHashHeader))).isEqualTo("signed header 'x-amz-content-sha256' is not in the request");
    }

    @Test
    void rejectsClaimingUnsignedPayloadAfterTheFact() {
        Wire w = postScale().withBody("{\"desired\": 300}").withHeader("x-amz-content-sha256", "UNSIGNED-PAYLOAD");
        assertThat(reason(verify(allowingUnsignedPayload, w))).isEqualTo("signature does not match");
    }

    @Test
    void rejectsTamperedPath() {
        Wire w = sdkSign(SdkHttpMethod.GET, ARN_PATH, Map.of(), null);
        assertThat(reason(verify(w.withPath(ARN_PATH.replace("arena", "arenb"))))).isEqualTo("signature does not match");
        assertThat(reason(verify(w.withPath(ARN_PATH.replace("%2F", "/"))))).isEqualTo("signature does not match");
    }

    @Test
    void rejectsTamperedQuery() {
        Wire w = getInstances();
        assertThat(reason(verify(w.withQuery(w.query().replace("Limit=5", "Limit=50")))))
                .isEqualTo("signature does not match");
        assertThat(reason(verify(w.withQuery(w.query() + "&Extra=1")))).isEqualTo("signature does not match");
        assertThat(reason(verify(w.withQuery(null)))).isEqualTo("signature does not match");
    }

    @Test
    void rejectsMalformedQueryEscape() {
        assertThat(reason(verify(getInstances().withQuery("Limit=%zz")))).contains("malformed percent-encoding");
        assertThat(reason(verify(getInstances().withQuery("Limit=5%")))).contains("malformed percent-encoding");
    }

    @Test
    void rejectsWrongSecret() {
        Wire w = sdkSign(SdkHttpMethod.POST, "/prod/fleets/arena/scale", Map.of(), "{}",
                AwsCredentialsIdentity.create(AK, SECRET + "x"), r -> r);
        assertThat(reason(verify(w))).isEqualTo("signature does not match");
        assertThat(likelyCause(verify(w))).isEqualTo(WRONG_SECRET);
        assertThat(((Result.Rejected) verify(w)).message()).startsWith("request signature rejected: signature does not"
                + " match; likely cause: " + WRONG_SECRET + ". The Canonical String for this request should have been");
        // A query the signer sent canonical and someone changed: the same cause.
        Wire get = getInstances();
        assertThat(likelyCause(verify(get.withQuery(get.query().replace("Limit=5", "Limit=50"))))).isEqualTo(WRONG_SECRET);
    }

    @Test
    void theCauseOfEachRefusalIsNamed() {
        // Region and service: the scope is refused before any signature is computed, naming both.
        Wire otherRegion = sdkSign(SdkHttpMethod.GET, "/prod/fleets", Map.of(), null, AwsCredentialsIdentity.create(AK, SECRET),
                r -> r.putProperty(AwsV4HttpSigner.REGION_NAME, "eu-west-1"));
        assertThat(((Result.Rejected) verify(otherRegion)).message())
                .isEqualTo("request signature rejected: credential scope region 'eu-west-1' should be 'us-east-1'");
        Wire otherService = sdkSign(SdkHttpMethod.GET, "/prod/fleets", Map.of(), null, AwsCredentialsIdentity.create(AK, SECRET),
                r -> r.putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, "gamelift-typo"));
        assertThat(reason(verify(otherService))).startsWith("credential scope service 'gamelift-typo' should be");
        // The payload hash: refused as not the body's, before the signature.
        assertThat(reason(verify(postScale().withBody("{}")))).isEqualTo("x-amz-content-sha256 does not match the body");
        // A query sent in another order than signed by an SDK is fine; one signed as typed is the query's fault.
        Wire curl = parse(CURL_GET_UNSORTED_QUERY);
        assertThat(likelyCause(verify(curlVerifierAt("2026-11-29T23:03:21Z"), curl)))
                .startsWith("the query was signed as sent, not in canonical order and encoding")
                .contains("curl")
                .endsWith("send it as ?InstanceIds=i-0123456789abcdef0%2Ci-0fedcba9876543210&Limit=5");
        // The same request with the query typed canonically is taken: the advice is right.
        assertThat(verify(curlVerifierAt("2026-11-29T23:06:15Z"), parse(CURL_GET_ARN)))
                .isEqualTo(new Result.Accepted("AKIDEXAMPLE"));
        // Anything else: the secret.
        assertThat(likelyCause(verify(curlVerifierAt("2026-11-29T23:04:00Z"), parse(CURL_POST).withBody("{}"))))
                .isEqualTo(WRONG_SECRET);
    }

    @Test
    void acceptsTheDateHeaderSignedInsteadOfXAmzDate() throws Exception {
        // No AWS SDK signs so, so the signature is made here by the SigV4 steps as documented.
        String date = "Sat, 14 Mar 2026 12:00:00 GMT";
        String canonicalRequest = "GET\n/prod/fleets\n\ndate:" + date + "\nhost:localhost:8443\n\ndate;host\n"
                + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(new byte[0]));
        String scope = "20260314/us-east-1/execute-api/aws4_request";
        String stringToSign = "AWS4-HMAC-SHA256\n20260314T120000Z\n" + scope + "\n" + HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-256").digest(canonicalRequest.getBytes(StandardCharsets.UTF_8)));
        byte[] key = ("AWS4" + SECRET).getBytes(StandardCharsets.UTF_8);
        for (String part : List.of("20260314", "us-east-1", "execute-api", "aws4_request", stringToSign)) {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            key = mac.doFinal(part.getBytes(StandardCharsets.UTF_8));
        }
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Host", List.of("localhost:8443"));
        headers.put("Date", List.of(date));
        headers.put("Authorization", List.of("AWS4-HMAC-SHA256 Credential=" + AK + "/" + scope
                + ", SignedHeaders=date;host, Signature=" + HexFormat.of().formatHex(key)));
        Wire w = new Wire("GET", "/prod/fleets", null, headers, new byte[0]);
        assertThat(verify(w)).isEqualTo(accepted());
        assertThat(reason(verify(w.withHeader("Date", "Sat, 14 Mar 2026 12:00:01 GMT")))).isEqualTo("signature does not match");
    }

    @Test
    void refusesASignedHeaderTheSdksSignerNeverSigns() {
        Wire w = postScale();
        String auth = w.header("Authorization").replace("SignedHeaders=content-type;host;", "SignedHeaders=content-type;host;user-agent;");
        assertThat(reason(verify(w.withHeader("Authorization", auth).withHeader("User-Agent", "curl/8"))))
                .startsWith("signed header 'user-agent' cannot be checked here");
    }

    @Test
    void rejectsUnknownAccessKey() {
        Wire w = sdkSign(SdkHttpMethod.POST, "/prod/fleets/arena/scale", Map.of(), "{}",
                AwsCredentialsIdentity.create("AKIAUNKNOWN000000000", SECRET), r -> r);
        assertThat(reason(verify(w))).isEqualTo("unknown access key");
    }

    @Test
    void rejectsWrongRegion() {
        Wire w = sdkSign(SdkHttpMethod.GET, "/prod/fleets", Map.of(), null, AwsCredentialsIdentity.create(AK, SECRET),
                r -> r.putProperty(AwsV4HttpSigner.REGION_NAME, "us-west-2"));
        assertThat(reason(verify(w))).contains("region").contains("us-west-2").contains("us-east-1");
    }

    @Test
    void rejectsWrongService() {
        Wire w = sdkSign(SdkHttpMethod.GET, "/prod/fleets", Map.of(), null, AwsCredentialsIdentity.create(AK, SECRET),
                r -> r.putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, "lambda"));
        assertThat(reason(verify(w))).contains("service").contains("lambda").contains("execute-api")
                .contains("gamelift");
    }

    @Test
    void acceptsGameLiftsSigningName() {
        // The AWS SDKs' GameLift clients sign for "gamelift"; with only an endpoint override they reach the edge.
        Wire w = sdkSign(SdkHttpMethod.POST, "/", Map.of(), "{}", AwsCredentialsIdentity.create(AK, SECRET),
                r -> r.putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, "gamelift"));
        assertThat(verify(w)).isInstanceOf(Result.Accepted.class);
        assertThat(verify(w.withBody("{\"x\":1}"))).isInstanceOf(Result.Rejected.class);
    }

    @Test
    void withOnlyExecuteApiAGameLiftSignatureIsRefusedNamingTheSigningName() {
        // As local/run --strict-signing, and API Gateway, take them.
        SigV4Verifier strict = new SigV4Verifier("us-east-1", Set.of("execute-api"),
                ak -> ak.equals(AK) ? Optional.of(SECRET) : Optional.empty(), Clock.fixed(NOW, ZoneOffset.UTC));
        Wire gameLift = sdkSign(SdkHttpMethod.POST, "/", Map.of(), "{}", AwsCredentialsIdentity.create(AK, SECRET),
                r -> r.putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, "gamelift"));
        assertThat(reason(verify(strict, gameLift)))
                .isEqualTo("credential scope service 'gamelift' should be 'execute-api', the only signing name taken here");
        assertThat(verify(strict, sdkSign(SdkHttpMethod.POST, "/", Map.of(), "{}"))).isEqualTo(accepted());
    }

    @Test
    void rejectsClockSkewBeyondFiveMinutes() {
        Duration justOver = Duration.ofMinutes(5).plusSeconds(1);
        assertThat(reason(verify(verifierAt(NOW.plus(justOver)), postScale()))).startsWith("request time too skewed");
        assertThat(reason(verify(verifierAt(NOW.minus(justOver)), postScale()))).startsWith("request time too skewed");
    }

    @Test
    void rejectsMissingHeaders() {
        assertThat(reason(verify(postScale().withoutHeader("Authorization")))).isEqualTo("missing Authorization header");
        assertThat(reason(verify(postScale().withoutHeader("X-Amz-Date")))).isEqualTo("missing X-Amz-Date or Date header");
        assertThat(reason(verify(postScale().withoutHeader("Content-Type"))))
                .isEqualTo("signed header 'content-type' is not in the request");
    }

    @Test
    void rejectsTamperedSignedHeaderValue() {
        assertThat(reason(verify(postScale().withHeader("Content-Type", "text/plain"))))
                .isEqualTo("signature does not match");
        assertThat(reason(verify(postScale().withHeader("Host", "evil.example:8443"))))
                .isEqualTo("signature does not match");
    }

    @Test
    void rejectsHostNotSigned() {
        Wire w = postScale();
        String auth = w.header("Authorization").replace("SignedHeaders=content-type;host;", "SignedHeaders=content-type;");
        assertThat(reason(verify(w.withHeader("Authorization", auth)))).isEqualTo("host must be among signed headers");
    }

    @Test
    void rejectsOtherAlgorithmAndGarbledHeader() {
        Wire w = postScale();
        assertThat(reason(verify(w.withHeader("Authorization", w.header("Authorization").replace("HMAC-SHA256", "ECDSA-P256-SHA256")))))
                .startsWith("unsupported algorithm");
        assertThat(reason(verify(w.withHeader("Authorization", "AWS4-HMAC-SHA256 Credential=" + AK))))
                .contains("Credential, SignedHeaders and Signature");
    }

    // ---- curl ----

    /**
     * Captured verbatim from {@code curl 7.88.1 --aws-sigv4 "aws:amz:us-east-1:execute-api"
     * --user AKIDEXAMPLE:wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY} against a throwaway local listener.
     * curl signs the path as sent (no second encoding) and omits x-amz-content-sha256 for this service.
     */
    private static final String CURL_SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

    private static final String CURL_POST = """
            POST /prod/fleets/arena/scale HTTP/1.1\r
            Host: 127.0.0.1:18765\r
            Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261129/us-east-1/execute-api/aws4_request, \
            SignedHeaders=content-type;host;x-amz-date, \
            Signature=38057f8906ba3434ab710f43901d9339dd159235e7fd553bfb62e2871275b640\r
            X-Amz-Date: 20261129T230323Z\r
            User-Agent: curl/7.88.1\r
            Accept: */*\r
            Content-Type: application/json\r
            Content-Length: 31\r
            \r
            {"desired": 3, "name": "arena"}""";

    /** The query is written already sorted and %-encoded, which is the form curl 7.88.1 signs correctly. */
    private static final String CURL_GET_ARN = """
            GET /prod/fleets/arn%3Aaws%3Agamelift%3Aus-east-1%3A123456789012%3Agameservergroup%2Farena/instances\
            ?InstanceIds=i-0123456789abcdef0%2Ci-0fedcba9876543210&Limit=5 HTTP/1.1\r
            Host: 127.0.0.1:18765\r
            Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261129/us-east-1/execute-api/aws4_request, \
            SignedHeaders=host;x-amz-date, \
            Signature=25861ce0124f598496205edc9c0fbff3281337eefcbdf4c828869da60aa42011\r
            X-Amz-Date: 20261129T230615Z\r
            User-Agent: curl/7.88.1\r
            Accept: */*\r
            \r
            """;

    /**
     * The same GET with the query typed unsorted and with a bare ','. curl 7.88.1 puts the query into
     * the canonical request verbatim instead of sorting and encoding it (curl issue #9717), so real
     * API Gateway answers 403 to this, and the local stand-in must too.
     */
    private static final String CURL_GET_UNSORTED_QUERY = """
            GET /prod/fleets/arn%3Aaws%3Agamelift%3Aus-east-1%3A123456789012%3Agameservergroup%2Farena/instances\
            ?Limit=5&InstanceIds=i-0123456789abcdef0,i-0fedcba9876543210 HTTP/1.1\r
            Host: 127.0.0.1:18765\r
            Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261129/us-east-1/execute-api/aws4_request, \
            SignedHeaders=host;x-amz-date, \
            Signature=1346e02ae0731c4987bbf50cfd23616fdaf6b44f8d5a4a4525ab2a83ef6e2d26\r
            X-Amz-Date: 20261129T230321Z\r
            User-Agent: curl/7.88.1\r
            Accept: */*\r
            \r
            """;

    /** Parses a raw HTTP/1.1 request the way a server would hand it to the verifier. */
    private static Wire parse(String raw) {
        int split = raw.indexOf("\r\n\r\n");
        String[] lines = raw.substring(0, split).split("\r\n");
        String[] requestLine = lines[0].split(" ");
        String target = requestLine[1];
        int q = target.indexOf('?');
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.computeIfAbsent(lines[i].substring(0, colon), k -> new ArrayList<>())
                    .add(lines[i].substring(colon + 1).strip());
        }
        return new Wire(requestLine[0], q < 0 ? target : target.substring(0, q), q < 0 ? null : target.substring(q + 1),
                headers, raw.substring(split + 4).getBytes(StandardCharsets.UTF_8));
    }

    private static SigV4Verifier curlVerifierAt(String instant) {
        return new SigV4Verifier("us-east-1", Set.of("execute-api", "gamelift"),
                ak -> ak.equals("AKIDEXAMPLE") ? Optional.of(CURL_SECRET) : Optional.empty(),
                Clock.fixed(Instant.parse(instant), ZoneOffset.UTC));
    }

    @Test
    void acceptsCapturedCurlPost() {
        Wire w = parse(CURL_POST);
        assertThat(w.body()).hasSize(31);
        SigV4Verifier v = curlVerifierAt("2026-11-29T23:04:00Z");
        assertThat(verify(v, w)).isEqualTo(new Result.Accepted("AKIDEXAMPLE"));
        assertThat(reason(verify(v, w.withBody("{\"desired\": 9, \"name\": \"arena\"}")))).isEqualTo("signature does not match");
        assertThat(reason(verify(curlVerifierAt("2026-11-29T23:10:00Z"), w))).startsWith("request time too skewed");
    }

    @Test
    void acceptsCapturedCurlGetWithEncodedArnAndQuery() {
        Wire w = parse(CURL_GET_ARN);
        assertThat(w.path()).isEqualTo(ARN_PATH);
        SigV4Verifier v = curlVerifierAt("2026-11-29T23:06:15Z");
        assertThat(verify(v, w)).isEqualTo(new Result.Accepted("AKIDEXAMPLE"));
        assertThat(reason(verify(v, w.withQuery(w.query().replace("Limit=5", "Limit=6"))))).isEqualTo("signature does not match");
        assertThat(reason(verify(v, w.withPath(ARN_PATH.replace("%3A", ":"))))).isEqualTo("signature does not match");
    }

    @Test
    void rejectsCurlQuerySignedVerbatimInsteadOfCanonically() {
        Wire w = parse(CURL_GET_UNSORTED_QUERY);
        assertThat(reason(verify(curlVerifierAt("2026-11-29T23:03:21Z"), w))).isEqualTo("signature does not match");
    }
}

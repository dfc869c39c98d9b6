package io.gamefleet.local.edge;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.internal.signer.CredentialScope;
import software.amazon.awssdk.http.auth.aws.internal.signer.V4Properties;
import software.amazon.awssdk.http.auth.aws.internal.signer.V4RequestSigner;
import software.amazon.awssdk.http.auth.aws.internal.signer.V4RequestSigningResult;
import software.amazon.awssdk.http.auth.aws.internal.signer.util.SignerUtils;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * Verifies header-based AWS Signature Version 4 the way API Gateway does for IAM-authorised routes,
 * so the local stand-in rejects exactly the requests the real one would. The expected signature is
 * the AWS SDK's own ({@link AwsV4HttpSigner}, at the request's time, for its scope): no
 * canonicalization of this project's to drift from the signers that clients use.
 */
public final class SigV4Verifier {

    /** Outcome of {@link #verify}: who signed, or a reason a person can act on. */
    public sealed interface Result {
        record Accepted(String accessKeyId) implements Result {}

        /**
         * For a signature that does not match, {@code likelyCause}: which mistake it most likely is,
         * and {@code serverSigned}: what the server signed (the canonical request and the string to
         * sign, as AWS says them); else both empty.
         */
        record Rejected(String reason, String likelyCause, String serverSigned) implements Result {
            public Rejected(String reason) {
                this(reason, "", "");
            }

            /** What the caller is told: the reason, its likely cause, and what the server signed, when known. */
            public String message() {
                return "request signature rejected: " + reason + (likelyCause.isEmpty() ? "" : "; likely cause: "
                        + likelyCause) + (serverSigned.isEmpty() ? "" : ". " + serverSigned);
            }
        }
    }

    private static final String ALGORITHM = "AWS4-HMAC-SHA256";
    private static final Duration MAX_SKEW = Duration.ofMinutes(5); // AWS's documented limit
    private static final String UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
    /** Headers V4CanonicalRequest leaves out of every canonical request, whatever the signer is given. */
    private static final Set<String> NEVER_SIGNED_BY_SDK = Set.of("connection", "x-amzn-trace-id", "user-agent", "expect");
    private static final AwsV4HttpSigner SIGNER = AwsV4HttpSigner.create();
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");
    private static final HexFormat HEX = HexFormat.of();

    private final String region;
    private final Set<String> services;
    private final Function<String, Optional<String>> secretForAccessKey;
    private final Clock clock;
    private final boolean allowUnsignedPayload;

    /** {@code services}: the signing names accepted (a request is signed for exactly one of them). */
    public SigV4Verifier(String region, Set<String> services,
                         Function<String, Optional<String>> secretForAccessKey, Clock clock) {
        this(region, services, secretForAccessKey, clock, false);
    }

    /**
     * {@code allowUnsignedPayload}: whether {@code x-amz-content-sha256: UNSIGNED-PAYLOAD} is taken
     * (the signature then covers no byte of the body); refused unless allowed.
     */
    public SigV4Verifier(String region, Set<String> services,
                         Function<String, Optional<String>> secretForAccessKey, Clock clock,
                         boolean allowUnsignedPayload) {
        this.region = region;
        this.services = Set.copyOf(services);
        this.secretForAccessKey = secretForAccessKey;
        this.clock = clock;
        this.allowUnsignedPayload = allowUnsignedPayload;
    }

    /**
     * @param rawPath  the path exactly as it arrived on the wire (still percent-encoded)
     * @param rawQuery the query exactly as it arrived, without '?'; null or empty if none
     * @param headers  request headers; names are matched case-insensitively whatever the map does.
     *                 X-Amz-Security-Token is checked only as far as it is signed: there is no STS here.
     */
    public Result verify(String method, String rawPath, String rawQuery,
                         Map<String, List<String>> headers, byte[] body) {
        Map<String, List<String>> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.forEach((name, values) -> h.computeIfAbsent(name, k -> new ArrayList<>()).addAll(values));

        List<String> auth = h.get("authorization");
        if (auth == null || auth.isEmpty()) return reject("missing Authorization header");
        if (auth.size() > 1) return reject("more than one Authorization header");
        String header = auth.get(0).strip();
        if (!header.startsWith(ALGORITHM + " ")) return reject("unsupported algorithm, expected " + ALGORITHM);

        Map<String, String> parts = new TreeMap<>();
        for (String part : header.substring(ALGORITHM.length()).split(",")) {
            int eq = part.indexOf('=');
            if (eq > 0) parts.put(part.substring(0, eq).strip(), part.substring(eq + 1).strip());
        }
        String credential = parts.get("Credential");
        String signedHeaders = parts.get("SignedHeaders");
        String signature = parts.get("Signature");
        if (credential == null || signedHeaders == null || signature == null) {
            return reject("Authorization header must carry Credential, SignedHeaders and Signature");
        }

        // Credential=AKID/yyyyMMdd/region/service/aws4_request
        String[] scope = credential.split("/", -1);
        if (scope.length != 5 || !"aws4_request".equals(scope[4])) return reject("malformed credential scope");
        String accessKeyId = scope[0], scopeDate = scope[1];
        if (!region.equals(scope[2])) return reject("credential scope region '" + scope[2] + "' should be '" + region + "'");
        if (!services.contains(scope[3])) {
            return reject("credential scope service '" + scope[3] + "' should be " + (services.size() == 1
                    ? "'" + services.iterator().next() + "', the only signing name taken here"
                    : "one of " + new TreeSet<>(services)));
        }
        String service = scope[3];

        // The timestamp signed is X-Amz-Date, or the Date header rewritten in the same basic ISO form.
        Instant requestTime;
        String amzDate = first(h, "x-amz-date");
        try {
            String date = first(h, "date");
            if (amzDate != null) requestTime = LocalDateTime.parse(amzDate, AMZ_DATE).toInstant(ZoneOffset.UTC);
            else if (date != null) requestTime = ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            else return reject("missing X-Amz-Date or Date header");
        } catch (DateTimeParseException e) {
            return reject("unparseable request date");
        }
        // X-Amz-Date parsed is already in the form signed (the pattern has fixed widths).
        String timestamp = amzDate != null ? amzDate : AMZ_DATE.format(requestTime.atOffset(ZoneOffset.UTC));
        if (!timestamp.substring(0, 8).equals(scopeDate)) return reject("credential scope date does not match request date");
        if (Duration.between(requestTime, clock.instant()).abs().compareTo(MAX_SKEW) > 0) {
            return reject("request time too skewed: more than 5 minutes from server time");
        }

        List<String> signed = List.of(signedHeaders.split(";"));
        // Without host signed, a signature could be replayed against another endpoint.
        if (!signed.contains("host")) return reject("host must be among signed headers");
        for (String name : signed) {
            if (!h.containsKey(name)) return reject("signed header '" + name + "' is not in the request");
            if (NEVER_SIGNED_BY_SDK.contains(name)) {
                return reject("signed header '" + name + "' cannot be checked here: the AWS SDK's signer, which this"
                        + " edge checks with, never signs it; sign without it");
            }
        }

        Optional<String> secret = secretForAccessKey.apply(accessKeyId);
        if (secret.isEmpty()) return reject("unknown access key");

        // x-amz-content-sha256, when sent, is what was signed; a real hash must also match the body,
        // or the body could be swapped under a valid signature.
        byte[] bytes = body == null ? new byte[0] : body;
        String bodyHash = HEX.formatHex(sha256(bytes));
        String payloadHash = first(h, "x-amz-content-sha256");
        boolean unsignedPayload = UNSIGNED_PAYLOAD.equals(payloadHash);
        if (payloadHash == null) payloadHash = bodyHash;
        else if (unsignedPayload && !allowUnsignedPayload) {
            return reject("x-amz-content-sha256: UNSIGNED-PAYLOAD is refused here (the signature would cover no"
                    + " byte of the body); sign the payload, or start the profile with --allow-unsigned-payload");
        } else if (!unsignedPayload && !payloadHash.equalsIgnoreCase(bodyHash)) {
            return reject("x-amz-content-sha256 does not match the body");
        }

        SdkHttpRequest.Builder request;
        try {
            request = request(method, rawPath, rawQuery, signed, h);
        } catch (IllegalArgumentException e) {
            return reject(e.getMessage());
        }
        AwsCredentialsIdentity identity = AwsCredentialsIdentity.create(accessKeyId, secret.get());
        byte[] presented = signature.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII);
        // AwsV4HttpSigner adds and signs X-Amz-Date and x-amz-content-sha256 itself, so it reproduces
        // a request that signed both as it would (every AWS SDK's, the CLI's). curl signs no payload
        // hash header (and a client of the Date header no X-Amz-Date): such a request is checked one
        // step below in the SDK's signer, which signs exactly the headers given.
        boolean sdkShaped = amzDate != null && signed.contains("x-amz-date") && signed.contains("x-amz-content-sha256")
                && (unsignedPayload || payloadHash.equals(bodyHash));
        // The AWS SDKs encode each path segment once more for execute-api; curl signs the path as
        // sent. Either is taken, the client's likely one first.
        List<Boolean> encodings = sdkShaped ? List.of(true, false) : List.of(false, true);
        for (boolean doubleUrlEncode : encodings) {
            String expected = sdkShaped
                    ? sdkSignature(request.build(), identity, service, requestTime, doubleUrlEncode, unsignedPayload, bytes)
                    : canonicalSigning(request.build(), identity, service, requestTime, doubleUrlEncode, payloadHash)
                            .getSignature();
            if (MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII), presented)) {
                return new Result.Accepted(accessKeyId);
            }
        }
        // As AWS answers: what the caller's signer should have signed; and the likely reason it did not.
        V4RequestSigningResult expected = canonicalSigning(request.build(), identity, service, requestTime,
                encodings.get(0), payloadHash);
        String canonicalRequest = expected.getCanonicalRequest().getCanonicalRequestString();
        String credentialScope = scopeDate + "/" + region + "/" + service + "/aws4_request";
        return new Result.Rejected("signature does not match",
                likelyCause(rawQuery, canonicalRequest, timestamp, credentialScope, expected.getSigningKey(), presented),
                "The Canonical String for this request should have been\n'" + canonicalRequest
                        + "'\n\nThe String-to-Sign should have been\n'"
                        + stringToSign(timestamp, credentialScope, canonicalRequest) + "'\n");
    }

    /**
     * Why a signature by a known key, for this region and service, over a payload hash that is the
     * body's, does not match (the scope and the payload hash are refused before, each saying so):
     * the query was signed as sent rather than canonically (as curl signs what is typed), which the
     * signature itself shows, or else the secret.
     */
    private static String likelyCause(String rawQuery, String canonicalRequest, String timestamp, String scope,
                                      byte[] signingKey, byte[] presented) {
        String[] lines = canonicalRequest.split("\n", -1);
        String canonicalQuery = lines[2];
        if (rawQuery != null && !rawQuery.equals(canonicalQuery)) {
            lines[2] = rawQuery;
            String asTyped = String.join("\n", lines);
            byte[] signedAsTyped = HEX.formatHex(SignerUtils.computeSignature(stringToSign(timestamp, scope, asTyped),
                    signingKey)).getBytes(StandardCharsets.US_ASCII);
            if (MessageDigest.isEqual(signedAsTyped, presented)) {
                return "the query was signed as sent, not in canonical order and encoding (parameters sorted by name,"
                        + " RFC 3986 percent-encoded), as curl signs what is typed: send it as ?" + canonicalQuery;
            }
        }
        return "the secret does not match the access key's (or the request was changed in flight)";
    }

    private static String stringToSign(String timestamp, String scope, String canonicalRequest) {
        return String.join("\n", ALGORITHM, timestamp, scope,
                HEX.formatHex(sha256(canonicalRequest.getBytes(StandardCharsets.UTF_8))));
    }

    /** The request as the SDK's signer takes it: the path as sent, the query decoded, the signed headers only. */
    private static SdkHttpRequest.Builder request(String method, String rawPath, String rawQuery, List<String> signed,
                                                  Map<String, List<String>> headers) {
        SdkHttpMethod sdkMethod;
        try {
            sdkMethod = SdkHttpMethod.fromValue(method);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("method " + method + " is not one SigV4 signers sign");
        }
        SdkHttpRequest.Builder request = SdkHttpRequest.builder().protocol("https").host("localhost").method(sdkMethod)
                .encodedPath(rawPath == null || rawPath.isEmpty() ? "/" : rawPath);
        if (rawQuery != null && !rawQuery.isEmpty()) {
            for (String pair : rawQuery.split("&")) {
                if (pair.isEmpty()) continue;
                int eq = pair.indexOf('=');
                try {
                    request.appendRawQueryParameter(percentDecode(eq < 0 ? pair : pair.substring(0, eq)),
                            eq < 0 ? "" : percentDecode(pair.substring(eq + 1)));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("malformed percent-encoding in query string");
                }
            }
        }
        signed.forEach(name -> request.putHeader(name, headers.get(name)));
        return request;
    }

    /** The signature AwsV4HttpSigner gives the request at the request's own time, for its scope. */
    private String sdkSignature(SdkHttpRequest request, AwsCredentialsIdentity identity, String service,
                                Instant requestTime, boolean doubleUrlEncode, boolean unsignedPayload, byte[] body) {
        SignedRequest signed = SIGNER.sign(r -> r.identity(identity).request(request)
                .payload(ContentStreamProvider.fromByteArrayUnsafe(body))
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, service)
                .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, Clock.fixed(requestTime, ZoneOffset.UTC))
                .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, doubleUrlEncode)
                .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false)
                .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, !unsignedPayload));
        String authorization = signed.request().firstMatchingHeader("Authorization").orElseThrow();
        return authorization.substring(authorization.lastIndexOf("Signature=") + "Signature=".length());
    }

    /**
     * The step of AwsV4HttpSigner below the headers it adds: the canonical request of exactly the
     * headers given, and its signature. An internal class of the SDK, so pinned by the build's SDK
     * version: SigV4VerifierTest's captured curl requests fail if a new version moves it.
     */
    private V4RequestSigningResult canonicalSigning(SdkHttpRequest request, AwsCredentialsIdentity identity,
                                                    String service, Instant requestTime, boolean doubleUrlEncode,
                                                    String payloadHash) {
        V4Properties properties = V4Properties.builder().credentials(identity)
                .credentialScope(new CredentialScope(region, service, requestTime))
                .signingClock(Clock.fixed(requestTime, ZoneOffset.UTC))
                .doubleUrlEncode(doubleUrlEncode).normalizePath(false).build();
        return V4RequestSigner.create(properties, payloadHash).sign(request.toBuilder());
    }

    /** Strict RFC 3986 decoding: '+' stays a plus, because SigV4 clients send a space as %20. */
    public static String percentDecode(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = 0;
        while (i < s.length()) {
            int pct = s.indexOf('%', i);
            if (pct < 0) pct = s.length();
            out.writeBytes(s.substring(i, pct).getBytes(StandardCharsets.UTF_8));
            if (pct == s.length()) break;
            if (pct + 3 > s.length()) throw new IllegalArgumentException("truncated escape");
            out.write(HexFormat.fromHexDigits(s, pct + 1, pct + 3)); // IllegalArgumentException if not hex
            i = pct + 3;
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static String first(Map<String, List<String>> h, String name) {
        List<String> v = h.get(name);
        return v == null || v.isEmpty() ? null : v.get(0).strip();
    }

    private static Result reject(String reason) {
        return new Result.Rejected(reason);
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is required on every JDK", e);
        }
    }
}

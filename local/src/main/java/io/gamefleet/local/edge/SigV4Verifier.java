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
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies header-based AWS Signature Version 4 the way API Gateway does for IAM-authorised routes,
 * so the local stand-in rejects exactly the requests the real one would. JDK only: the production
 * classpath must not need the AWS SDK just to check a signature.
 */
public final class SigV4Verifier {

    /** Outcome of {@link #verify}: who signed, or a reason a person can act on. */
    public sealed interface Result {
        record Accepted(String accessKeyId) implements Result {}

        /**
         * {@code serverSigned}: for a signature that does not match, what the server signed (the
         * canonical request and the string to sign, as AWS says them), else empty.
         */
        record Rejected(String reason, String serverSigned) implements Result {
            public Rejected(String reason) {
                this(reason, "");
            }

            /** What the caller is told: the reason, and what the server signed when that helps. */
            public String message() {
                return "request signature rejected: " + reason + (serverSigned.isEmpty() ? "" : ". " + serverSigned);
            }
        }
    }

    private static final String ALGORITHM = "AWS4-HMAC-SHA256";
    private static final Duration MAX_SKEW = Duration.ofMinutes(5); // AWS's documented limit
    private static final Pattern SPACES = Pattern.compile("\\s+");
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");
    private static final HexFormat HEX = HexFormat.of();

    private final String region;
    private final Set<String> services;
    private final Function<String, Optional<String>> secretForAccessKey;
    private final Clock clock;
    private final boolean allowUnsignedPayload;
    /** Signing keys by day, service and secret; see {@link #signingKey}. */
    private final Map<String, byte[]> signingKeys = new ConcurrentHashMap<>();
    private static final int MAX_SIGNING_KEYS = 256;

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
        StringBuilder canonicalHeaders = new StringBuilder();
        for (String name : signed) {
            List<String> values = h.get(name);
            if (values == null) return reject("signed header '" + name + "' is not in the request");
            List<String> trimmed = values.stream().map(v -> SPACES.matcher(v.strip()).replaceAll(" ")).toList();
            canonicalHeaders.append(name).append(':').append(String.join(",", trimmed)).append('\n');
        }

        Optional<String> secret = secretForAccessKey.apply(accessKeyId);
        if (secret.isEmpty()) return reject("unknown access key");

        // x-amz-content-sha256, when sent, is what was signed; a real hash must also match the body,
        // or the body could be swapped under a valid signature.
        String bodyHash = HEX.formatHex(sha256(body == null ? new byte[0] : body));
        String payloadHash = first(h, "x-amz-content-sha256");
        if (payloadHash == null) payloadHash = bodyHash;
        else if (payloadHash.equals("UNSIGNED-PAYLOAD") && !allowUnsignedPayload) {
            return reject("x-amz-content-sha256: UNSIGNED-PAYLOAD is refused here (the signature would cover no"
                    + " byte of the body); sign the payload, or start the profile with --allow-unsigned-payload");
        } else if (!payloadHash.equals("UNSIGNED-PAYLOAD") && !payloadHash.equalsIgnoreCase(bodyHash)) {
            return reject("x-amz-content-sha256 does not match the body");
        }

        String canonicalQuery;
        try {
            canonicalQuery = canonicalQuery(rawQuery);
        } catch (IllegalArgumentException e) {
            return reject("malformed percent-encoding in query string");
        }

        byte[] signingKey = signingKey(secret.get(), scopeDate, service);
        byte[] presented = signature.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII);
        String path = rawPath == null || rawPath.isEmpty() ? "/" : rawPath;
        // curl signs the path as sent; the AWS SDKs encode each segment once more for execute-api.
        // Accept either; try the double-encoded form only if it differs.
        String doubled = uriEncode(path, true);
        String signedFirst = null;
        for (String canonicalUri : path.equals(doubled) ? List.of(path) : List.of(path, doubled)) {
            String canonicalRequest = String.join("\n", method, canonicalUri, canonicalQuery,
                    canonicalHeaders.toString(), signedHeaders, payloadHash);
            String stringToSign = String.join("\n", ALGORITHM, timestamp,
                    scopeDate + "/" + region + "/" + service + "/aws4_request",
                    HEX.formatHex(sha256(canonicalRequest.getBytes(StandardCharsets.UTF_8))));
            byte[] expected = HEX.formatHex(hmac(signingKey, stringToSign)).getBytes(StandardCharsets.US_ASCII);
            if (MessageDigest.isEqual(expected, presented)) return new Result.Accepted(accessKeyId);
            if (signedFirst == null) { // as AWS answers: what the caller's signer should have signed
                signedFirst = "The Canonical String for this request should have been\n'" + canonicalRequest
                        + "'\n\nThe String-to-Sign should have been\n'" + stringToSign + "'\n";
            }
        }
        return new Result.Rejected("signature does not match", signedFirst);
    }

    /** Decode each name and value as received, re-encode with RFC 3986, sort by name then value. */
    static String canonicalQuery(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) return "";
        List<String[]> params = new ArrayList<>();
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) continue;
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            params.add(new String[] {uriEncode(percentDecode(name), false), uriEncode(percentDecode(value), false)});
        }
        params.sort((a, b) -> a[0].equals(b[0]) ? a[1].compareTo(b[1]) : a[0].compareTo(b[0]));
        List<String> joined = params.stream().map(p -> p[0] + "=" + p[1]).toList();
        return String.join("&", joined);
    }

    /** Percent-encode all but A-Z a-z 0-9 - _ . ~ (and '/' when keepSlash), as SigV4 requires. */
    public static String uriEncode(String s, boolean keepSlash) {
        StringBuilder out = new StringBuilder();
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            boolean unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_' || c == '.' || c == '~' || (keepSlash && c == '/');
            if (unreserved) out.append(c);
            else out.append('%').append(HexFormat.of().withUpperCase().toHexDigits(b));
        }
        return out.toString();
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

    /**
     * The key a signature of the day and service is made with: four HMACs, the same for every
     * request of a caller's day, so it is kept (the last few: keys change only with the day).
     */
    private byte[] signingKey(String secret, String date, String service) {
        String name = date + '/' + service + '/' + secret;
        byte[] kept = signingKeys.get(name);
        if (kept != null) {
            return kept;
        }
        byte[] k = hmac(("AWS4" + secret).getBytes(StandardCharsets.UTF_8), date);
        byte[] key = hmac(hmac(hmac(k, region), service), "aws4_request");
        if (signingKeys.size() >= MAX_SIGNING_KEYS) {
            signingKeys.clear();
        }
        signingKeys.put(name, key);
        return key;
    }


    private static String first(Map<String, List<String>> h, String name) {
        List<String> v = h.get(name);
        return v == null || v.isEmpty() ? null : v.get(0).strip();
    }

    private static Result reject(String reason) {
        return new Result.Rejected(reason);
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required on every JDK", e);
        }
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is required on every JDK", e);
        }
    }
}

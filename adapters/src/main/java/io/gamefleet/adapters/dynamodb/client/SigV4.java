package io.gamefleet.adapters.dynamodb.client;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.SortedMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * AWS Signature Version 4 with the JDK's HMAC-SHA256 and SHA-256: the signing key is derived
 * once per secret, date, region and service (it changes daily) and kept.
 */
final class SigV4 {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final String region;
    private final String service;
    /** The last derived key, with what it was derived from. */
    private volatile DerivedKey key;

    private record DerivedKey(String secret, String date, byte[] bytes) {}

    SigV4(String region, String service) {
        this.region = region;
        this.service = service;
    }

    /**
     * The Authorization header's value for a request. {@code headers} are the headers to sign,
     * names in lower case (sorted by the map), values as sent; they must hold {@code host} and
     * {@code x-amz-date} ({@code amzDate}, as yyyyMMdd'T'HHmmss'Z'), and the session token's
     * {@code x-amz-security-token} when there is one.
     */
    String authorization(String method, String canonicalUri, String canonicalQuery, SortedMap<String, String> headers,
            byte[] payload, String amzDate, String accessKeyId, String secretKey) {
        String date = amzDate.substring(0, 8);
        StringBuilder canonical = new StringBuilder(512).append(method).append('\n').append(canonicalUri).append('\n')
                .append(canonicalQuery).append('\n');
        StringBuilder signedHeaders = new StringBuilder();
        for (Map.Entry<String, String> h : headers.entrySet()) {
            canonical.append(h.getKey()).append(':').append(h.getValue().strip()).append('\n');
            if (signedHeaders.length() > 0) {
                signedHeaders.append(';');
            }
            signedHeaders.append(h.getKey());
        }
        canonical.append('\n').append(signedHeaders).append('\n').append(hex(sha256(payload)));
        String scope = date + "/" + region + "/" + service + "/aws4_request";
        String toSign = "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n"
                + hex(sha256(canonical.toString().getBytes(StandardCharsets.UTF_8)));
        String signature = hex(hmac(signingKey(secretKey, date), toSign));
        return "AWS4-HMAC-SHA256 Credential=" + accessKeyId + "/" + scope + ", SignedHeaders=" + signedHeaders
                + ", Signature=" + signature;
    }

    private byte[] signingKey(String secretKey, String date) {
        DerivedKey k = key;
        if (k == null || !k.date().equals(date) || !k.secret().equals(secretKey)) {
            byte[] dateKey = hmac(("AWS4" + secretKey).getBytes(StandardCharsets.UTF_8), date);
            byte[] regionKey = hmac(dateKey, region);
            byte[] serviceKey = hmac(regionKey, service);
            k = new DerivedKey(secretKey, date, hmac(serviceKey, "aws4_request"));
            key = k;
        }
        return k.bytes();
    }

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String hex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = HEX[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = HEX[bytes[i] & 0xf];
        }
        return new String(out);
    }
}

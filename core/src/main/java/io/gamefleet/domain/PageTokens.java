package io.gamefleet.domain;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Opaque NextToken values: a storage cursor bound to the listing it came from (its scope: the
 * operation, group and sort order) and signed with the deployment's key, so a token the service
 * did not issue, or one replayed against another listing, is rejected as invalid input.
 */
public final class PageTokens {
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
    private final SecretKeySpec key;

    public PageTokens(String secret) {
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    public Optional<String> issue(String scope, Optional<String> cursor) {
        return cursor.map(c -> {
            byte[] payload = c.getBytes(StandardCharsets.UTF_8);
            return ENCODER.encodeToString(payload) + "." + ENCODER.encodeToString(mac(scope, payload));
        });
    }

    public Optional<String> redeem(String scope, Optional<String> token) {
        return token.map(t -> {
            int dot = t.indexOf('.');
            try {
                byte[] payload = DECODER.decode(t.substring(0, Math.max(dot, 0)));
                byte[] signature = DECODER.decode(t.substring(dot + 1));
                if (dot >= 0 && MessageDigest.isEqual(signature, mac(scope, payload))) {
                    return new String(payload, StandardCharsets.UTF_8);
                }
            } catch (IllegalArgumentException malformed) {
                // falls through to the same answer as a bad signature
            }
            throw GamefleetException.invalidRequest("NextToken is not a token this listing issued");
        });
    }

    private byte[] mac(String scope, byte[] payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update(scope.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) 0);
            return mac.doFinal(payload);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable", e);
        }
    }
}

package io.gamefleet.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.NotEmpty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PageTokensTest {
    private static final String SCOPE = "ListGameServers/my-group/ASCENDING";
    private static final String CURSOR = "{\"GameServerId\":\"Sgs-1\",\"RegistrationTime\":\"N1893456000000\"}";
    private final PageTokens tokens = new PageTokens("test-secret");

    private String issue(String scope, String cursor) {
        return tokens.issue(scope, Optional.of(cursor)).orElseThrow();
    }

    private static void assertRejected(PageTokens tokens, String scope, String token) {
        GamefleetException e = catchThrowableOfType(GamefleetException.class,
                () -> tokens.redeem(scope, Optional.of(token)));
        assertThat(e).as("token %s for scope %s", token, scope).isNotNull();
        assertThat(e.errorType()).isEqualTo("InvalidRequestException");
        assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_REQUEST);
    }

    @Property
    void roundTrip(@ForAll @NotEmpty String cursor, @ForAll String scope) {
        String token = tokens.issue(scope, Optional.of(cursor)).orElseThrow();
        assertThat(tokens.redeem(scope, Optional.of(token))).contains(cursor);
    }

    @Test
    void tokensAreUrlSafeAndDoNotShowTheCursorAsIs() {
        String token = issue(SCOPE, CURSOR);
        assertThat(token).matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+").doesNotContain("GameServerId");
    }

    @Test
    void noCursorMeansNoTokenAndNoTokenMeansNoCursor() {
        assertThat(tokens.issue(SCOPE, Optional.empty())).isEmpty();
        assertThat(tokens.redeem(SCOPE, Optional.empty())).isEmpty();
    }

    @Test
    void aTokenIsBoundToItsScope() {
        String token = issue(SCOPE, CURSOR);
        assertRejected(tokens, "ListGameServers/my-group/DESCENDING", token);
        assertRejected(tokens, "ListGameServers/other-group/ASCENDING", token);
        assertRejected(tokens, "ListGameServerGroups", token);
        assertThat(tokens.redeem(SCOPE, Optional.of(token))).contains(CURSOR);
    }

    @Test
    void aTokenIsBoundToTheSecret() {
        assertRejected(new PageTokens("another-secret"), SCOPE, issue(SCOPE, CURSOR));
    }

    @Test
    void aTamperedPayloadIsRejected() {
        String token = issue(SCOPE, CURSOR);
        String signature = token.substring(token.indexOf('.') + 1);
        String forged = Base64.getUrlEncoder().withoutPadding()
                .encodeToString(CURSOR.replace("gs-1", "gs-2").getBytes(StandardCharsets.UTF_8));
        assertRejected(tokens, SCOPE, forged + "." + signature);
    }

    @Test
    void aTamperedSignatureIsRejected() {
        String token = issue(SCOPE, CURSOR);
        int dot = token.indexOf('.');
        // The first signature character carries six bits of the MAC (the last one carries padding bits too).
        char first = token.charAt(dot + 1);
        assertRejected(tokens, SCOPE, token.substring(0, dot + 1) + (first == 'A' ? 'B' : 'A') + token.substring(dot + 2));
        assertRejected(tokens, SCOPE, token.substring(0, dot + 1) + token.substring(dot + 2));
        assertRejected(tokens, SCOPE, token.substring(0, dot + 1));
        assertRejected(tokens, SCOPE, token.substring(0, dot));
    }

    @Test
    void aTokenIssuedForOnePayloadDoesNotSignAnother() {
        String a = issue(SCOPE, "cursor-a");
        String b = issue(SCOPE, "cursor-b");
        String mixed = a.substring(0, a.indexOf('.')) + b.substring(b.indexOf('.'));
        assertRejected(tokens, SCOPE, mixed);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "..", "garbage", "not.a.token", "!!!.###", "abc.", ".abc", "%%%%", " "})
    void garbageIsRejected(String token) {
        assertRejected(tokens, SCOPE, token);
    }
}

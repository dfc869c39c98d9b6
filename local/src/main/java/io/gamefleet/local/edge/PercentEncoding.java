package io.gamefleet.local.edge;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Decodes what the edge takes apart, exactly once: a path segment, or a query name or value. A
 * '%' not followed by two hex digits, or escapes that are not UTF-8, are the caller's mistake: an
 * {@link IllegalArgumentException} that the edge answers with 400 InvalidRequestException.
 */
final class PercentEncoding {
    private PercentEncoding() {}

    /** A path segment: '+' is a plus. */
    static String segment(String raw) {
        return decode(raw, false, "the path");
    }

    /** A query name or value, as API Gateway reads it: '+' is a space. */
    static String queryPart(String raw) {
        return decode(raw, true, "the query string");
    }

    private static String decode(String raw, boolean plusIsSpace, String where) {
        if (raw.indexOf('%') < 0 && !(plusIsSpace && raw.indexOf('+') >= 0)) {
            return raw;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                int hi = i + 1 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
                int lo = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 2), 16) : -1;
                if (hi < 0 || lo < 0) {
                    throw new IllegalArgumentException("malformed percent-encoding in " + where + ": '%' must be"
                            + " followed by two hexadecimal digits, in "
                            + raw.substring(i, Math.min(raw.length(), i + 3)));
                }
                bytes.write(hi << 4 | lo);
                i += 2;
            } else if (c == '+' && plusIsSpace) {
                bytes.write(' ');
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(b, 0, b.length);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("malformed percent-encoding in " + where + ": the escapes are not"
                    + " UTF-8");
        }
    }
}

package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import io.gamefleet.domain.GamefleetException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** A request body as API Gateway hands it over: text, or base64 for binary content. */
final class Bodies {
    private static final byte[] NONE = new byte[0];

    private Bodies() {}

    static byte[] bytes(APIGatewayV2HTTPEvent event) {
        String body = event.getBody();
        if (body == null) {
            return NONE;
        }
        if (!event.getIsBase64Encoded()) {
            return body.getBytes(StandardCharsets.UTF_8);
        }
        try {
            return Base64.getDecoder().decode(body);
        } catch (IllegalArgumentException e) {
            throw GamefleetException.invalidRequest("the request body is not valid base64");
        }
    }

    /** The body as text; bytes that are not UTF-8 are refused, never replaced. */
    static String text(APIGatewayV2HTTPEvent event) {
        if (!event.getIsBase64Encoded()) {
            return event.getBody() == null ? "" : event.getBody();
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes(event))).toString();
        } catch (CharacterCodingException e) {
            throw GamefleetException.invalidRequest("the request body is not valid UTF-8");
        }
    }
}

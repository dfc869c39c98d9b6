package io.gamefleet.adapters.dynamodb;

import com.fasterxml.jackson.core.type.TypeReference;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * DynamoDB's LastEvaluatedKey as text and back. The text is signed by the domain's PageTokens
 * before a client sees it, so only keys this service wrote come back here.
 */
final class Cursors {
    private Cursors() {}

    static Optional<String> encode(Map<String, AttributeValue> lastEvaluatedKey) {
        if (lastEvaluatedKey == null || lastEvaluatedKey.isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> plain = new LinkedHashMap<>();
        lastEvaluatedKey.forEach((name, value) -> plain.put(name, value.n() != null ? "N" + value.n() : "S" + value.s()));
        return Optional.of(Attributes.write(plain));
    }

    static Map<String, AttributeValue> decode(Optional<String> cursor) {
        if (cursor.isEmpty()) {
            return null;
        }
        Map<String, String> plain = Attributes.read(cursor.get(), new TypeReference<Map<String, String>>() { });
        Map<String, AttributeValue> key = new LinkedHashMap<>();
        plain.forEach((name, value) -> key.put(name, value.startsWith("N")
                ? AttributeValue.fromN(value.substring(1))
                : AttributeValue.fromS(value.substring(1))));
        return key;
    }
}

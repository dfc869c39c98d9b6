package io.gamefleet.adapters.dynamodb.client;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** An item with an attribute of every type, empty lists and maps, and text that needs escaping. */
final class MarshallerTestItems {
    static final Map<String, AttributeValue> EVERY_TYPE = every();

    private MarshallerTestItems() {}

    private static Map<String, AttributeValue> every() {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("s", AttributeValue.fromS("text with \"quotes\", \\, \n, \u0001 and ünïcødé ☃"));
        item.put("n", AttributeValue.fromN("-12.5"));
        item.put("b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, 1, (byte) 0xff, 42})));
        item.put("ss", AttributeValue.fromSs(List.of("a", "b")));
        item.put("ns", AttributeValue.fromNs(List.of("1", "2.5")));
        item.put("bs", AttributeValue.fromBs(List.of(SdkBytes.fromUtf8String("x"), SdkBytes.fromUtf8String("y"))));
        item.put("m", AttributeValue.fromM(Map.of("inner", AttributeValue.fromS("v"), "deeper",
                AttributeValue.fromM(Map.of("n", AttributeValue.fromN("7"))))));
        item.put("l", AttributeValue.fromL(List.of(AttributeValue.fromS("one"), AttributeValue.fromN("2"),
                AttributeValue.fromBool(false), AttributeValue.fromNul(true))));
        item.put("null", AttributeValue.fromNul(true));
        item.put("bool", AttributeValue.fromBool(true));
        item.put("emptyM", AttributeValue.fromM(Map.of()));
        item.put("emptyL", AttributeValue.fromL(List.of()));
        return item;
    }

}

package io.gamefleet.adapters.dynamodb.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The client's JSON reader and writer on what a server may send besides compact JSON. */
class JsonTextTest {
    @Test
    void readsJsonWithWhitespaceEverywhereItMayBe() {
        Object value = JsonText.parse(" \n{ \"a\" : [ 1 , \"x\" , true , null ] ,\r\n\t\"b\" : { } , \"c\" : [ ] } \n");
        assertThat(value).isInstanceOf(Map.class);
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) value;
        assertThat(map.keySet()).containsExactly("a", "b", "c");
        @SuppressWarnings("unchecked")
        List<Object> a = (List<Object>) map.get("a");
        assertThat(a).hasSize(4);
        assertThat(number(a.get(0))).isEqualByComparingTo("1");
        assertThat(a.subList(1, 4)).containsExactly("x", true, null);
        assertThat((Map<?, ?>) map.get("b")).isEmpty();
        assertThat((List<?>) map.get("c")).isEmpty();
    }

    @Test
    void readsEveryEscapeAndNumberForm() {
        assertThat(JsonText.parse("\"q\\\"b\\\\s\\/n\\nr\\rt\\tb\\bf\\fu\\u00e9\\u2028\""))
                .isEqualTo("q\"b\\s/n\nr\rt\tb\bf\fu\u00e9\u2028");
        assertThat(number(JsonText.parse("-12.5e2"))).isEqualByComparingTo("-1250");
        assertThat(number(JsonText.parse(" 0 "))).isEqualByComparingTo("0");
        for (String bad : List.of("\"open", "\"\\x\"", "\"\\u12\"", "[1,]x", "{\"a\" 1}", "[1 2]", "tru", "\"a\u0001\"")) {
            assertThatThrownBy(() -> JsonText.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void writesStringsAJsonReaderReadsBack() {
        String tricky = "quote\" backslash\\ newline\n tab\t control\u0001 separator\u2028 é";
        StringBuilder out = new StringBuilder();
        JsonText.writeString(out, tricky);
        assertThat(out.toString()).doesNotContain("\n", "\t", "\u0001", "\u2028");
        assertThat(JsonText.parse(out.toString())).isEqualTo(tricky);
    }

    /** A number as read: the text DynamoDB sent, kept exact. */
    private static BigDecimal number(Object read) {
        return new BigDecimal(((JsonText.Number) read).text());
    }
}

package io.gamefleet.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.domain.GamefleetException;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Request bodies as Json reads them: one object, blank as empty, duplicate names refused. */
class JsonTest {
    @ParameterizedTest
    @ValueSource(strings = {"", "  ", "\n"})
    void aBlankBodyIsAnEmptyObject(String body) {
        assertThat(Json.readObject(body)).isEmpty();
    }

    @Test
    void aBodyMustBeOneJsonObject() {
        assertThat(Json.readObject("{\"a\": [1]}")).hasToString("{\"a\":[1]}");
        assertThatThrownBy(() -> Json.readObject("[1]")).isInstanceOf(GamefleetException.class)
                .hasMessage("the request body must be a JSON object");
        assertThatThrownBy(() -> Json.readObject("\"text\"")).hasMessage("the request body must be a JSON object");
        assertThatThrownBy(() -> Json.readObject("{\"a\": 1, \"a\": 2}")).isInstanceOf(GamefleetException.class)
                .hasMessageStartingWith("the request body is not valid JSON: ").hasMessageContaining("Duplicate field 'a'");
    }

    @Test
    void textWritesEachNodeAsItsTypeAndReadsBackTheSame() {
        String text = "{\"s\":\"a\\\"b\\n\u00e9\",\"i\":1,\"l\":12345678901,\"b\":123456789012345678901234567890,"
                + "\"d\":1.5,\"t\":true,\"f\":false,\"n\":null,\"a\":[[],{}]}";
        assertThat(Json.text(Json.readObject(text))).isEqualTo(text);
        assertThat(Json.text(Json.NODES.objectNode().put("m", new BigDecimal("4102444800.250"))))
                .isEqualTo("{\"m\":4102444800.250}");
    }
}

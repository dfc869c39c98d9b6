package io.gamefleet.adapters.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class AttributesTest {
    @Test
    void sortableTimesAreThirteenDigitsSoThatStringOrderIsTimeOrder() {
        assertThat(Attributes.sortable(null)).isEqualTo("0000000000000");
        assertThat(Attributes.sortable(Instant.EPOCH)).isEqualTo("0000000000000");
        assertThat(Attributes.sortable(Instant.ofEpochMilli(5))).isEqualTo("0000000000005");
        assertThat(Attributes.sortable(Instant.ofEpochMilli(1_700_000_000_123L))).isEqualTo("1700000000123");
        assertThat(Attributes.sortable(Instant.ofEpochMilli(-5))).isEqualTo("-000000000005");
        assertThat(Attributes.sortable(Instant.ofEpochMilli(999_999_999_999L)))
                .isLessThan(Attributes.sortable(Instant.ofEpochMilli(1_000_000_000_000L)));
    }
}

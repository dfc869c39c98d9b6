package io.gamefleet.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class LazyTest {
    @Test
    void theValueIsBuiltOnFirstUseAndOnce() {
        AtomicInteger built = new AtomicInteger();
        Supplier<Object> lazy = Lazy.of(() -> "v" + built.incrementAndGet());
        assertThat(built).hasValue(0);
        assertThat(lazy.get()).isEqualTo("v1");
        assertThat(lazy.get()).isEqualTo("v1");
        assertThat(built).hasValue(1);
    }
}

package io.gamefleet.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gamefleet.domain.fakes.MutableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A token bucket per key, on the clock. */
class FairShareTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2100-01-01T00:00:00Z"));

    private boolean taken(FairShare share, String key) {
        return catchThrowableOfType(() -> share.take(key, key), GamefleetException.class) == null;
    }

    @Test
    void aBucketHoldsItsBurstAndFillsAtItsRateUpToItAgain() {
        FairShare share = new FairShare(new FairShare.Budget(0.5, 3), clock, "requests");
        assertThat(taken(share, "a")).isTrue();
        assertThat(taken(share, "a")).isTrue();
        assertThat(taken(share, "a")).isTrue();
        assertThat(taken(share, "a")).isFalse();
        clock.advance(Duration.ofMillis(1999));
        assertThat(taken(share, "a")).as("half a token short of one").isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(taken(share, "a")).isTrue();
        clock.advance(Duration.ofHours(1));
        for (int n = 0; n < 3; n++) {
            assertThat(taken(share, "a")).as("never more than the burst").isTrue();
        }
        assertThat(taken(share, "a")).isFalse();
        assertThat(catchThrowableOfType(() -> share.take("a", "caller a"), GamefleetException.class).getMessage())
                .isEqualTo("caller a sent more requests than its fair share of the stage's throttle (3 at once, then"
                        + " 30.0 a minute); retry with backoff");
    }

    @Test
    void aClockThatStepsBackFillsNothingAndForgottenKeysStartFull() {
        FairShare share = new FairShare(new FairShare.Budget(0.01, 1), clock, "requests", 2);
        assertThat(taken(share, "a")).isTrue();
        clock.advance(Duration.ofSeconds(-3600));
        assertThat(taken(share, "a")).isFalse();
        assertThat(catchThrowableOfType(() -> share.take("a", "a"), GamefleetException.class).getMessage())
                .contains("(1 at once, then one every 100 s)");
        // Two more keys push the least recently seen one out: it is a new key again.
        assertThat(taken(share, "b")).isTrue();
        assertThat(taken(share, "c")).isTrue();
        assertThat(taken(share, "a")).isTrue();
        assertThat(taken(share, "c")).isFalse();
    }

    @Test
    void aBudgetNeedsARateAndABurst() {
        assertThatThrownBy(() -> new FairShare.Budget(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FairShare.Budget(1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FairShare.Budget(Double.NaN, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}

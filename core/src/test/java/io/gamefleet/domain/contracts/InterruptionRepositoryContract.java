package io.gamefleet.domain.contracts;

import static io.gamefleet.domain.contracts.ContractSupport.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.InterruptionRepository;
import io.gamefleet.domain.InterruptionRepository.Interruption;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link InterruptionRepository} does, seen through the port. Each test uses groups of its own. */
public abstract class InterruptionRepositoryContract {
    /** Long after T0 and the wall clock: no TTL removes a row during a test. */
    private static final Instant EXPIRES = T0.plus(Duration.ofDays(1));

    /** The repository under test. */
    protected abstract InterruptionRepository newRepository();

    private InterruptionRepository interruptions;
    private String group;

    @BeforeEach
    void repository() {
        interruptions = newRepository();
        group = ContractSupport.unique("interruptions");
    }

    @Test
    void anInterruptionIsRecordedOnce() {
        Interruption i = new Interruption(group, "i-1", "c5.large", T0);
        assertThat(interruptions.record(i, EXPIRES)).isTrue();
        assertThat(interruptions.record(i, EXPIRES)).isFalse();
        assertThat(interruptions.record(new Interruption(group, "i-1", "m5.large", T0), EXPIRES.plusSeconds(1)))
                .as("the same warning, however described").isFalse();
        assertThat(interruptions.since(group, T0)).containsExactly(i);

        assertThat(interruptions.record(new Interruption(group, "i-1", "c5.large", T0.plusMillis(1)), EXPIRES))
                .as("another warning for the instance").isTrue();
        assertThat(interruptions.record(new Interruption(group, "i-2", "c5.large", T0), EXPIRES)).isTrue();
        assertThat(interruptions.record(new Interruption(group + "-other", "i-1", "c5.large", T0), EXPIRES)).isTrue();
        assertThat(interruptions.since(group, T0)).hasSize(3);
    }

    @Test
    void sinceReadsTheGroupsInterruptionsFromATimeOnInTimeOrder() {
        Interruption late = new Interruption(group, "i-a", "c5.large", T0.plusSeconds(600));
        Interruption first = new Interruption(group, "i-z", "c5.large", T0);
        Interruption sameTime = new Interruption(group, "i-b", "m5.large", T0.plusSeconds(600));
        Interruption elsewhere = new Interruption(group + "-other", "i-c", "r5.large", T0.plusSeconds(300));
        for (Interruption i : new Interruption[] {late, first, sameTime, elsewhere}) {
            assertThat(interruptions.record(i, EXPIRES)).isTrue();
        }

        assertThat(interruptions.since(group, T0.minusSeconds(1))).containsExactly(first, late, sameTime);
        assertThat(interruptions.since(group, T0)).as("from is inclusive").containsExactly(first, late, sameTime);
        assertThat(interruptions.since(group, T0.plusMillis(1))).containsExactly(late, sameTime);
        assertThat(interruptions.since(group, T0.plusSeconds(600))).containsExactly(late, sameTime);
        assertThat(interruptions.since(group, T0.plusSeconds(601))).isEmpty();
        assertThat(interruptions.since(group + "-none", T0)).isEmpty();
    }

    @Test
    void theTimeIsKeptToTheMillisecond() {
        interruptions.record(new Interruption(group, "i-1", "c5.large", T0.plusNanos(1_999_999)), EXPIRES);
        assertThat(interruptions.since(group, T0)).containsExactly(new Interruption(group, "i-1", "c5.large",
                T0.plusMillis(1)));
        assertThat(interruptions.record(new Interruption(group, "i-1", "c5.large", T0.plusMillis(1)), EXPIRES))
                .as("the same millisecond is the same warning").isFalse();
    }
}

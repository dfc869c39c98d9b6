package io.gamefleet.domain.contracts;

import static io.gamefleet.domain.contracts.ContractSupport.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.StandbyPolicy;
import io.gamefleet.domain.StandbyPolicy.Buffer;
import io.gamefleet.domain.StandbyPolicy.DynamicTier;
import io.gamefleet.domain.StandbyPolicy.Window;
import io.gamefleet.domain.StandbyRepository;
import io.gamefleet.domain.StandbyRepository.Standby;
import io.gamefleet.domain.StandbyState;
import io.gamefleet.domain.StandbyState.Evaluation;
import io.gamefleet.domain.StandbyState.HeldTier;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Standby policies and their evaluations' state ({@link io.gamefleet.domain.StandbyScaler}), through the port only. */
public abstract class StandbyRepositoryContract {
    protected abstract StandbyRepository newRepository();

    private StandbyRepository standby;
    private String group;

    private static final StandbyPolicy POLICY = new StandbyPolicy(Buffer.percentOfServers(20),
            List.of(new DynamicTier(50, 2), new DynamicTier(12.5, 4.5)), Duration.ofMinutes(10),
            List.of(new Window(T0, T0.plusSeconds(3600), Buffer.count(40)),
                    new Window(T0.plusSeconds(7200), T0.plusSeconds(9000), Buffer.count(0))),
            Duration.ofSeconds(90));

    @BeforeEach
    void repository() {
        standby = newRepository();
        group = ContractSupport.unique("standby");
    }

    @Test
    void aPutPolicyIsReadBackWholeWithItsGroupsCreationAndRevision() {
        assertThat(standby.find(group)).isEmpty();
        standby.put(group, new Standby(T0, "r1", POLICY, StandbyState.initial()));

        Standby read = standby.find(group).orElseThrow();
        assertThat(read).isEqualTo(new Standby(T0, "r1", POLICY, StandbyState.initial()));
        assertThat(standby.find(ContractSupport.unique("other"))).isEmpty();
    }

    @Test
    void stateIsSavedOnlyForTheRevisionItWasEvaluatedWith() {
        standby.put(group, new Standby(T0, "r1", POLICY, StandbyState.initial()));
        StandbyState state = new StandbyState(Optional.of(T0.plusSeconds(5)),
                Optional.of(new HeldTier(4.5, T0.plusSeconds(600))),
                Optional.of(new Evaluation(T0.plusSeconds(5), 27, 3, 24, 8, 7, 4.5)), true);

        assertThat(standby.saveState(group, "r1", state)).isTrue();
        assertThat(standby.find(group).orElseThrow().state()).isEqualTo(state);

        // A put meanwhile (a new revision) is not overwritten by an evaluation of the old one.
        standby.put(group, new Standby(T0, "r2", StandbyPolicy.none(), StandbyState.initial()));
        assertThat(standby.saveState(group, "r1", state)).isFalse();
        assertThat(standby.find(group).orElseThrow()).isEqualTo(
                new Standby(T0, "r2", StandbyPolicy.none(), StandbyState.initial()));
        assertThat(standby.saveState(ContractSupport.unique("none"), "r1", state)).isFalse();
    }

    @Test
    void anEvaluationAloneIsSavedBesideTheRestOfTheState() {
        StandbyState state = new StandbyState(Optional.of(T0.plusSeconds(5)), Optional.empty(),
                Optional.of(new Evaluation(T0.plusSeconds(5), 10, 10, 0, 4, 3, 1)), true);
        standby.put(group, new Standby(T0, "r1", POLICY, state));
        Evaluation later = new Evaluation(T0.plusSeconds(9), 10, 2, 8, 4, 5, 1.5);

        assertThat(standby.saveEvaluation(group, "r1", later)).isTrue();
        assertThat(standby.find(group).orElseThrow().state()).isEqualTo(new StandbyState(state.surplusSince(),
                Optional.empty(), Optional.of(later), true));
        assertThat(standby.saveEvaluation(group, "r0", later)).isFalse();
    }
}

package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gamefleet.domain.GameServerService.Registration;
import io.gamefleet.domain.fakes.FakeCompute;
import io.gamefleet.domain.fakes.InMemoryInstanceRepository;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Registration on an instance Gamefleet has not recorded yet: Auto Scaling is asked only for an
 * administrator or the instance's own game server process, and once per unknown instance.
 */
class RegistrationTest {
    private static final String LAUNCHED = "i-0aaaaaaaaaaaaaaaa";
    private static final String MADE_UP = "i-0bbbbbbbbbbbbbbbb";

    private final Fleet fleet = new Fleet();
    private final FakeCompute compute = fleet.compute;
    private final InMemoryInstanceRepository instances = fleet.instances;
    /** One service throughout: what it asked of Auto Scaling is remembered in it. */
    private final GameServerService service = fleet.gameServers();
    private int serial;

    @BeforeEach
    void anActiveGroupWhoseScalingGroupLaunchedAnInstanceSinceTheBalancerLooked() {
        fleet.activeGroup();
        fleet.replacement(GROUP, LAUNCHED, C5, true);
    }

    private GameServer register(String instanceId, Caller caller) {
        return service.register(new Registration(GROUP, "gs-" + serial++, instanceId, Optional.empty(),
                Optional.empty()), caller);
    }

    private GamefleetException refused(String instanceId, Caller caller) {
        return catchThrowableOfType(() -> register(instanceId, caller), GamefleetException.class);
    }

    private int describes() {
        return compute.calls(FakeCompute.DESCRIBE_SCALING_GROUP).size();
    }

    @Test
    void aCallerOfNoStandingNeverMakesItAskAutoScaling() {
        // A session of some other role may be named after any instance: that binds it, but proves nothing.
        Caller namedAfterTheInstance = new Caller(Optional.of(LAUNCHED), false, false);
        for (int attempt = 0; attempt < 3; attempt++) {
            assertNotYetKnown(refused(LAUNCHED, Caller.UNBOUND), LAUNCHED);
            assertNotYetKnown(refused(MADE_UP, Caller.UNBOUND), MADE_UP);
            assertNotYetKnown(refused(LAUNCHED, namedAfterTheInstance), LAUNCHED);
        }
        assertThat(describes()).isZero();
        assertThat(instances.find(GROUP, LAUNCHED)).isEmpty();
    }

    private static void assertNotYetKnown(GamefleetException e, String instance) {
        assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_REQUEST);
        assertThat(e.getMessage()).contains("InstanceId " + instance + " is not yet known to game server group arena")
                .contains("within one balancer period").contains("instance's own game server process");
    }

    @Test
    void theInstancesOwnProcessHasItAskedAndRecorded() {
        GameServer first = register(LAUNCHED, Caller.onInstance(LAUNCHED));
        assertThat(first.instanceStatus()).isEqualTo(InstanceStatus.ACTIVE);
        assertThat(instances.find(GROUP, LAUNCHED)).isPresent();
        assertThat(describes()).isEqualTo(1);
        // Recorded: anyone registers on it now, without asking again.
        register(LAUNCHED, Caller.UNBOUND);
        assertThat(describes()).isEqualTo(1);
    }

    @Test
    void anAdministratorHasAnUnknownInstanceAskedAboutOnce() {
        for (int attempt = 0; attempt < 3; attempt++) {
            GamefleetException e = refused(MADE_UP, Caller.ADMINISTRATOR);
            assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_REQUEST);
            assertThat(e.getMessage()).contains("InstanceId " + MADE_UP);
        }
        assertThat(describes()).as("asked once, however often it is named").isEqualTo(1);

        // Another unknown instance is asked about once too; a launched one is recorded.
        register(LAUNCHED, Caller.ADMINISTRATOR);
        assertThat(describes()).isEqualTo(2);
        assertThat(instances.find(GROUP, LAUNCHED)).isPresent();
    }

    @Test
    void aFailedQuestionMayBeAskedAgain() {
        compute.failNext(FakeCompute.DESCRIBE_SCALING_GROUP, true);
        catchThrowableOfType(() -> register(LAUNCHED, Caller.ADMINISTRATOR), Compute.ComputeException.class);
        register(LAUNCHED, Caller.ADMINISTRATOR);
        assertThat(describes()).isEqualTo(2);
    }

    @Test
    void theAskedInstancesStayBounded() {
        GameServerService.AskedInstances asked = new GameServerService.AskedInstances(2);
        assertThat(asked.firstAsk("a")).isTrue();
        assertThat(asked.firstAsk("a")).isFalse();
        asked.firstAsk("b");
        asked.firstAsk("c"); // pushes out "a", the least recently asked
        assertThat(asked.firstAsk("c")).isFalse();
        assertThat(asked.firstAsk("a")).isTrue();
    }
}

package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static io.gamefleet.domain.Fleet.SETTINGS;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.GameServerRepository.ClaimCondition;
import io.gamefleet.domain.SessionService.SessionView;
import io.gamefleet.domain.fakes.InMemorySessionRepository;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Sessions on the fakes: the races a duplicate request can lose, and how long a session is kept. */
class SessionServiceTest {
    private static final String ID = "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b";

    private final Fleet fleet = new Fleet();
    private final InMemorySessionRepository stored = new InMemorySessionRepository(fleet.servers);
    /** Misses the stored session once, as a request whose read came just before a duplicate's write does. */
    private final AtomicBoolean missOnce = new AtomicBoolean();
    private final SessionRepository sessions = new SessionRepository() {
        @Override
        public Optional<Session> find(String sessionId) {
            return missOnce.getAndSet(false) ? Optional.empty() : stored.find(sessionId);
        }

        @Override
        public Outcome claim(Session session, GameServer candidate, ClaimCondition condition) {
            return stored.claim(session, candidate, condition);
        }
    };
    private final GameServerService gameServers = fleet.gameServers();
    private final SessionService service = new SessionService(gameServers, fleet.servers, sessions, SETTINGS, fleet.clock);

    @BeforeEach
    void aGroupWithTwoServers() {
        fleet.activeGroup();
        fleet.launch(GROUP, "i-1", C5, fleet.clock.instant().minus(Duration.ofHours(1)));
        fleet.register("gs-1", "i-1");
        fleet.register("gs-2", "i-1");
    }

    private SessionView create() {
        return service.create(GROUP, ID, Optional.of("c"), List.of("p1"), Optional.empty());
    }

    private long claimed() {
        return fleet.servers.listAll(GROUP).stream().filter(s -> s.isClaimedAt(fleet.clock.instant())).count();
    }

    @Test
    void aDuplicateThatStoredTheSessionAfterThisOnesReadIsAnsweredAndNothingMoreIsClaimed() {
        String first = create().session().gameServerId();
        missOnce.set(true);

        SessionView again = create();

        assertThat(again.session().gameServerId()).isEqualTo(first);
        assertThat(again.state()).isEqualTo(SessionState.CLAIMED);
        assertThat(claimed()).as("its transaction found the session: no second claim").isEqualTo(1);
    }

    @Test
    void aDuplicateThatTookTheLastServerIsAnsweredNotOutOfCapacity() {
        String first = create().session().gameServerId();
        fleet.claim(GROUP); // the other server goes to a ClaimGameServer
        fleet.clock.advance(Duration.ofSeconds(1)); // past the candidates a container keeps: none is left to try
        missOnce.set(true);

        assertThat(create().session().gameServerId()).isEqualTo(first);
        assertThat(claimed()).isEqualTo(2);
    }

    @Test
    void aSessionIsKeptADayPastItsInstancesEnd() {
        Session session = create().session();
        GameServerInstance instance = fleet.instances.find(GROUP, "i-1").orElseThrow();
        assertThat(session.keepUntil()).isEqualTo(instance.launchTime().plus(Fleet.LIFETIME.max()).plus(Duration.ofDays(1)));
        assertThat(fleet.notifier.delivered()).allSatisfy(n -> assertThat(n.session()).contains(session));
    }
}

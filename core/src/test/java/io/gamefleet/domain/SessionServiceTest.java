package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static io.gamefleet.domain.Fleet.SETTINGS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.domain.GameServerRepository.ClaimCondition;
import io.gamefleet.domain.SessionService.SessionView;
import io.gamefleet.domain.fakes.InMemorySessionRepository;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Sessions on the fakes: the races a duplicate request can lose, and how long a session is kept. */
class SessionServiceTest {
    private static final String ID = "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b";

    private final Fleet fleet = new Fleet();
    private final InMemorySessionRepository stored = new InMemorySessionRepository(fleet.servers);
    /** The calls a request makes of the sessions' store, in order. */
    private final List<String> calls = new java.util.ArrayList<>();
    private final SessionRepository sessions = new SessionRepository() {
        @Override
        public Optional<Session> find(String sessionId) {
            calls.add("find");
            return stored.find(sessionId);
        }

        @Override
        public Outcome claim(Session session, GameServer candidate, ClaimCondition condition) {
            calls.add("claim");
            return stored.claim(session, candidate, condition);
        }

        @Override
        public Page<Session> listByGroup(String group, int limit, Optional<String> cursor) {
            return stored.listByGroup(group, limit, cursor);
        }
    };
    private final GameServerService gameServers = fleet.gameServers();
    private final SessionService service = new SessionService(gameServers, fleet.groups, fleet.servers, sessions,
            fleet.tokens, SETTINGS, fleet.clock);

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
    void aFirstRequestClaimsWithNoReadFirstAndARetrysTransactionFindsTheSession() {
        String first = create().session().gameServerId();
        assertThat(calls).as("one transaction, no read of the session before it").containsExactly("claim");
        calls.clear();

        SessionView again = create();

        assertThat(again.session().gameServerId()).isEqualTo(first);
        assertThat(again.state()).isEqualTo(SessionState.CLAIMED);
        assertThat(calls).as("its transaction was refused by the stored session").containsExactly("claim");
        assertThat(claimed()).as("no second claim").isEqualTo(1);
    }

    @Test
    void aRetryWhenNoServerIsLeftIsAnsweredNotOutOfCapacity() {
        String first = create().session().gameServerId();
        fleet.claim(GROUP); // the other server goes to a ClaimGameServer
        fleet.clock.advance(Duration.ofSeconds(1)); // past the candidates a container keeps: none is left to try

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

    @Test
    void aListingAnswersEachKeptSessionAsItIsNowNewestFirstInSignedPages() {
        String other = "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f";
        create();
        fleet.clock.advance(Duration.ofSeconds(1));
        SessionView second = service.create(GROUP, other, Optional.empty(), List.of(), Optional.empty());
        fleet.servers.update(GROUP, second.session().gameServerId(), Optional.empty(),
                new GameServerRepository.ServerUpdate(Optional.empty(), Optional.of(UtilizationStatus.UTILIZED),
                        Optional.empty()));

        Page<SessionView> page = service.list(GROUP, 1, Optional.empty());
        Page<SessionView> next = service.list(GROUP, 1, page.cursor());

        assertThat(page.items()).extracting(v -> v.session().sessionId(), SessionView::state)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(other, SessionState.ACTIVE));
        assertThat(page.items().get(0).server()).isPresent();
        assertThat(next.items()).extracting(v -> v.session().sessionId()).containsExactly(ID);
        assertThat(page.cursor().orElseThrow()).as("signed, not the store's cursor").isNotEqualTo(other);
        assertThatThrownBy(() -> service.list(GROUP, 1, Optional.of(other)))
                .hasMessageContaining("NextToken is not a token this listing issued");
    }

    @Test
    void aSessionPastItsKeepUntilThatTheStoreHasNotForgottenIsNotListed() {
        SessionView kept = create();
        fleet.register("gs-3", "i-1");
        GameServer server = fleet.servers.find("gs-3").orElseThrow();
        java.time.Instant now = fleet.clock.instant();
        Session forgotten = new Session(new Session.Request("7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f", GROUP, null, List.of(),
                java.util.Set.of(InstanceStatus.ACTIVE)), "gs-3", now, now.plusSeconds(60), now.plusSeconds(1));
        stored.claim(forgotten, server, new ClaimCondition(now, now.minusSeconds(60), java.util.Set.of(InstanceStatus.ACTIVE)));
        assertThat(service.list(GROUP, 10, Optional.empty()).items()).hasSize(2);

        fleet.clock.advance(Duration.ofSeconds(1));

        assertThat(service.list(GROUP, 10, Optional.empty()).items()).extracting(v -> v.session().sessionId())
                .containsExactly(kept.session().sessionId());
    }

    @Test
    void aListingOfAnUnknownGroupIsNotFound() {
        assertThatThrownBy(() -> service.list("no-such-group", 10, Optional.empty()))
                .isInstanceOfSatisfying(GamefleetException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.NOT_FOUND));
    }

    @Test
    void aGameServerReadsItsServersSessionWhileTheServersClaimIsTheSessions() {
        Session session = create().session();
        String server = session.gameServerId();

        Session read = service.ofServer(GROUP, server, Caller.onInstance("i-1"));

        assertThat(read.sessionId()).isEqualTo(ID);
        assertThat(read.request().sessionCookie()).isEqualTo("c");
        assertThat(read.request().initialPlayers()).containsExactly("p1");
        assertThat(service.ofServer(GROUP, server, Caller.ADMINISTRATOR).sessionId()).isEqualTo(ID);
        String other = server.equals("gs-1") ? "gs-2" : "gs-1";
        assertThatThrownBy(() -> service.ofServer(GROUP, other, Caller.onInstance("i-1"))).as("never claimed")
                .isInstanceOfSatisfying(GamefleetException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.NOT_FOUND));
    }

    @Test
    void aClaimGameServerAfterTheSessionsClaimLapsedLeavesTheServerNoSession() {
        String server = create().session().gameServerId();
        fleet.servers.listAll(GROUP).stream().filter(s -> !s.gameServerId().equals(server))
                .forEach(s -> fleet.utilize(s.gameServerId())); // the only claimable server is the session's
        fleet.clock.advance(Fleet.CLAIM_TTL.plusSeconds(1));
        fleet.heartbeat(server);
        assertThat(fleet.claim(GROUP).gameServerId()).isEqualTo(server);

        assertThat(fleet.servers.find(server).orElseThrow().claimSessionId()).as("removed by the plain claim").isNull();
        assertThatThrownBy(() -> service.ofServer(GROUP, server, Caller.onInstance("i-1")))
                .isInstanceOfSatisfying(GamefleetException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ErrorKind.NOT_FOUND);
                    assertThat(e.getMessage()).contains("current claim is no session's");
                });
    }

    @Test
    void onlyTheProcessOnTheServersOwnInstanceOrAnAdministratorReadsItAndOthersReadNothing() {
        String server = create().session().gameServerId();
        calls.clear();
        for (Caller refused : List.of(Caller.onInstance("i-2"), Caller.UNBOUND,
                new Caller(Optional.of("i-1"), false, false))) {
            assertThatThrownBy(() -> service.ofServer(GROUP, server, refused)).as(refused.toString())
                    .isInstanceOfSatisfying(GamefleetException.class,
                            e -> assertThat(e.kind()).isEqualTo(ErrorKind.UNAUTHORIZED));
        }
        assertThat(calls).as("no session read for a caller refused").isEmpty();
    }
}

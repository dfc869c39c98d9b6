package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static io.gamefleet.domain.Fleet.SETTINGS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.domain.GameServerRepository.ClaimCondition;
import io.gamefleet.domain.SessionService.SessionView;
import io.gamefleet.domain.PeerRegions.Answer;
import io.gamefleet.domain.SessionService.Placed;
import io.gamefleet.domain.fakes.FakePeerRegions;
import io.gamefleet.domain.fakes.InMemorySessionRepository;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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

        @Override
        public Optional<Session> place(Session placed) {
            calls.add("place");
            return stored.place(placed);
        }
    };
    private final FakePeerRegions peers = new FakePeerRegions();
    private final GameServerService gameServers = fleet.gameServers();
    private final SessionService service = new SessionService(gameServers, fleet.groups, fleet.servers, sessions,
            peers, fleet.tokens, SETTINGS, fleet.clock);

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

    // Placement across regions: the home is us-east-1 (SETTINGS), its peer eu-west-1.

    private static final String EU = "eu-west-1";

    private Placed place(Placement placement) {
        return service.place(GROUP, ID, Optional.of("c"), List.of("p1"), Optional.empty(), placement);
    }

    private static Placement preferring(String... regions) {
        return new Placement(List.of(regions), Map.of(), Optional.empty());
    }

    private void peerPlaces() {
        peers.add(EU, request -> new Answer.Placed("eu-gs-1", "{\"Session\":{\"SessionId\":\"" + request.sessionId()
                + "\",\"Region\":\"eu-west-1\",\"GameServerId\":\"eu-gs-1\"}}"));
    }

    private void noServerLeftHere() {
        fleet.claim(GROUP);
        fleet.claim(GROUP);
        fleet.clock.advance(Duration.ofSeconds(1));
    }

    @Test
    void aSessionPreferringAPeerIsPlacedThereAndARetryHereAnswersTheSameServerThere() {
        peerPlaces();

        Placed placed = place(preferring(EU, "us-east-1"));

        assertThat(placed).isInstanceOfSatisfying(Placed.Elsewhere.class, e -> {
            assertThat(e.region()).isEqualTo(EU);
            assertThat(e.body()).contains("eu-gs-1");
        });
        assertThat(claimed()).as("nothing claimed at home").isZero();
        assertThat(peers.asked).singleElement().satisfies(a -> assertThat(a.request().sessionCookie()).isEqualTo("c"));
        assertThat(calls).containsExactly("find", "place");

        // A retry with no preference, or preferring home first, is the same session's answer, from its region.
        assertThat(place(Placement.HOME)).isInstanceOf(Placed.Elsewhere.class);
        assertThat(place(preferring("us-east-1", EU))).isInstanceOf(Placed.Elsewhere.class);
        assertThat(claimed()).isZero();
        assertThat(peers.asked).hasSize(3).allSatisfy(a -> assertThat(a.region()).isEqualTo(EU));
        assertThatThrownBy(() -> service.describe(GROUP, ID)).hasMessageContaining("was placed in region eu-west-1");
        assertThat(service.list(GROUP, 10, Optional.empty()).items()).as("not this region's").isEmpty();
    }

    @Test
    void aSessionGoesToTheNextRegionWhenTheFirstHasNoServerAndARetryIsAnsweredWhereItWent() {
        noServerLeftHere();
        peerPlaces();

        assertThat(place(preferring("us-east-1", EU))).isInstanceOf(Placed.Elsewhere.class);

        peers.answer(EU, request -> new Answer.Refused("did not answer within 1000 ms"));
        assertThatThrownBy(() -> place(preferring("us-east-1", EU)))
                .as("placed in eu-west-1, which does not answer now: safe to retry, not placed again here")
                .isInstanceOfSatisfying(GamefleetException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ErrorKind.INTERNAL);
                    assertThat(e.getMessage()).contains("was placed in eu-west-1, which did not answer within 1000 ms");
                });
    }

    @Test
    void aPeerThatDoesNotAnswerIsSkippedAndARetryIsAnsweredHereWithoutAskingIt() {
        peers.add(EU, request -> new Answer.Refused("did not answer within 1000 ms"));

        Placed placed = place(preferring(EU, "us-east-1"));

        assertThat(placed).isInstanceOf(Placed.Here.class);
        assertThat(claimed()).isEqualTo(1);
        assertThat(place(preferring(EU, "us-east-1"))).isInstanceOfSatisfying(Placed.Here.class, h ->
                assertThat(h.view().session().gameServerId())
                        .isEqualTo(((Placed.Here) placed).view().session().gameServerId()));
        assertThat(peers.asked).as("the retry found its session here first").hasSize(1);
        assertThat(claimed()).isEqualTo(1);
    }

    @Test
    void byLatencyTheLowestRegionUnderTheCapIsTriedFirst() {
        peerPlaces();
        Placement latencies = new Placement(List.of(), Map.of("us-east-1", 80, EU, 20), Optional.of(100));

        assertThat(latencies.order("us-east-1", List.of(EU))).containsExactly(EU, "us-east-1");
        assertThat(new Placement(List.of(), Map.of("us-east-1", 80, EU, 20), Optional.of(50))
                .order("us-east-1", List.of(EU))).containsExactly(EU);
        assertThat(new Placement(List.of("us-east-1", EU), Map.of(EU, 20), Optional.of(50))
                .order("us-east-1", List.of(EU))).as("a preference the cap leaves out, or not measured, is dropped")
                .containsExactly(EU);
        assertThat(place(latencies)).isInstanceOf(Placed.Elsewhere.class);
    }

    @Test
    void noRegionWithAServerIsOutOfCapacityListingWhatEachSaidWithNothingStored() {
        noServerLeftHere();
        peers.add(EU, request -> new Answer.Refused("answered 400 OutOfCapacityException: no game server"));

        assertThatThrownBy(() -> place(preferring(EU, "us-east-1")))
                .isInstanceOfSatisfying(GamefleetException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ErrorKind.OUT_OF_CAPACITY);
                    assertThat(e.getMessage()).contains("eu-west-1: answered 400 OutOfCapacityException")
                            .contains("us-east-1: ");
                });
        assertThat(stored.find(ID)).isEmpty();
    }

    @Test
    void aRegionNotOfTheDeploymentOrAConflictingRetryIsRefusedWithNothingAsked() {
        peerPlaces();
        for (Placement bad : List.of(preferring("ap-south-1"), preferring(EU, EU),
                new Placement(List.of(), Map.of(EU, 200), Optional.of(100)),
                new Placement(List.of(EU), Map.of(), Optional.of(100)))) {
            assertThatThrownBy(() -> place(bad)).as(bad.toString()).isInstanceOfSatisfying(GamefleetException.class,
                    e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_REQUEST));
        }
        assertThat(peers.asked).isEmpty();

        place(preferring(EU));
        assertThatThrownBy(() -> service.place(GROUP, ID, Optional.of("other"), List.of("p1"), Optional.empty(),
                preferring(EU))).isInstanceOfSatisfying(GamefleetException.class,
                        e -> assertThat(e.kind()).isEqualTo(ErrorKind.CONFLICT));
        assertThat(peers.asked).hasSize(1);
    }
}

package io.gamefleet.domain.contracts;

import static io.gamefleet.domain.contracts.ContractSupport.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerRepository;
import io.gamefleet.domain.GameServerRepository.ClaimCondition;
import io.gamefleet.domain.GroupRepository;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.Page;
import io.gamefleet.domain.Session;
import io.gamefleet.domain.SessionRepository;
import io.gamefleet.domain.SessionRepository.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Sessions and their claims ({@link io.gamefleet.domain.SessionService}), through the ports only. */
public abstract class SessionRepositoryContract {
    private static final int GROUP_MAX_SIZE = 1_000;
    private static final int ON_ONE_INSTANCE = 1_000;
    private static final Instant NOW = T0.plusSeconds(10);

    protected abstract GameServerRepository newRepository();

    /** The sessions of {@code servers}: their claims write those servers. */
    protected abstract SessionRepository newSessionRepository(GameServerRepository servers);

    /** A group repository whose writes keep the gates that {@link #newRepository()} reads. */
    protected abstract GroupRepository newGroupRepository();

    private GameServerRepository servers;
    private SessionRepository sessions;
    private String group;

    @BeforeEach
    void repositories() {
        servers = newRepository();
        sessions = newSessionRepository(servers);
        GroupRepository groups = newGroupRepository();
        group = ContractSupport.unique("sessions");
        GameServerGroup g = GameServerGroup.builder().name(group).creationTime(T0).lastUpdatedTime(T0)
                .maxSize(GROUP_MAX_SIZE).build();
        groups.create(g);
        groups.update(g.toBuilder().status(GameServerGroupStatus.ACTIVE).build());
    }

    private GameServer registered(String name) {
        GameServer s = GameServer.builder().gameServerGroupName(group).gameServerId(group + "-" + name)
                .instanceId(group + "-i1").connectionInfo("10.0.0.1:7777").registrationTime(T0).lastHealthCheckTime(T0)
                .instanceStatus(InstanceStatus.ACTIVE).instanceLaunchTime(T0.minusSeconds(3600)).build();
        servers.register(s, GROUP_MAX_SIZE, ON_ONE_INSTANCE);
        return s;
    }

    private static ClaimCondition condition() {
        return new ClaimCondition(NOW, NOW.minus(Duration.ofSeconds(180)), EnumSet.of(InstanceStatus.ACTIVE));
    }

    private Session session(String id, GameServer on, String cookie, List<String> players) {
        return session(id, on, cookie, players, NOW);
    }

    private Session session(String id, GameServer on, String cookie, List<String> players, Instant claimTime) {
        return new Session(new Session.Request(id, group, cookie, players, EnumSet.of(InstanceStatus.ACTIVE, InstanceStatus.DRAINING)),
                on.gameServerId(), claimTime, claimTime.plusSeconds(60), claimTime.plus(Duration.ofDays(30)));
    }

    private ClaimCondition conditionAt(Instant now) {
        return new ClaimCondition(now, now.minus(Duration.ofSeconds(180)), EnumSet.of(InstanceStatus.ACTIVE));
    }

    @Test
    void aGroupsSessionsAreListedNewestFirstInPagesAndNoOtherGroupsAre() {
        // five sessions, the last two claimed at the same moment (the greater id first), each its own server
        List<Session> stored = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            GameServer s = registered("l" + i);
            Instant at = NOW.plusSeconds(Math.min(i, 3)); // (kept to the second: a TTL's)
            Session session = session(group + "-list-" + i, s, i == 0 ? "c" : null, List.of("p" + i), at);
            assertThat(sessions.claim(session, s, conditionAt(at))).isInstanceOf(Outcome.Claimed.class);
            stored.add(session);
        }
        List<Session> newestFirst = List.of(stored.get(4), stored.get(3), stored.get(2), stored.get(1), stored.get(0));

        Page<Session> first = sessions.listByGroup(group, 2, Optional.empty());
        Page<Session> second = sessions.listByGroup(group, 2, first.cursor());
        Page<Session> last = sessions.listByGroup(group, 2, second.cursor());

        assertThat(first.items()).containsExactlyElementsOf(newestFirst.subList(0, 2));
        assertThat(second.items()).containsExactlyElementsOf(newestFirst.subList(2, 4));
        assertThat(last.items()).containsExactly(newestFirst.get(4));
        assertThat(last.cursor()).as("a page short of its limit is the last").isEmpty();
        assertThat(sessions.listByGroup(group, 5, Optional.empty()).items()).containsExactlyElementsOf(newestFirst);
        assertThat(sessions.listByGroup(group + "-other", 5, Optional.empty()).items()).isEmpty();
    }

    @Test
    void aClaimStoresTheSessionAndClaimsItsServerAsAClaimDoes() {
        GameServer s = registered("s1");
        // as a claim finds it: the claim index's candidate
        GameServer candidate = servers.claimCandidates(group, InstanceStatus.ACTIVE, NOW, NOW.minusSeconds(180), 10)
                .servers().get(0);
        Session session = session(group + "-a", candidate, "cookie \u00e9", List.of("p1", "p2"));

        Outcome outcome = sessions.claim(session, candidate, condition());

        assertThat(outcome).isInstanceOf(Outcome.Claimed.class);
        GameServer claimed = ((Outcome.Claimed) outcome).server();
        assertThat(claimed.gameServerId()).isEqualTo(s.gameServerId());
        assertThat(claimed.instanceId()).isEqualTo(s.instanceId());
        assertThat(claimed.connectionInfo()).isEqualTo("10.0.0.1:7777");
        assertThat(claimed.claimExpiresAt()).isEqualTo(NOW.plusSeconds(60));
        assertThat(claimed.lastClaimTime()).isEqualTo(NOW);
        assertThat(servers.find(s.gameServerId()).orElseThrow().isClaimedAt(NOW)).isTrue();
        assertThat(sessions.find(session.sessionId())).contains(session);
        assertThat(session.stateWith(servers.find(s.gameServerId()), NOW)).hasToString("CLAIMED");
        assertThat(claimed.claimSessionId()).as("the claim names its session").isEqualTo(session.sessionId());
        assertThat(servers.find(s.gameServerId()).orElseThrow().claimSessionId()).isEqualTo(session.sessionId());
    }

    @Test
    void aClaimGameServersClaimAfterASessionsLeavesTheServerNamingNoSession() {
        GameServer s = registered("s1");
        sessions.claim(session(group + "-e", s, "cookie", List.of("p1")), s, condition());
        Instant later = NOW.plusSeconds(61); // the session's claim lapsed
        servers.update(group, s.gameServerId(), Optional.empty(), new GameServerRepository.ServerUpdate(Optional.empty(),
                Optional.empty(), Optional.of(later)));
        ClaimCondition afterIt = new ClaimCondition(later, later.minusSeconds(180), EnumSet.of(InstanceStatus.ACTIVE));

        GameServer claimed = servers.tryClaim(s, afterIt, later.plusSeconds(60), Optional.empty()).orElseThrow();

        assertThat(claimed.claimSessionId()).isNull();
        assertThat(servers.find(s.gameServerId()).orElseThrow().claimSessionId()).isNull();
        Session next = session(group + "-f", s, null, List.of(), later.plusSeconds(121));
        ClaimCondition third = new ClaimCondition(next.claimTime(), next.claimTime().minusSeconds(180),
                EnumSet.of(InstanceStatus.ACTIVE));
        servers.update(group, s.gameServerId(), Optional.empty(), new GameServerRepository.ServerUpdate(Optional.empty(),
                Optional.empty(), Optional.of(next.claimTime())));
        sessions.claim(next, s, third);
        assertThat(servers.find(s.gameServerId()).orElseThrow().claimSessionId()).as("the next session's").isEqualTo(next.sessionId());
    }

    @Test
    void aSessionWithNoCookieAndNoPlayersIsKeptAsItCame() {
        GameServer s = registered("s1");
        Session session = session(group + "-b", s, null, List.of());

        sessions.claim(session, s, condition());

        assertThat(sessions.find(session.sessionId())).contains(session);
        assertThat(sessions.find(group + "-unknown")).isEmpty();
    }

    @Test
    void aStoredSessionsIdClaimsNothingMoreAndAnswersTheStoredSession() {
        GameServer s1 = registered("s1");
        GameServer s2 = registered("s2");
        Session first = session(group + "-c", s1, "one", List.of());
        sessions.claim(first, s1, condition());

        Outcome again = sessions.claim(session(group + "-c", s2, "two", List.of("p")), s2, condition());

        assertThat(again).isEqualTo(new Outcome.Exists(first));
        assertThat(servers.find(s2.gameServerId()).orElseThrow().claimExpiresAt()).as("s2 not claimed").isNull();
    }

    @Test
    void aServerThatCannotBeClaimedStoresNoSession() {
        GameServer s = registered("s1");
        servers.tryClaim(s, condition(), NOW.plusSeconds(60), Optional.empty());
        Session session = session(group + "-d", s, null, List.of());

        assertThat(sessions.claim(session, s, condition())).isEqualTo(new Outcome.NotClaimed());

        assertThat(sessions.find(session.sessionId())).isEmpty();
    }

    @Test
    void concurrentRequestsOfOneSessionIdClaimExactlyOneServer() throws Exception {
        int requests = 8;
        List<GameServer> candidates = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            candidates.add(registered("c" + i));
        }
        String id = group + "-e";
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(requests);
        try {
            List<Future<Outcome>> outcomes = new ArrayList<>();
            for (GameServer candidate : candidates) {
                Callable<Outcome> claim = () -> {
                    start.await();
                    return sessions.claim(session(id, candidate, null, List.of()), candidate, condition());
                };
                outcomes.add(pool.submit(claim));
            }
            start.countDown();
            List<Outcome> results = new ArrayList<>();
            for (Future<Outcome> f : outcomes) {
                results.add(f.get(30, TimeUnit.SECONDS));
            }
            assertThat(results).filteredOn(o -> o instanceof Outcome.Claimed).hasSize(1);
            Session stored = sessions.find(id).orElseThrow();
            assertThat(results).filteredOn(o -> o instanceof Outcome.Exists)
                    .allMatch(o -> ((Outcome.Exists) o).stored().equals(stored));
            assertThat(candidates).filteredOn(c -> servers.find(c.gameServerId()).orElseThrow().isClaimedAt(NOW))
                    .extracting(GameServer::gameServerId).containsExactly(stored.gameServerId());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aSessionPlacedInAPeerIsKeptWithItsRegionOnceAndNotListedAndRefusesAClaimOfItsId() {
        GameServer s = registered("s1");
        String id = group + "-placed";
        Session.Request request = new Session.Request(id, group, "cookie", List.of("p1"),
                EnumSet.of(InstanceStatus.ACTIVE, InstanceStatus.DRAINING));
        Session placed = Session.placedIn("eu-west-1", request, "gs-eu", NOW, NOW.plus(Duration.ofDays(30)));

        assertThat(sessions.place(placed)).isEmpty();
        assertThat(sessions.find(id)).contains(placed);
        assertThat(sessions.place(Session.placedIn("ap-south-1", request, "gs-ap", NOW, NOW.plus(Duration.ofDays(30)))))
                .as("a duplicate's placement finds the first").contains(placed);
        assertThat(sessions.claim(session(id, s, "cookie", List.of("p1")), s, condition()))
                .isEqualTo(new Outcome.Exists(placed));
        assertThat(servers.find(s.gameServerId()).orElseThrow().isClaimedAt(NOW)).isFalse();
        assertThat(sessions.listByGroup(group, 10, Optional.empty()).items()).as("another region's").isEmpty();

        Session here = session(group + "-here", s, null, List.of());
        sessions.claim(here, s, condition());
        assertThat(sessions.place(Session.placedIn("eu-west-1", here.request(), "gs-eu", NOW, NOW.plusSeconds(60))))
                .as("a session of this region's keeps its id").contains(here);
    }
}

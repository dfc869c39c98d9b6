package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.CLAIM_TTL;
import static io.gamefleet.domain.Fleet.GROUP;
import static io.gamefleet.domain.Fleet.T0;
import static io.gamefleet.domain.GameServerServiceTest.fails;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.fakes.RecordingInstanceNotifier.Notice;
import io.gamefleet.domain.fakes.RecordingMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The agents' push connections and the notices a claim and an operator's deregistration send them. */
class PushChannelTest {
    private static final String AGAIN = " (a new instance is recorded within one balancer period: connect again then)";
    private final Fleet fleet = new Fleet();
    private final PushConnections connections = fleet.pushConnections();

    @BeforeEach
    void anInstanceWithAServer() {
        fleet.activeGroup();
        fleet.launch("i-1", C5);
        fleet.launch("i-2", C5);
    }

    private String connection(String instanceId) {
        return fleet.instances.find(GROUP, instanceId).orElseThrow().pushConnectionId();
    }

    // ---- connect, disconnect ----------------------------------------------------------------

    /**
     * A connection sends 6 messages at once, then 3 a second (Fleet's share): past that it alone
     * is refused, and the other instance's connection goes on.
     */
    @Test
    void messagesPastAConnectionsFairShareAreRefusedForItAlone() {
        for (int n = 0; n < Fleet.LIMITS.pushMessages().burst(); n++) {
            connections.message("conn-1");
        }
        fails(() -> connections.message("conn-1"), ErrorKind.THROTTLED, "push connection conn-1 sent more push messages"
                + " than its fair share of the stage's throttle (6 at once, then 180.0 a minute); retry with backoff");
        connections.message("conn-2");
        fleet.clock.advance(Duration.ofMillis(334));
        connections.message("conn-1");
        fails(() -> connections.message("conn-1"), ErrorKind.THROTTLED, "push connection conn-1 sent more push messages"
                + " than its fair share of the stage's throttle (6 at once, then 180.0 a minute); retry with backoff");
    }

    @Test
    void anotherInstancesSessionOrAnUnverifiedOneIsRefusedAndNothingIsRecorded() {
        fleet.register("gs-1", "i-1");
        fails(() -> connections.connect(Caller.onInstance("i-2"), GROUP, "i-1", "conn-x", OptionalInt.empty()), ErrorKind.UNAUTHORIZED,
                "only the game server session of instance i-1 or an administrator may open its push connection");
        fails(() -> connections.connect(Caller.UNBOUND, GROUP, "i-1", "conn-x", OptionalInt.empty()), ErrorKind.UNAUTHORIZED,
                "only the game server session of instance i-1 or an administrator may open its push connection");
        // a session named after the instance, but not of the game server role: anyone may name one so
        fails(() -> connections.connect(new Caller(Optional.of("i-1"), false, false), GROUP, "i-1", "conn-x", OptionalInt.empty()),
                ErrorKind.UNAUTHORIZED,
                "only the game server session of instance i-1 or an administrator may open its push connection");
        assertThat(connection("i-1")).isNull();
        assertThat(fleet.server("gs-1").pushConnectionId()).isNull();
    }

    @Test
    void theInstancesOwnSessionOrAnAdministratorConnectsAndTheServersGetTheCopy() {
        fleet.register("gs-1", "i-1");
        fleet.register("gs-2", "i-2");
        connections.connect(Caller.onInstance("i-1"), GROUP, "i-1", "conn-1", OptionalInt.empty());
        assertThat(connection("i-1")).isEqualTo("conn-1");
        assertThat(fleet.server("gs-1").pushConnectionId()).isEqualTo("conn-1");
        assertThat(fleet.server("gs-2").pushConnectionId()).isNull();

        connections.connect(Caller.ADMINISTRATOR, GROUP, "i-1", "conn-2", OptionalInt.empty());
        assertThat(connection("i-1")).as("a newer connect replaces the older").isEqualTo("conn-2");
        assertThat(fleet.server("gs-1").pushConnectionId()).isEqualTo("conn-2");

        fleet.register("gs-3", "i-1");
        assertThat(fleet.server("gs-3").pushConnectionId()).as("copied at registration").isEqualTo("conn-2");
    }

    @Test
    void anInstanceTheGroupHasNotRecordedIsRefused() {
        fails(() -> connections.connect(Caller.onInstance("i-9"), GROUP, "i-9", "conn-9", OptionalInt.empty()), ErrorKind.NOT_FOUND,
                "instance i-9 is not recorded in game server group arena" + AGAIN);
        fails(() -> connections.connect(Caller.onInstance("i-1"), "elsewhere", "i-1", "conn-9", OptionalInt.empty()), ErrorKind.NOT_FOUND,
                "instance i-1 is not recorded in game server group elsewhere" + AGAIN);
        assertThat(fleet.instances.find(GROUP, "i-9")).isEmpty();
        assertThat(connection("i-1")).isNull();
    }

    @Test
    void aDisconnectClearsTheConnectionOnlyIfItIsStillTheInstances() {
        connections.connect(Caller.onInstance("i-1"), GROUP, "i-1", "conn-old", OptionalInt.empty());
        connections.connect(Caller.onInstance("i-1"), GROUP, "i-1", "conn-new", OptionalInt.empty());
        connections.disconnect("conn-old");
        assertThat(connection("i-1")).isEqualTo("conn-new");
        connections.disconnect("conn-new");
        assertThat(connection("i-1")).isNull();
        connections.disconnect("conn-unknown"); // nothing to clear
    }

    // ---- the claimed notice -----------------------------------------------------------------

    @Test
    void aClaimsNoticeGoesToTheInstancesConnectionWithNoReadOfTheInstance() {
        fleet.register("gs-1", "i-1");
        connections.connect(Caller.onInstance("i-1"), GROUP, "i-1", "conn-1", OptionalInt.empty());
        List<String> instanceCalls = new ArrayList<>();
        InstanceRepository counted = Fleet.around(InstanceRepository.class, fleet.instances, (method, args, proceed) -> {
            instanceCalls.add(method);
            return proceed.call();
        });
        GameServer claimed = fleet.gameServers(fleet.servers, counted).claim(new GameServerService.Claim(GROUP,
                Optional.empty(), Optional.of("map=dust"), Optional.empty()));

        assertThat(fleet.notifier.delivered()).containsExactly(new Notice("conn-1", "claimed", claimed, null));
        assertThat(claimed.gameServerData()).isEqualTo("map=dust");
        assertThat(claimed.lastClaimTime()).isEqualTo(T0);
        assertThat(claimed.claimExpiresAt()).isEqualTo(T0.plus(CLAIM_TTL));
        assertThat(instanceCalls).as("the claim's own write returned the connection").isEmpty();
    }

    @Test
    void aServerWithoutAConnectionSendsNothingAndReadsNothing() {
        fleet.register("gs-1", "i-1");
        fleet.claim(GROUP);
        assertThat(fleet.notifier.posts()).isZero();
    }

    @Test
    void aNoticeThatFailsNeverFailsTheClaim() {
        fleet.register("gs-1", "i-1");
        connections.connect(Caller.onInstance("i-1"), GROUP, "i-1", "conn-1", OptionalInt.empty());
        fleet.notifier.failing(true);
        assertThat(fleet.claim(GROUP).gameServerId()).isEqualTo("gs-1");
        assertThat(fleet.server("gs-1").isClaimedAt(T0)).isTrue();
        assertThat(fleet.log).anyMatch(l -> l.contains("claimed notice of game server gs-1") && l.contains("dropped"));
        assertThat(fleet.metrics.undeliveredNotices()).containsExactly(
                new RecordingMetrics.UndeliveredNotice(GROUP, "claimed"));
    }

    @Test
    void aGoneConnectionIsClearedAndTheNoticeDropped() {
        fleet.register("gs-1", "i-1");
        connections.connect(Caller.onInstance("i-1"), GROUP, "i-1", "conn-1", OptionalInt.empty());
        fleet.notifier.close("conn-1"); // the agent went without $disconnect
        assertThat(fleet.claim(GROUP).gameServerId()).isEqualTo("gs-1");
        assertThat(fleet.notifier.delivered()).isEmpty();
        assertThat(connection("i-1")).as("the stale connection cleared").isNull();
        assertThat(fleet.metrics.undeliveredNotices()).containsExactly(
                new RecordingMetrics.UndeliveredNotice(GROUP, "claimed"));
    }

    @Test
    void aGoneCopyFallsBackToTheInstancesNewerConnection() {
        fleet.register("gs-1", "i-1");
        connections.connect(Caller.onInstance("i-1"), GROUP, "i-1", "conn-1", OptionalInt.empty());
        fleet.notifier.close("conn-1");
        // the agent reconnected, and the copy onto the server was lost (a registration raced the connect)
        fleet.instances.recordPushConnection(GROUP, "i-1", "conn-2", fleet.clock.instant(), OptionalInt.empty());
        GameServer claimed = fleet.claim(GROUP);
        assertThat(fleet.notifier.delivered()).extracting(Notice::connectionId).containsExactly("conn-2");
        assertThat(claimed.gameServerId()).isEqualTo("gs-1");
        assertThat(connection("i-1")).isEqualTo("conn-2");
    }

    // ---- connections API Gateway has closed without $disconnect (2 hours at most) -----------

    @Test
    void aConnectionOlderThanTwoHoursIsGoneAndGetsNoNotice() {
        fleet.register("gs-1", "i-1");
        connections.connect(Caller.onInstance("i-1"), GROUP, "i-1", "conn-1", OptionalInt.empty());
        // the copy lost a race with the reconnect that made conn-2; then neither $disconnect came
        fleet.instances.recordPushConnection(GROUP, "i-1", "conn-2", fleet.clock.instant(), OptionalInt.empty());
        fleet.notifier.close("conn-1");
        fleet.clock.advance(GameServerInstance.PUSH_CONNECTION_LIFETIME);
        fleet.heartbeat("gs-1");
        assertThat(fleet.claim(GROUP).gameServerId()).isEqualTo("gs-1");
        assertThat(fleet.notifier.delivered()).as("conn-2 is closed by now: nothing is posted to it").isEmpty();
        assertThat(fleet.notifier.posts()).isEqualTo(1);
        assertThat(fleet.metrics.undeliveredNotices()).containsExactly(
                new RecordingMetrics.UndeliveredNotice(GROUP, "claimed"));
    }

    @Test
    void aServerRegisteredAfterItsInstancesConnectionOutlivedItGetsNoCopy() {
        connections.connect(Caller.onInstance("i-1"), GROUP, "i-1", "conn-1", OptionalInt.empty());
        fleet.clock.advance(GameServerInstance.PUSH_CONNECTION_LIFETIME.minusSeconds(1));
        assertThat(fleet.register("gs-1", "i-1").pushConnectionId()).isEqualTo("conn-1");
        fleet.clock.advance(Duration.ofSeconds(1));
        assertThat(fleet.register("gs-2", "i-1").pushConnectionId()).isNull();
    }

    @Test
    void theBalancerClearsConnectionsOlderThanTwoHoursAndKeepsNewerOnes() {
        fleet.register("gs-1", "i-1");
        fleet.register("gs-2", "i-2");
        connections.connect(Caller.onInstance("i-1"), GROUP, "i-1", "conn-1", OptionalInt.empty());
        fleet.clock.advance(Duration.ofMinutes(1));
        connections.connect(Caller.onInstance("i-2"), GROUP, "i-2", "conn-2", OptionalInt.empty());
        fleet.clock.advance(GameServerInstance.PUSH_CONNECTION_LIFETIME.minusMinutes(1));
        fleet.heartbeat("gs-1");
        fleet.heartbeat("gs-2");
        fleet.balancer().runAll();
        assertThat(connection("i-1")).as("made 2 h ago: closed since").isNull();
        assertThat(fleet.instances.find(GROUP, "i-1").orElseThrow().pushConnectedAt()).isNull();
        assertThat(fleet.server("gs-1").pushConnectionId()).isNull();
        assertThat(connection("i-2")).as("1 minute younger: may still be open").isEqualTo("conn-2");
        assertThat(fleet.server("gs-2").pushConnectionId()).isEqualTo("conn-2");
        assertThat(fleet.log).anyMatch(l -> l.contains("cleared push connection conn-1 of instance i-1"));
    }

    @Test
    void theBalancersClearingNeverTouchesANewerConnection() {
        fleet.register("gs-1", "i-1");
        connections.connect(Caller.onInstance("i-1"), GROUP, "i-1", "conn-1", OptionalInt.empty());
        fleet.clock.advance(GameServerInstance.PUSH_CONNECTION_LIFETIME);
        fleet.heartbeat("gs-1");
        // the agent reconnects after the balancer read the instances, before it clears conn-1
        InstanceRepository racing = Fleet.around(InstanceRepository.class, fleet.instances, (method, args, proceed) -> {
            if (method.equals("clearPushConnection")) {
                connections.connect(Caller.onInstance("i-1"), GROUP, "i-1", "conn-new", OptionalInt.empty());
            }
            return proceed.call();
        });
        new SpotBalancer(fleet.groups, fleet.servers, racing, fleet.interruptions, fleet.compute, fleet.metrics,
                Fleet.SETTINGS, Fleet.VIABILITY_WINDOW, Fleet.VIABILITY_THRESHOLD, Fleet.BALANCER_PERIOD, fleet.clock, fleet.log::add,
                fleet.notices(fleet.instances), fleet.standby, fleet.summaries).runAll();
        assertThat(connection("i-1")).isEqualTo("conn-new");
        assertThat(fleet.server("gs-1").pushConnectionId()).isEqualTo("conn-new");
    }

    // ---- the terminate notice ---------------------------------------------------------------

    @Test
    void anAdministratorsDeregistrationTellsTheAgentToTerminateTheServer() {
        GameServer s = fleet.register("gs-1", "i-1");
        connections.connect(Caller.onInstance("i-1"), GROUP, "i-1", "conn-1", OptionalInt.empty());
        fleet.gameServers().deregister(GROUP, "gs-1", Caller.ADMINISTRATOR);
        assertThat(fleet.notifier.delivered()).singleElement().satisfies(n -> {
            assertThat(n.connectionId()).isEqualTo("conn-1");
            assertThat(n.action()).isEqualTo("terminate");
            assertThat(n.reason()).isEqualTo(InstanceNotices.OPERATOR);
            assertThat(n.server().gameServerId()).isEqualTo(s.gameServerId());
            assertThat(n.server().gameServerGroupName()).isEqualTo(GROUP);
        });
    }

    @Test
    void theServersOwnDeregistrationSendsNothing() {
        fleet.register("gs-1", "i-1");
        fleet.register("gs-2", "i-1");
        connections.connect(Caller.onInstance("i-1"), GROUP, "i-1", "conn-1", OptionalInt.empty());
        fleet.gameServers().deregister(GROUP, "gs-1", Caller.onInstance("i-1"));
        fleet.gameServers().deregister(GROUP, "gs-2", Caller.UNBOUND);
        assertThat(fleet.notifier.posts()).isZero();
        fails(() -> fleet.gameServers().deregister(GROUP, "gs-1", Caller.ADMINISTRATOR), ErrorKind.NOT_FOUND,
                "game server gs-1 is not registered in game server group arena");
        assertThat(fleet.notifier.posts()).as("nothing deregistered, nothing sent").isZero();
    }
}

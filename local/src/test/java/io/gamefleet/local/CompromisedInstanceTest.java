package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.Caller;
import io.gamefleet.local.edge.Principal;
import io.gamefleet.local.edge.Principals;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A compromised instance, with the credentials the profile gives an instance's agent
 * ({@link Principals#instance}), tries what one instance could do to its group: pass the cap,
 * point ConnectionInfo at a host of its choosing, report health for what is not its own, and flood
 * the stage's throttles. Each is refused with its JSON error and nothing changed, and the other
 * instance goes on. The edge applies the stage's route throttles (the defaults) as API Gateway
 * does, on the profile's clock, which stands still unless the test moves it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CompromisedInstanceTest {
    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension().withEdgeThrottles()
            .localOnly("the profile's instance credentials and its route throttles");

    private static final String GROUP = "compromised";
    private static final Duration WITHIN = Duration.ofSeconds(10);
    private static String attacker;
    private static String neighbour;
    private static GamefleetClient asAttacker;
    private static GamefleetClient asNeighbour;
    private static Principal attackerPrincipal;
    private static Principal neighbourPrincipal;
    private static int serial;

    @BeforeAll
    static void twoInstancesEachWithItsOwnCredentials() {
        LOCAL.admin().createActive(GamefleetClient.groupBody(GROUP, 2, 2));
        List<String> instances = LOCAL.profile().fleet().instancesOf(GROUP).stream().map(i -> i.instanceId()).toList();
        attacker = instances.get(0);
        neighbour = instances.get(1);
        attackerPrincipal = Principals.instance(attacker);
        neighbourPrincipal = Principals.instance(neighbour);
        LOCAL.profile().edge().principals().add(attackerPrincipal);
        LOCAL.profile().edge().principals().add(neighbourPrincipal);
        asAttacker = LOCAL.client(attackerPrincipal);
        asNeighbour = LOCAL.client(neighbourPrincipal);
    }

    private static GamefleetClient.Response register(GamefleetClient caller, String instance, String connectionInfo) {
        return caller.call("POST", GamefleetClient.groupPath(GROUP) + "/game-servers", GamefleetClient.obj()
                .put("GameServerId", "evil-" + serial++).put("InstanceId", instance).put("ConnectionInfo", connectionInfo));
    }

    private static List<String> servers() {
        return LOCAL.admin().listAll(GamefleetClient.groupPath(GROUP) + "/game-servers", "GameServers", 100).stream()
                .map(s -> s.get("GameServerId").asText() + "@" + s.get("InstanceId").asText() + "="
                        + s.path("ConnectionInfo").asText()).sorted().toList();
    }

    /** Its fair share of registrations full again (16 at once, then one every 6.5 s at the defaults), and the route's. */
    private static void aWhileLater() {
        LOCAL.passTime(Duration.ofMinutes(10));
    }

    @Test
    @Order(1)
    void itCannotPassTheCap() {
        for (int n = 0; n < 16; n++) {
            register(asAttacker, attacker, "127.0.0.1:" + (7000 + n)).ok();
        }
        List<String> before = servers();
        aWhileLater();

        GamefleetClient.Response refused = register(asAttacker, attacker, "127.0.0.1:7999")
                .error(400, "LimitExceededException");
        assertThat(refused.message()).isEqualTo("instance " + attacker + " has 16 game servers registered, the most one"
                + " instance may have; deregister one first");
        assertThat(servers()).isEqualTo(before);
    }

    @Test
    @Order(2)
    void itCannotPointConnectionInfoAtAnotherHost() {
        JsonNode mine = LOCAL.admin().listAll(GamefleetClient.groupPath(GROUP) + "/game-servers", "GameServers", 100)
                .get(0);
        asAttacker.deregister(GROUP, mine.get("GameServerId").asText()).ok(); // room for one: the cap is not the refusal
        aWhileLater();
        List<String> before = servers();

        for (String foreign : List.of("203.0.113.7:7777", "players.evil.example:443", "[::1]:7777")) {
            GamefleetClient.Response refused = register(asAttacker, attacker, foreign).error(400, "InvalidRequestException");
            assertThat(refused.message()).startsWith("ConnectionInfo " + foreign + " names no address of instance "
                    + attacker + ": it must be one of 127.0.0.1, localhost and a port");
        }
        assertThat(servers()).isEqualTo(before);
        register(asAttacker, attacker, "localhost:7000").ok();
    }

    @Test
    @Order(3)
    void itsHealthReportsReachOnlyItsOwnServers() throws Exception {
        String theirs = "theirs-1";
        asNeighbour.register(GROUP, theirs, neighbour).ok();
        List<String> before = servers();
        PushClient.Connected connected = PushClient.connect(LOCAL.profile().endpoint(), attackerPrincipal,
                LOCAL.signingClock(), GROUP, attacker);
        assertThat(connected.refusedWith()).isZero();
        try (PushClient agent = connected.client()) {
            for (String id : List.of("#gate#" + GROUP + "#0", "#instance#" + attacker, theirs)) {
                agent.send("{\"action\":\"health\",\"gameServerGroupName\":\"" + GROUP + "\",\"gameServers\":"
                        + "[{\"gameServerId\":\"" + id + "\",\"healthCheck\":\"UNHEALTHY\"}]}");
                JsonNode refused = GamefleetClient.JSON.readTree(agent.next(WITHIN));
                assertThat(refused.path("__type").asText()).as(id)
                        .isEqualTo(id.equals(theirs) ? "UnauthorizedException" : "InvalidRequestException");
            }
            // Its own server, with ports no agent config has: the session answers them, so they are bounded too.
            String own = before.stream().filter(s -> s.contains("@" + attacker + "=")).findFirst().orElseThrow().split("@")[0];
            var ownBefore = LOCAL.profile().services().gameServers().describe(GROUP, own, Caller.UNBOUND);
            String ninePorts = java.util.stream.IntStream.range(0, 9).mapToObj(i -> "\"p" + i + "\":" + (7000 + i))
                    .collect(java.util.stream.Collectors.joining(",", "{", "}"));
            for (String ports : List.of(ninePorts, "{\"game\":70000}", "{\"evil.example:443 \":7000}")) {
                agent.send("{\"action\":\"health\",\"gameServerGroupName\":\"" + GROUP + "\",\"gameServers\":"
                        + "[{\"gameServerId\":\"" + own + "\",\"healthCheck\":\"HEALTHY\",\"process\":{\"ports\":" + ports + "}}]}");
                JsonNode refused = GamefleetClient.JSON.readTree(agent.next(WITHIN));
                assertThat(refused.path("__type").asText()).as(ports).isEqualTo("InvalidRequestException");
                assertThat(refused.path("Message").asText()).as(ports).contains("process.ports");
            }
            assertThat(LOCAL.profile().services().gameServers().describe(GROUP, own, Caller.UNBOUND))
                    .as("its own server: no lease, no process written").isEqualTo(ownBefore);
        }
        assertThat(servers()).isEqualTo(before);
        assertThat(LOCAL.profile().services().gameServers().describe(GROUP, theirs, Caller.UNBOUND).healthLeaseExpiresAt())
                .as("the neighbour's server: no lease written").isNull();
    }

    /**
     * Past its fair share of RegisterGameServer (16 at once, then one every 6.5 s at the
     * defaults) the attacker's registrations are refused 429 before anything is read, and its
     * neighbour's still go in, as long as the route's own throttle (24 a second, burst 48) holds.
     */
    @Test
    @Order(4)
    void itsFloodOfRegistrationsIsRefusedForItAloneWithinTheRoutesThrottle() {
        aWhileLater();
        for (JsonNode s : LOCAL.admin().listAll(GamefleetClient.groupPath(GROUP) + "/game-servers", "GameServers", 100)) {
            LOCAL.admin().deregister(GROUP, s.get("GameServerId").asText()).ok();
        }
        int taken = 0;
        GamefleetClient.Response last = null;
        for (int n = 0; n < 20 && (last == null || last.status() == 200); n++) {
            last = register(asAttacker, attacker, "127.0.0.1:7000");
            if (last.status() == 200) {
                taken++;
                asAttacker.deregister(GROUP, last.server().get("GameServerId").asText()).ok();
            }
        }
        assertThat(taken).as("its share's burst").isEqualTo(16);
        last.error(429, "ThrottlingException");
        assertThat(last.message()).startsWith("instance " + attacker + " sent more registrations than its fair share");
        assertThat(servers()).isEmpty();

        register(asNeighbour, neighbour, "127.0.0.1:7001").ok();
        register(asAttacker, attacker, "127.0.0.1:7000").error(429, "ThrottlingException");
    }

    /**
     * What remains: past the route's own throttle, the stage's (API Gateway's, here the edge's)
     * refuses every caller of the route alike, the neighbour too, until it fills again.
     */
    @Test
    @Order(5)
    void pastTheRoutesOwnThrottleEveryCallerIsRefusedUntilItFills() {
        GamefleetClient.Response last = register(asAttacker, attacker, "127.0.0.1:7000");
        for (int n = 0; n < 60 && !last.message().startsWith("Too Many Requests"); n++) {
            last = register(asAttacker, attacker, "127.0.0.1:7000").error(429, "ThrottlingException");
        }
        assertThat(last.message()).startsWith("Too Many Requests: route POST /game-server-groups/{GameServerGroupName}"
                + "/game-servers is throttled at 24.0 requests a second, burst 48");
        assertThat(register(asNeighbour, neighbour, "127.0.0.1:7002").error(429, "ThrottlingException").message())
                .startsWith("Too Many Requests");
        LOCAL.passTime(Duration.ofSeconds(1));
        register(asNeighbour, neighbour, "127.0.0.1:7002").ok();
    }

    /** A connection's messages past its fair share are refused, it alone; the neighbour's report is taken. */
    @Test
    @Order(6)
    void itsFloodOfPushMessagesIsRefusedForItsConnectionAlone() throws Exception {
        PushClient.Connected flooding = PushClient.connect(LOCAL.profile().endpoint(), attackerPrincipal,
                LOCAL.signingClock(), GROUP, attacker);
        PushClient.Connected other = PushClient.connect(LOCAL.profile().endpoint(), neighbourPrincipal,
                LOCAL.signingClock(), GROUP, neighbour);
        try (PushClient attackerAgent = flooding.client(); PushClient neighbourAgent = other.client()) {
            int pongs = 0;
            JsonNode answer = null;
            for (int n = 0; n < 20; n++) {
                attackerAgent.send("{\"action\":\"ping\"}");
                answer = GamefleetClient.JSON.readTree(attackerAgent.next(WITHIN));
                if (!answer.path("action").asText().equals("pong")) {
                    break;
                }
                pongs++;
            }
            assertThat(pongs).as("its share's burst").isEqualTo(LocalProfile.Limits.defaults().throttles().instanceMessages().burst());
            assertThat(answer.path("__type").asText()).isEqualTo("ThrottlingException");
            assertThat(answer.path("Message").asText()).contains("sent more push messages than its fair share");
            neighbourAgent.send("{\"action\":\"ping\"}");
            assertThat(neighbourAgent.next(WITHIN)).isEqualTo("{\"action\":\"pong\"}");
        }
    }

    /** A session is a matchmaker's: an instance's own keys neither request one (claiming a server) nor read one. */
    @Test
    @Order(7)
    void itCannotRequestOrReadASession() {
        String sessions = GamefleetClient.groupPath(GROUP) + "/sessions";
        String id = "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b";
        assertThat(asAttacker.call("POST", sessions, GamefleetClient.obj().put("SessionId", id)).status()).isEqualTo(403);
        assertThat(asAttacker.call("GET", sessions + "/" + id).status()).isEqualTo(403);
        LOCAL.admin().call("GET", sessions + "/" + id).error(404, "NotFoundException");
    }

    /**
     * Its beacon's port is its own instance's to give: one that is no port refuses its connect with
     * nothing written; it gives none for its neighbour; the port it gives is listed with its own
     * instance's address alone.
     */
    @Test
    @Order(8)
    void itsQosPortIsOnlyAPortOfItsOwnInstance() throws Exception {
        for (String bad : List.of("0", "65536", "-1", "03075", "3075%20", "x")) {
            assertThat(PushClient.connect(LOCAL.profile().endpoint(), attackerPrincipal, LOCAL.signingClock(), GROUP,
                    attacker, "&" + PushChannel.QOS_PORT_PARAMETER + "=" + bad).refusedWith()).as(bad).isEqualTo(400);
        }
        assertThat(PushClient.connect(LOCAL.profile().endpoint(), attackerPrincipal, LOCAL.signingClock(), GROUP,
                neighbour, "&" + PushChannel.QOS_PORT_PARAMETER + "=9").refusedWith()).isEqualTo(403);
        String qosServers = Routes.LIST_QOS_SERVERS.path();
        assertThat(asAttacker.call("GET", qosServers).ok().body().path("QosServers")).as("nothing recorded").isEmpty();

        PushClient.Connected connected = PushClient.connect(LOCAL.profile().endpoint(), attackerPrincipal,
                LOCAL.signingClock(), GROUP, attacker, "&" + PushChannel.QOS_PORT_PARAMETER + "=9");
        assertThat(connected.refusedWith()).isZero();
        try (PushClient agent = connected.client()) {
            assertThat(asAttacker.call("GET", qosServers).ok().body().path("QosServers").toString())
                    .isEqualTo("[{\"Region\":\"" + LocalAccount.REGION + "\",\"ServerUrl\":\"127.0.0.1\",\"Port\":9}]");
        }
    }
}

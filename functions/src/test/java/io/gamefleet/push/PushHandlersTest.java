package io.gamefleet.push;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2WebSocketEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2WebSocketResponse;
import io.gamefleet.api.RestEvents;
import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.catalog.Role;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.GameServerProcess;
import io.gamefleet.domain.HealthReports;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.ProcessEvents;
import io.gamefleet.domain.ProcessReport;
import io.gamefleet.domain.ProcessState;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.wiring.TestServices;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The push channel's WebSocket routes, on API Gateway's WebSocket event as a deployed function gets it. */
class PushHandlersTest {
    private static final String INSTANCE = "i-0aaaaaaaaaaaaaaaa";
    private static final String OTHER = "i-0bbbbbbbbbbbbbbbb";

    private final TestServices test = new TestServices();
    private final FunctionRegistry registry = new FunctionRegistry(test.services);
    private final RequestHandler<APIGatewayV2WebSocketEvent, APIGatewayV2WebSocketResponse> connect =
            registry.push(PushChannel.CONNECT);

    @BeforeEach
    void anInstanceOfAnActiveGroup() {
        test.groups.create(GameServerGroup.builder().name("arena").arn(test.services.settings().groupArn("arena"))
                .status(GameServerGroupStatus.ACTIVE).minSize(1).maxSize(4)
                .creationTime(test.clock.instant()).lastUpdatedTime(test.clock.instant()).build());
        test.instances.save(new GameServerInstance("arena", INSTANCE, InstanceStatus.ACTIVE, "c5.large", "us-east-1a",
                test.clock.instant()));
    }

    private static String session(Role role, String name) {
        return RestEvents.session(role, name);
    }

    static APIGatewayV2WebSocketEvent event(String routeKey, String connectionId, String userArn,
            Map<String, String> query, String body) {
        APIGatewayV2WebSocketEvent.RequestIdentity identity = new APIGatewayV2WebSocketEvent.RequestIdentity();
        identity.setUserArn(userArn);
        identity.setAccountId(LocalAccount.ACCOUNT_ID);
        identity.setUser(userArn == null ? null : RestEvents.userId(userArn));
        APIGatewayV2WebSocketEvent.RequestContext context = new APIGatewayV2WebSocketEvent.RequestContext();
        context.setRouteKey(routeKey);
        context.setConnectionId(connectionId);
        context.setIdentity(identity);
        APIGatewayV2WebSocketEvent event = new APIGatewayV2WebSocketEvent();
        event.setRequestContext(context);
        event.setQueryStringParameters(query);
        event.setBody(body);
        return event;
    }

    private APIGatewayV2WebSocketResponse connect(String userArn, String instanceId, String connectionId) {
        Map<String, String> query = new HashMap<>();
        query.put(PushChannel.INSTANCE_ID_PARAMETER, instanceId);
        query.put(PushChannel.GROUP_NAME_PARAMETER, "arena");
        return connect.handleRequest(event("$connect", connectionId, userArn, query, null), null);
    }

    private String recorded() {
        return test.instances.find("arena", INSTANCE).orElseThrow().pushConnectionId();
    }

    @Test
    void theInstancesOwnGameServerSessionConnects() {
        assertThat(connect(session(Role.GAME_SERVER, INSTANCE), INSTANCE, "conn-1").getStatusCode()).isEqualTo(200);
        assertThat(recorded()).isEqualTo("conn-1");
        assertThat(connect(session(Role.ADMIN, "alice"), INSTANCE, "conn-2").getStatusCode()).isEqualTo(200);
        assertThat(recorded()).isEqualTo("conn-2");
    }

    @Test
    void anotherInstancesSessionOrAnotherRoleIsRefusedWith403AndNothingIsRecorded() {
        for (String caller : new String[] {session(Role.GAME_SERVER, OTHER), session(Role.MATCHMAKER, INSTANCE),
                "arn:aws:sts::" + LocalAccount.ACCOUNT_ID + ":assumed-role/other/" + INSTANCE,
                "arn:aws:iam::" + LocalAccount.ACCOUNT_ID + ":user/alice", null}) {
            APIGatewayV2WebSocketResponse response = connect(caller, INSTANCE, "conn-x");
            assertThat(response.getStatusCode()).as(caller).isEqualTo(403);
            assertThat(response.getBody()).contains("UnauthorizedException");
        }
        assertThat(recorded()).isNull();
    }

    @Test
    void aConnectWithoutItsParametersOrForAnUnknownInstanceIsRefused() {
        APIGatewayV2WebSocketResponse bare = connect.handleRequest(
                event("$connect", "conn-x", session(Role.GAME_SERVER, INSTANCE), null, null), null);
        assertThat(bare.getStatusCode()).isEqualTo(400);
        assertThat(bare.getBody()).contains("InvalidRequestException").contains(PushChannel.INSTANCE_ID_PARAMETER);
        APIGatewayV2WebSocketResponse unknown = connect(session(Role.GAME_SERVER, OTHER), OTHER, "conn-x");
        assertThat(unknown.getStatusCode()).isEqualTo(404);
        assertThat(unknown.getBody()).contains("NotFoundException");
    }

    @Test
    void aDisconnectClearsItsConnectionOnly() {
        connect(session(Role.GAME_SERVER, INSTANCE), INSTANCE, "conn-old");
        connect(session(Role.GAME_SERVER, INSTANCE), INSTANCE, "conn-new");
        var disconnect = registry.push(PushChannel.DISCONNECT);
        assertThat(disconnect.handleRequest(event("$disconnect", "conn-old", null, null, null), null).getStatusCode())
                .isEqualTo(200);
        assertThat(recorded()).isEqualTo("conn-new");
        disconnect.handleRequest(event("$disconnect", "conn-new", null, null, null), null);
        assertThat(recorded()).isNull();
    }

    private void serverOn(String id, String instanceId) {
        test.servers.register(GameServer.builder().gameServerGroupName("arena").gameServerId(id).instanceId(instanceId)
                .registrationTime(test.clock.instant()).lastHealthCheckTime(test.clock.instant())
                .instanceStatus(InstanceStatus.ACTIVE).instanceLaunchTime(test.clock.instant()).build(), 4, 16); // arena's
                // maxSize, and the stage's game servers per instance
    }

    private static String health(String... idAndHealth) {
        StringBuilder servers = new StringBuilder();
        for (int i = 0; i < idAndHealth.length; i += 2) {
            servers.append(i == 0 ? "" : ",").append("{\"gameServerId\":\"").append(idAndHealth[i])
                    .append("\",\"healthCheck\":\"").append(idAndHealth[i + 1]).append("\"}");
        }
        return "{\"action\":\"health\",\"gameServerGroupName\":\"arena\",\"gameServers\":[" + servers + "]}";
    }

    @Test
    void aHealthReportIsTakenWithNoAnswerAndWritesTheLeases() {
        connect(session(Role.GAME_SERVER, INSTANCE), INSTANCE, "conn-1");
        serverOn("gs-1", INSTANCE);
        serverOn("gs-2", INSTANCE);
        var message = registry.push(PushChannel.MESSAGE);
        APIGatewayV2WebSocketResponse taken = message.handleRequest(
                event("$default", "conn-1", null, null, health("gs-1", "HEALTHY", "gs-2", "UNHEALTHY")), null);
        assertThat(taken.getStatusCode()).isEqualTo(200);
        assertThat(taken.getBody()).as("no frame goes back: a report costs one message").isNull();
        assertThat(test.servers.find("gs-1").orElseThrow().healthLeaseExpiresAt())
                .isEqualTo(test.clock.instant().plus(HealthReports.LEASE));
        assertThat(test.servers.find("gs-2").orElseThrow().healthLeaseExpiresAt()).isEqualTo(test.clock.instant());

        test.clock.advance(java.time.Duration.ofSeconds(30));
        registry.push(PushChannel.DISCONNECT).handleRequest(event("$disconnect", "conn-1", null, null, null), null);
        assertThat(test.servers.find("gs-1").orElseThrow().healthLeaseExpiresAt())
                .as("the connection's end ends the lease").isEqualTo(test.clock.instant());
    }

    @Test
    void aBadHealthReportIsRefusedWithItsJsonErrorAndChangesNothing() {
        connect(session(Role.GAME_SERVER, INSTANCE), INSTANCE, "conn-1");
        test.instances.save(new GameServerInstance("arena", OTHER, InstanceStatus.ACTIVE, "c5.large", "us-east-1a",
                test.clock.instant()));
        serverOn("gs-1", INSTANCE);
        serverOn("gs-9", OTHER);
        GameServer before = test.servers.find("gs-1").orElseThrow();
        var message = registry.push(PushChannel.MESSAGE);
        Map<String, String> refusals = new java.util.LinkedHashMap<>();
        refusals.put(health("gs-1", "HEALTHY", "gs-9", "HEALTHY"), "403 UnauthorizedException");
        refusals.put(health("gs-1", "HEALTHY", "gs-404", "HEALTHY"), "404 NotFoundException");
        refusals.put(health("gs-1", "SICK"), "400 InvalidRequestException");
        refusals.put(health(), "400 InvalidRequestException");
        refusals.put("{\"action\":\"health\",\"gameServers\":[]}", "400 InvalidRequestException");
        refusals.put("{\"action\":\"health\",\"gameServerGroupName\":\"arena\",\"gameServers\":{}}",
                "400 InvalidRequestException");
        refusals.put("{\"action\":\"health\",\"gameServerGroupName\":\"arena\",\"gameServers\":[\"gs-1\"]}",
                "400 InvalidRequestException");
        refusals.forEach((body, expected) -> {
            test.clock.advance(java.time.Duration.ofSeconds(1)); // within the connection's fair share of messages
            APIGatewayV2WebSocketResponse refused = message.handleRequest(event("$default", "conn-1", null, null, body),
                    null);
            assertThat(refused.getStatusCode() + " " + refused.getBody()).as(body)
                    .startsWith(expected.substring(0, 4)).contains(expected.substring(4));
        });
        assertThat(test.servers.find("gs-1").orElseThrow()).isEqualTo(before);
        assertThat(test.servers.find("gs-9").orElseThrow().healthLeaseExpiresAt()).isNull();
    }

    /** A report with each server's process and the instance's events (issue 28's contract). */
    private static String withProcess(String process, String events) {
        return "{\"action\":\"health\",\"gameServerGroupName\":\"arena\",\"gameServers\":[{\"gameServerId\":\"gs-1\","
                + "\"healthCheck\":\"HEALTHY\"" + (process == null ? "" : ",\"process\":" + process) + "}]"
                + (events == null ? "" : ",\"processEvents\":" + events) + "}";
    }

    private static final String ACTIVE = "{\"state\":\"Active\",\"connectedPlayers\":2,\"playerIds\":[\"p1\",\"p2\"],"
            + "\"crashes\":1,\"startTimeouts\":0,\"lastExitCode\":139,\"ports\":{\"game\":7002,\"query\":8002}}";

    @Test
    void aReportsProcessIsKeptAndItsEventsCountedAndOneWithoutIsTakenAsBefore() {
        connect(session(Role.GAME_SERVER, INSTANCE), INSTANCE, "conn-1");
        serverOn("gs-1", INSTANCE);
        var message = registry.push(PushChannel.MESSAGE);
        APIGatewayV2WebSocketResponse taken = message.handleRequest(event("$default", "conn-1", null, null,
                withProcess(ACTIVE.replaceFirst("^\\{", "{\"fromANewerAgent\":true,"), "{\"crashes\":3,\"startTimeouts\":1}")),
                null);
        assertThat(taken.getStatusCode()).isEqualTo(200);
        assertThat(taken.getBody()).isNull();
        GameServerProcess kept = test.services.gameServers().describeProcess("arena", "gs-1", Caller.ADMINISTRATOR);
        assertThat(kept.process()).isEqualTo(new ProcessReport(ProcessState.Active, 2, List.of("p1", "p2"), 1, 0, 139,
                Map.of("game", 7002, "query", 8002)));
        assertThat(test.servers.find("gs-1").orElseThrow().process().ports()).as("on the server's item, for a session's answer")
                .isEqualTo(Map.of("game", 7002, "query", 8002));
        assertThat(test.metrics.processEvents()).extracting(e -> e.events()).containsExactly(new ProcessEvents(3, 1));

        test.clock.advance(java.time.Duration.ofSeconds(1));
        assertThat(message.handleRequest(event("$default", "conn-1", null, null, withProcess(null, null)), null)
                .getStatusCode()).as("an older agent's report").isEqualTo(200);
        assertThat(test.services.gameServers().describeProcess("arena", "gs-1", Caller.ADMINISTRATOR)).isEqualTo(kept);
        assertThat(test.metrics.processEvents()).hasSize(1);
        // Nothing before its first heartbeat, no players: a process of counts alone.
        test.clock.advance(java.time.Duration.ofSeconds(1));
        assertThat(message.handleRequest(event("$default", "conn-1", null, null,
                withProcess("{\"connectedPlayers\":0,\"crashes\":0,\"startTimeouts\":2}", "{}")), null).getStatusCode())
                .isEqualTo(200);
        assertThat(test.services.gameServers().describeProcess("arena", "gs-1", Caller.ADMINISTRATOR).process())
                .isEqualTo(new ProcessReport(null, 0, List.of(), 0, 2, null));
    }

    /** What one game server's process says of itself is bounded: past a bound, the whole report is refused. */
    @Test
    void aProcessOrEventsPastTheirBoundsAreRefused400AndNothingIsWritten() {
        connect(session(Role.GAME_SERVER, INSTANCE), INSTANCE, "conn-1");
        serverOn("gs-1", INSTANCE);
        GameServer before = test.servers.find("gs-1").orElseThrow();
        var message = registry.push(PushChannel.MESSAGE);
        String ids101 = "[" + String.join(",", java.util.Collections.nCopies(101, "\"p\"")) + "]";
        Map<String, String> refusals = new java.util.LinkedHashMap<>();
        refusals.put(withProcess("\"Active\"", null), "gameServers[0].process must be an object");
        refusals.put(withProcess("{\"state\":\"Dancing\"}", null), "gameServers[0].process.state must be one of");
        refusals.put(withProcess("{\"state\":7}", null), "gameServers[0].process.state must be one of");
        refusals.put(withProcess("{\"crashes\":-1}", null), "gameServers[0].process.crashes must be a whole number");
        refusals.put(withProcess("{\"connectedPlayers\":2.5}", null), "process.connectedPlayers must be a whole number");
        refusals.put(withProcess("{\"startTimeouts\":\"2\"}", null), "process.startTimeouts must be a whole number");
        refusals.put(withProcess("{\"crashes\":99999999999}", null), "process.crashes must be a whole number");
        refusals.put(withProcess("{\"connectedPlayers\":200,\"playerIds\":" + ids101 + "}", null),
                "process.playerIds must be an array of at most 100 player ids");
        refusals.put(withProcess("{\"connectedPlayers\":1,\"playerIds\":[\"" + "p".repeat(129) + "\"]}", null),
                "process.playerIds holds strings of 1 to 128 characters");
        refusals.put(withProcess("{\"connectedPlayers\":1,\"playerIds\":[\"\"]}", null), "holds strings of 1 to 128");
        refusals.put(withProcess("{\"connectedPlayers\":1,\"playerIds\":[3]}", null), "holds strings of 1 to 128");
        refusals.put(withProcess("{\"connectedPlayers\":1,\"playerIds\":\"p1\"}", null), "must be an array");
        refusals.put(withProcess("{\"connectedPlayers\":1,\"playerIds\":[\"p1\",\"p2\"]}", null),
                "gameServers[0].process names 2 players but counts 1 connected");
        refusals.put(withProcess("{\"lastExitCode\":1e3}", null), "process.lastExitCode must be a whole number");
        String ninePorts = java.util.stream.IntStream.range(0, 9).mapToObj(i -> "\"p" + i + "\":" + (7000 + i))
                .collect(java.util.stream.Collectors.joining(",", "{", "}"));
        refusals.put(withProcess("{\"ports\":[7002]}", null), "gameServers[0].process.ports must be an object of at most 8");
        refusals.put(withProcess("{\"ports\":" + ninePorts + "}", null), "process.ports must be an object of at most 8 named ports");
        refusals.put(withProcess("{\"ports\":{\"game port\":7002}}", null), "process.ports names ports by [A-Za-z0-9_.-]{1,32}");
        refusals.put(withProcess("{\"ports\":{\"" + "g".repeat(33) + "\":7002}}", null), "names ports by");
        refusals.put(withProcess("{\"ports\":{\"\":7002}}", null), "names ports by");
        refusals.put(withProcess("{\"ports\":{\"game\":0}}", null), "process.ports.game must be a port from 1 to 65535");
        refusals.put(withProcess("{\"ports\":{\"game\":65536}}", null), "process.ports.game must be a port from 1 to 65535");
        refusals.put(withProcess("{\"ports\":{\"game\":\"7002\"}}", null), "must be a port from 1 to 65535");
        refusals.put(withProcess("{\"ports\":{\"game\":7002.5}}", null), "must be a port from 1 to 65535");
        refusals.put(withProcess("{\"ports\":{\"game\":99999999999}}", null), "must be a port from 1 to 65535");
        refusals.put(withProcess(ACTIVE, "[3]"), "processEvents must be an object");
        refusals.put(withProcess(ACTIVE, "{\"crashes\":100001}"), "processEvents.crashes must be a whole number from 0 to 100000");
        refusals.put(withProcess(ACTIVE, "{\"startTimeouts\":-2}"), "processEvents.startTimeouts must be a whole number");
        refusals.forEach((body, expected) -> {
            test.clock.advance(java.time.Duration.ofSeconds(1));
            APIGatewayV2WebSocketResponse refused = message.handleRequest(event("$default", "conn-1", null, null, body),
                    null);
            assertThat(refused.getStatusCode()).as(body).isEqualTo(400);
            assertThat(refused.getBody()).as(body).contains("InvalidRequestException").contains(expected);
        });
        assertThat(test.servers.find("gs-1").orElseThrow()).as("not even the lease").isEqualTo(before);
        assertThat(test.services.gameServers().describeProcess("arena", "gs-1", Caller.ADMINISTRATOR).process()).isNull();
        assertThat(test.metrics.processEvents()).isEmpty();
    }

    @Test
    void thePlayFabStatesAreTheCatalogsOnes() {
        assertThat(PushChannel.PROCESS_STATES).containsExactlyElementsOf(
                java.util.Arrays.stream(ProcessState.values()).map(Enum::name).toList());
    }

    @Test
    void aPingIsAnsweredWithAPongAndAnythingElseRefused() {
        var message = registry.push(PushChannel.MESSAGE);
        APIGatewayV2WebSocketResponse pong = message.handleRequest(
                event("$default", "conn-1", null, null, "{\"action\":\"ping\"}"), null);
        assertThat(pong.getStatusCode()).isEqualTo(200);
        assertThat(pong.getBody()).isEqualTo("{\"action\":\"pong\"}");
        for (String body : new String[] {"{\"action\":\"dance\"}", "not json", "[1]", null}) {
            APIGatewayV2WebSocketResponse refused = message.handleRequest(event("$default", "conn-1", null, null, body),
                    null);
            assertThat(refused.getStatusCode()).as(body).isEqualTo(400);
            assertThat(refused.getBody()).contains("InvalidRequestException");
        }
    }

    /**
     * A report may name only game servers, by FleetIQ's id pattern: an internal item of the table
     * (a group's gate, an instance's slots) is refused before any read, not read as a server.
     */
    @Test
    void aReportNamingAnythingButAGameServerIdIsRefusedBeforeAnyRead() {
        connect(session(Role.GAME_SERVER, INSTANCE), INSTANCE, "conn-1");
        serverOn("gs-1", INSTANCE);
        var message = registry.push(PushChannel.MESSAGE);
        String longId = "g".repeat(129);
        for (String id : new String[] {"#gate#arena#0", "#instance#" + INSTANCE, "gs/1", "ab", longId, "gs 1"}) {
            test.clock.advance(java.time.Duration.ofSeconds(1));
            APIGatewayV2WebSocketResponse refused = message.handleRequest(event("$default", "conn-1", null, null,
                    health("gs-1", "HEALTHY", id, "HEALTHY")), null);
            assertThat(refused.getStatusCode()).as(id).isEqualTo(400);
            assertThat(refused.getBody()).contains("InvalidRequestException").contains("gameServers[1].gameServerId: must");
        }
        assertThat(test.servers.find("gs-1").orElseThrow().healthLeaseExpiresAt()).as("nothing written").isNull();
        APIGatewayV2WebSocketResponse group = message.handleRequest(event("$default", "conn-1", null, null,
                health("gs-1", "HEALTHY").replace("\"arena\"", "\"" + "a".repeat(257) + "\"")), null);
        assertThat(group.getStatusCode()).isEqualTo(400);
        assertThat(group.getBody()).contains("gameServerGroupName: must be");
    }

    @Test
    void aConnectNamingNoInstanceIdOrGroupNameIsRefusedAndNothingIsRecorded() {
        for (Map.Entry<String, String> bad : Map.of(PushChannel.INSTANCE_ID_PARAMETER, "i-1",
                PushChannel.GROUP_NAME_PARAMETER, "a".repeat(257)).entrySet()) {
            for (String value : new String[] {bad.getValue(), "../" + INSTANCE, INSTANCE + "#x"}) {
                Map<String, String> query = new HashMap<>(Map.of(PushChannel.INSTANCE_ID_PARAMETER, INSTANCE,
                        PushChannel.GROUP_NAME_PARAMETER, "arena"));
                query.put(bad.getKey(), value);
                APIGatewayV2WebSocketResponse refused = connect.handleRequest(event("$connect", "conn-x",
                        session(Role.GAME_SERVER, INSTANCE), query, null), null);
                assertThat(refused.getStatusCode()).as(value).isEqualTo(400);
                assertThat(refused.getBody()).contains("InvalidRequestException").contains(bad.getKey() + ": must");
            }
        }
        assertThat(recorded()).isNull();
    }

    /** The agent's beacon port is recorded with its connection; a connect without one records none. */
    @Test
    void aConnectRecordsTheBeaconsPortGiven() {
        Map<String, String> query = new HashMap<>(Map.of(PushChannel.INSTANCE_ID_PARAMETER, INSTANCE,
                PushChannel.GROUP_NAME_PARAMETER, "arena", PushChannel.QOS_PORT_PARAMETER, "3075"));
        assertThat(connect.handleRequest(event("$connect", "conn-1", session(Role.GAME_SERVER, INSTANCE), query, null), null)
                .getStatusCode()).isEqualTo(200);
        assertThat(test.instances.find("arena", INSTANCE).orElseThrow().qosPort()).isEqualTo(3075);
        connect(session(Role.GAME_SERVER, INSTANCE), INSTANCE, "conn-2");
        assertThat(test.instances.find("arena", INSTANCE).orElseThrow().qosPort()).isNull();
    }

    @Test
    void aConnectWithABadQosPortIsRefused400AndNothingIsRecorded() {
        for (String value : new String[] {"0", "65536", "-1", "03075", "+3075", "3075 ", "x", "", "99999999999999999999"}) {
            Map<String, String> query = new HashMap<>(Map.of(PushChannel.INSTANCE_ID_PARAMETER, INSTANCE,
                    PushChannel.GROUP_NAME_PARAMETER, "arena", PushChannel.QOS_PORT_PARAMETER, value));
            APIGatewayV2WebSocketResponse refused = connect.handleRequest(event("$connect", "conn-x",
                    session(Role.GAME_SERVER, INSTANCE), query, null), null);
            assertThat(refused.getStatusCode()).as(value).isEqualTo(400);
            assertThat(refused.getBody()).contains("InvalidRequestException").contains("qosPort: must be a UDP port");
        }
        assertThat(recorded()).isNull();
        assertThat(test.instances.find("arena", INSTANCE).orElseThrow().qosPort()).isNull();
    }

    /** A connection's messages past its fair share (the catalog's burst at once, then its rate) are refused 429, it alone. */
    @Test
    void messagesPastAConnectionsFairShareAreRefused429ForItAlone() {
        var message = registry.push(PushChannel.MESSAGE);
        io.gamefleet.catalog.Throttles.Limit share = io.gamefleet.catalog.Throttles.of(setting -> null).instanceMessages();
        for (int n = 0; n < share.burst(); n++) {
            assertThat(message.handleRequest(event("$default", "conn-1", null, null, "{\"action\":\"ping\"}"), null)
                    .getStatusCode()).isEqualTo(200);
        }
        APIGatewayV2WebSocketResponse refused = message.handleRequest(event("$default", "conn-1", null, null,
                "{\"action\":\"ping\"}"), null);
        assertThat(refused.getStatusCode()).isEqualTo(429);
        assertThat(refused.getBody()).contains("ThrottlingException")
                .contains("push connection conn-1 sent more push messages than its fair share");
        assertThat(message.handleRequest(event("$default", "conn-2", null, null, "{\"action\":\"ping\"}"), null)
                .getStatusCode()).isEqualTo(200);
        test.clock.advance(java.time.Duration.ofSeconds(1));
        assertThat(message.handleRequest(event("$default", "conn-1", null, null, "{\"action\":\"ping\"}"), null)
                .getStatusCode()).isEqualTo(200);
    }
}

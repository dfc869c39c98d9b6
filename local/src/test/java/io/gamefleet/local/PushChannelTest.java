package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.InstanceStatus;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The push channel on the local profile, end to end: the edge's WebSocket at /push calls the
 * $connect, $default and $disconnect functions, and a claim's or an operator's notice reaches the
 * connected client through the functions' PostToConnection, which the edge emulates.
 */
class PushChannelTest {
    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension()
            .localOnly("the edge's WebSocket and its simulated instances");

    private static final String GROUP = "pushed";
    private static final Duration WITHIN = Duration.ofSeconds(1);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static List<String> instances;

    private final GamefleetClient admin = LOCAL.admin();
    private final GamefleetClient matchmaker = LOCAL.matchmaker();

    @BeforeAll
    static void aGroupOfThreeInstances() {
        LOCAL.admin().createActive(GamefleetClient.groupBody(GROUP, 3, 3));
        instances = LOCAL.profile().fleet().instancesOf(GROUP).stream().map(i -> i.instanceId()).toList();
    }

    private PushClient.Connected connect(io.gamefleet.local.edge.Principal principal, String instanceId)
            throws Exception {
        return PushClient.connect(LOCAL.profile().endpoint(), principal, LOCAL.signingClock(), GROUP, instanceId);
    }

    private String recorded(String instanceId) {
        return LOCAL.profile().services().groups().describeInstances(GROUP, Optional.of(List.of(instanceId)), 10,
                Optional.empty()).items().stream().findFirst().map(GameServerInstance::pushConnectionId).orElse(null);
    }

    @Test
    void aClaimsNoticeReachesTheConnectedAgentWithinASecondAndAPingIsAnswered() throws Exception {
        String instance = instances.get(0);
        admin.register(GROUP, "push-1", instance).ok();
        PushClient.Connected connected = connect(LocalProfileExtension.ADMIN, instance);
        assertThat(connected.refusedWith()).isZero();
        try (PushClient agent = connected.client()) {
            assertThat(recorded(instance)).isNotNull();
            admin.register(GROUP, "push-2", instance).ok(); // after the connect: copied at registration

            JsonNode claimed = matchmaker.claim(GROUP, GamefleetClient.obj().put("GameServerId", "push-2")
                    .put("GameServerData", "map=dust")).ok().server();
            JsonNode notice = JSON.readTree(agent.next(WITHIN));
            assertThat(notice.path("action").asText()).isEqualTo("claimed");
            assertThat(notice.path("gameServerGroupName").asText()).isEqualTo(GROUP);
            assertThat(notice.path("gameServerId").asText()).isEqualTo("push-2");
            assertThat(notice.path("gameServerData").asText()).isEqualTo("map=dust");
            assertThat(notice.path("claimExpiresAt").asText()).isNotEmpty();
            assertThat(notice.has("session")).as("a ClaimGameServer's notice is as it was").isFalse();
            assertThat(claimed.path("GameServerId").asText()).isEqualTo("push-2");

            matchmaker.claim(GROUP, GamefleetClient.obj().put("GameServerId", "push-1")).ok();
            assertThat(JSON.readTree(agent.next(WITHIN)).path("gameServerId").asText()).as("copied at connect")
                    .isEqualTo("push-1");

            agent.send("{\"action\":\"ping\"}");
            assertThat(agent.next(WITHIN)).isEqualTo("{\"action\":\"pong\"}");
        }
        assertThat(recorded(instance)).as("cleared at $disconnect, before the close completed").isNull();
    }

    @Test
    void aSessionsClaimNoticeCarriesItsIdCookieAndInitialPlayers() throws Exception {
        // A group of its own: the claim can only take this server.
        String group = "pushed-sessions";
        admin.createActive(GamefleetClient.groupBody(group, 1, 1));
        String instance = LOCAL.profile().fleet().instancesOf(group).get(0).instanceId();
        try (PushClient agent = PushClient.connect(LOCAL.profile().endpoint(), LocalProfileExtension.ADMIN,
                LOCAL.signingClock(), group, instance).client()) {
            admin.register(group, "session-1", instance).ok();
            com.fasterxml.jackson.databind.node.ObjectNode request = GamefleetClient.obj()
                    .put("SessionId", "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b").put("SessionCookie", "map=dust");
            request.putArray("InitialPlayers").add("p1").add("p2");
            request.putObject("FilterOption").putArray("InstanceStatuses").add("ACTIVE");
            matchmaker.call("POST", GamefleetClient.groupPath(group) + "/sessions", request).ok();

            JsonNode notice = JSON.readTree(agent.next(WITHIN));
            assertThat(notice.path("action").asText()).isEqualTo("claimed");
            assertThat(notice.path("gameServerId").asText()).isEqualTo("session-1");
            assertThat(notice.path("session").toString()).isEqualTo("{\"sessionId\":\"3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b\","
                    + "\"sessionCookie\":\"map=dust\",\"initialPlayers\":[\"p1\",\"p2\"]}");
        }
    }

    private static java.time.Instant lease(String gameServerId) {
        return LOCAL.profile().services().gameServers().describe(GROUP, gameServerId, Caller.UNBOUND).healthLeaseExpiresAt();
    }

    private static String health(String gameServerId) {
        return "{\"action\":\"health\",\"gameServerGroupName\":\"" + GROUP + "\",\"gameServers\":[{\"gameServerId\":\""
                + gameServerId + "\",\"healthCheck\":\"HEALTHY\"}]}";
    }

    @Test
    void aHealthReportIsTakenWithNoAnswerAndABadOneGetsItsJsonErrorOnTheSocket() throws Exception {
        String instance = instances.get(0);
        admin.register(GROUP, "health-1", instance).ok();
        try (PushClient agent = connect(LocalProfileExtension.ADMIN, instance).client()) {
            agent.send(health("health-1"));
            agent.send("{\"action\":\"ping\"}");
            assertThat(agent.next(WITHIN)).as("the report had no answer: the next frame is the pong")
                    .isEqualTo("{\"action\":\"pong\"}");
            assertThat(lease("health-1")).isAfter(LOCAL.clock().instant());
            agent.send(health("health-404"));
            JsonNode refused = JSON.readTree(agent.next(WITHIN));
            assertThat(refused.path("__type").asText()).isEqualTo("NotFoundException");
            assertThat(refused.path("Message").asText()).contains("health-404");
        }
        assertThat(lease("health-1")).as("ended at $disconnect").isEqualTo(LOCAL.clock().instant());
    }

    @Test
    void anotherInstancesSessionIsRefusedAndNothingIsRecorded() throws Exception {
        String instance = instances.get(1);
        PushClient.Connected refused = connect(LocalProfileExtension.BOUND_GAME_SERVER, instance);
        assertThat(refused.refusedWith()).isEqualTo(403);
        assertThat(recorded(instance)).isNull();
        assertThat(connect(LocalProfileExtension.MATCHMAKER, instance).refusedWith()).isEqualTo(403);
        assertThat(recorded(instance)).isNull();
    }

    @Test
    void aGoneConnectionIsClearedAndTheClaimStillSucceeds() {
        String instance = instances.get(2);
        admin.register(GROUP, "gone-1", instance).ok();
        // an agent gone without $disconnect: its connection is still recorded, and copied onto its server
        LOCAL.profile().services().pushConnections().connect(Caller.ADMINISTRATOR, GROUP, instance, "staleConnection1", OptionalInt.empty());
        matchmaker.claim(GROUP, GamefleetClient.obj().put("GameServerId", "gone-1")).ok();
        assertThat(recorded(instance)).as("cleared at PostToConnection's 410").isNull();
    }

    @Test
    void anOperatorsDeregistrationTellsTheAgentToTerminate() throws Exception {
        String instance = instances.get(1);
        admin.register(GROUP, "stuck-1", instance).ok();
        try (PushClient agent = connect(LocalProfileExtension.ADMIN, instance).client()) {
            admin.deregister(GROUP, "stuck-1").ok();
            JsonNode notice = JSON.readTree(agent.next(WITHIN));
            assertThat(notice.path("action").asText()).isEqualTo("terminate");
            assertThat(notice.path("gameServerId").asText()).isEqualTo("stuck-1");
            assertThat(notice.path("reason").asText()).isEqualTo("operator");
        }
    }

    // ---- each simulated instance's metadata, and its interruption ---------------------------

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** At the instance's metadata endpoint as its agent is given it, with the endpoint's secret. */
    private static HttpRequest.Builder imds(String instance, String path) {
        return HttpRequest.newBuilder(URI.create(LOCAL.profile().edge().metadataEndpoint(instance) + path));
    }

    private static HttpResponse<String> item(String instance, String item, String token) throws Exception {
        return send(imds(instance, "/latest/meta-data/" + item).header("X-aws-ec2-metadata-token", token));
    }

    @Test
    void theMetadataNeedsAnImdsV2TokenAndAnInterruptionShowsInItAndEndsTheInstanceTwoMinutesLater()
            throws Exception {
        LOCAL.admin().createActive(GamefleetClient.groupBody("interrupted", 1, 1));
        String instance = LOCAL.profile().fleet().instancesOf("interrupted").get(0).instanceId();
        assertThat(send(imds(instance, "/latest/meta-data/instance-id")).statusCode()).as("no token").isEqualTo(401);
        HttpResponse<String> token = send(imds(instance, "/latest/api/token")
                .header("X-aws-ec2-metadata-token-ttl-seconds", "21600").PUT(HttpRequest.BodyPublishers.noBody()));
        assertThat(token.statusCode()).as("no run token needed: the agent has none").isEqualTo(200);
        assertThat(item(instance, "instance-id", token.body()).body()).isEqualTo(instance);
        assertThat(item(instance, "spot/instance-action", token.body()).statusCode()).isEqualTo(404);

        HttpRequest.Builder interrupt = HttpRequest.newBuilder(URI.create(LOCAL.profile().endpoint()
                + "/_local/instances/" + instance + "/interrupt")).POST(HttpRequest.BodyPublishers.noBody());
        assertThat(send(interrupt).statusCode()).as("without the run token").isEqualTo(403);
        assertThat(status("interrupted", instance)).isEqualTo(InstanceStatus.ACTIVE);
        HttpResponse<String> interrupted = send(interrupt.header("X-Gamefleet-Local-Token", LOCAL.profile().localToken()));
        assertThat(interrupted.statusCode()).isEqualTo(200);
        String end = LOCAL.clock().instant().plus(Duration.ofMinutes(2)).toString();
        assertThat(JSON.readTree(interrupted.body()).path("TerminationTime").asText()).isEqualTo(end);

        HttpResponse<String> action = item(instance, "spot/instance-action", token.body());
        assertThat(action.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(action.body()).path("action").asText()).isEqualTo("terminate");
        assertThat(JSON.readTree(action.body()).path("time").asText()).isEqualTo(end);
        assertThat(status("interrupted", instance)).as("EventBridge's warning, handled").isEqualTo(InstanceStatus.SPOT_TERMINATING);

        LOCAL.clock().advance(Duration.ofSeconds(119));
        LOCAL.profile().fleet().tick();
        assertThat(LOCAL.profile().fleet().instance(instance)).isPresent();
        LOCAL.clock().advance(Duration.ofSeconds(1));
        LOCAL.profile().fleet().tick();
        assertThat(LOCAL.profile().fleet().instance(instance)).as("ended two minutes later").isEmpty();
        assertThat(send(interrupt.header("X-Gamefleet-Local-Token", LOCAL.profile().localToken())).statusCode())
                .isEqualTo(404);
    }

    static InstanceStatus status(String group, String instance) {
        return LOCAL.profile().services().groups().describeInstances(group, Optional.of(List.of(instance)), 10,
                Optional.empty()).items().get(0).instanceStatus();
    }
}

package io.gamefleet.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerRepository.HealthLease;
import io.gamefleet.domain.GameServerRepository.ReportedProcess;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.ProcessReport;
import io.gamefleet.domain.ProcessState;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.wiring.TestServices;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Gamefleet's own route to a game server's process: an ADMIN's read, its refusals as the REST routes' JSON. */
class DescribeGameServerProcessHandlerTest {
    private static final String INSTANCE = "i-0aaaaaaaaaaaaaaaa";
    private static final String ADMIN = RestEvents.session(Role.ADMIN, "alice");

    private final TestServices test = new TestServices();
    private final com.amazonaws.services.lambda.runtime.RequestHandler<com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler =
            new FunctionRegistry(test.services).extension(Routes.DESCRIBE_GAME_SERVER_PROCESS);

    @BeforeEach
    void aServerOfAnActiveGroup() {
        test.groups.create(GameServerGroup.builder().name("arena").arn(test.services.settings().groupArn("arena"))
                .status(GameServerGroupStatus.ACTIVE).minSize(1).maxSize(4)
                .creationTime(test.clock.instant()).lastUpdatedTime(test.clock.instant()).build());
        test.servers.register(GameServer.builder().gameServerGroupName("arena").gameServerId("gs-1").instanceId(INSTANCE)
                .registrationTime(test.clock.instant()).lastHealthCheckTime(test.clock.instant())
                .instanceStatus(InstanceStatus.ACTIVE).instanceLaunchTime(test.clock.instant()).build(), 4, 16);
    }

    private APIGatewayV2HTTPResponse get(String group, String id, Map<String, String> query, String body, String caller) {
        return handler.handleRequest(RestEvents.event("GET", "/game-server-groups/" + group + "/game-servers/" + id
                + "/process", Map.of("GameServerGroupName", group, "GameServerId", id), query, body, caller), null);
    }

    @Test
    void anAdministratorReadsTheProcessAsItsAgentLastReportedIt() {
        JsonNode none = RestEvents.ok(get("arena", "gs-1", null, null, ADMIN)).get("GameServerProcess");
        assertThat(none.toString()).isEqualTo("{\"GameServerGroupName\":\"arena\",\"GameServerGroupArn\":\""
                + test.services.settings().groupArn("arena") + "\",\"GameServerId\":\"gs-1\",\"InstanceId\":\""
                + INSTANCE + "\"}");

        ProcessReport active = new ProcessReport(ProcessState.Active, 3, List.of("p1", "p2"), 1, 0, 139,
                Map.of("query", 8000, "game", 7000));
        test.servers.setHealthLease("arena", "gs-1", INSTANCE, new HealthLease(test.clock.instant().plusSeconds(600),
                Optional.of(test.clock.instant()), "conn-1", Optional.of(new ReportedProcess(active,
                        test.clock.instant(), test.clock.instant(), test.clock.instant().plusSeconds(86_400)))));
        JsonNode process = RestEvents.ok(get("arena", "gs-1", null, null, ADMIN)).get("GameServerProcess");
        assertThat(process.get("State").asText()).isEqualTo("Active");
        assertThat(process.get("ConnectedPlayers").asInt()).isEqualTo(3);
        assertThat(process.get("PlayerIds").toString()).isEqualTo("[\"p1\",\"p2\"]");
        assertThat(process.get("Crashes").asInt()).isEqualTo(1);
        assertThat(process.get("StartTimeouts").asInt()).isZero();
        assertThat(process.get("LastExitCode").asInt()).isEqualTo(139);
        assertThat(process.get("Ports").toString()).isEqualTo("{\"game\":7000,\"query\":8000}");
        assertThat(process.get("ReportTime").decimalValue())
                .isEqualByComparingTo(java.math.BigDecimal.valueOf(test.clock.instant().toEpochMilli(), 3));
    }

    @Test
    void refusalsAreTheRestRoutesJsonErrors() {
        APIGatewayV2HTTPResponse unknown = get("arena", "gs-404", null, null, ADMIN);
        assertThat(unknown.getStatusCode()).isEqualTo(404);
        assertThat(unknown.getBody()).contains("NotFoundException", "game server gs-404 is not registered");
        assertThat(get("arena", "#process#gs-1", null, null, ADMIN).getStatusCode()).as("not a game server id")
                .isEqualTo(400);
        assertThat(get("a".repeat(300), "gs-1", null, null, ADMIN).getStatusCode()).isEqualTo(400);
        APIGatewayV2HTTPResponse query = get("arena", "gs-1", Map.of("Limit", "5"), null, ADMIN);
        assertThat(query.getStatusCode()).isEqualTo(400);
        assertThat(query.getBody()).contains("takes no query parameter");
        assertThat(get("arena", "gs-1", null, "{\"GameServerId\":\"gs-2\"}", ADMIN).getStatusCode()).isEqualTo(400);
        APIGatewayV2HTTPResponse matchmaker = get("arena", "gs-1", null, null, RestEvents.session(Role.MATCHMAKER, "mm"));
        assertThat(matchmaker.getStatusCode()).as("IAM lets only ADMIN call it; the domain says so too").isEqualTo(403);
        assertThat(matchmaker.getBody()).contains("UnauthorizedException", "only an administrator");
    }
}

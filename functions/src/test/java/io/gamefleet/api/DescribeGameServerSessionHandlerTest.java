package io.gamefleet.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.wiring.TestServices;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A game server's read of its own server's session: its instance's process or an ADMIN, and no one else. */
class DescribeGameServerSessionHandlerTest {
    private static final String INSTANCE = "i-0aaaaaaaaaaaaaaaa";
    private static final String OTHER_INSTANCE = "i-0bbbbbbbbbbbbbbbb";
    private static final String ID = "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b";
    private static final String GAME_SERVER = RestEvents.session(Role.GAME_SERVER, INSTANCE);

    private final TestServices test = new TestServices();
    private final FunctionRegistry registry = new FunctionRegistry(test.services);
    private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler =
            registry.extension(Routes.DESCRIBE_GAME_SERVER_SESSION);

    @BeforeEach
    void aServerClaimedByASession() {
        test.groups.create(GameServerGroup.builder().name("arena").arn(test.services.settings().groupArn("arena"))
                .status(GameServerGroupStatus.ACTIVE).minSize(1).maxSize(4)
                .creationTime(test.clock.instant()).lastUpdatedTime(test.clock.instant()).build());
        register("gs-1", INSTANCE);
        APIGatewayV2HTTPResponse created = registry.extension(Routes.CREATE_SESSION).handleRequest(RestEvents.event("POST",
                "/game-server-groups/arena/sessions", Map.of("GameServerGroupName", "arena"), null,
                "{\"SessionId\":\"" + ID + "\",\"SessionCookie\":\"map=dust2\",\"InitialPlayers\":[\"p1\",\"p2\"]}",
                RestEvents.session(Role.MATCHMAKER, "mm")), null);
        assertThat(RestEvents.ok(created).path("Session").path("GameServerId").asText()).isEqualTo("gs-1");
        register("gs-2", OTHER_INSTANCE); // never claimed
    }

    private void register(String id, String instance) {
        test.servers.register(GameServer.builder().gameServerGroupName("arena").gameServerId(id).instanceId(instance)
                .connectionInfo("10.0.0.1:7777").registrationTime(test.clock.instant())
                .lastHealthCheckTime(test.clock.instant()).instanceStatus(InstanceStatus.ACTIVE)
                .instanceLaunchTime(test.clock.instant()).build(), 4, 16);
    }

    private APIGatewayV2HTTPResponse get(String id, String caller) {
        return handler.handleRequest(RestEvents.event("GET", "/game-server-groups/arena/game-servers/" + id + "/session",
                Map.of("GameServerGroupName", "arena", "GameServerId", id), null, null, caller), null);
    }

    @Test
    void theProcessOnTheServersInstanceReadsItsSessionsIdCookieAndPlayers() {
        assertThat(RestEvents.ok(get("gs-1", GAME_SERVER)).toString()).isEqualTo("{\"Session\":{\"SessionId\":\"" + ID
                + "\",\"SessionCookie\":\"map=dust2\",\"InitialPlayers\":[\"p1\",\"p2\"]}}");
        assertThat(RestEvents.ok(get("gs-1", RestEvents.session(Role.ADMIN, "alice"))).path("Session").path("SessionId")
                .asText()).isEqualTo(ID);
        APIGatewayV2HTTPResponse none = get("gs-2", RestEvents.session(Role.GAME_SERVER, OTHER_INSTANCE));
        assertThat(none.getStatusCode()).as("its claim is no session's").isEqualTo(404);
        assertThat(none.getBody()).contains("NotFoundException", "game server gs-2's current claim is no session's");
    }

    @Test
    void anotherInstancesProcessAMatchmakerAndAnUnboundGameServerAreRefused() {
        APIGatewayV2HTTPResponse other = get("gs-1", RestEvents.session(Role.GAME_SERVER, OTHER_INSTANCE));
        assertThat(other.getStatusCode()).isEqualTo(403);
        assertThat(other.getBody()).contains("UnauthorizedException", "only act on game servers of its own instance")
                .doesNotContain("map=dust2", ID);
        APIGatewayV2HTTPResponse matchmaker = get("gs-1", RestEvents.session(Role.MATCHMAKER, INSTANCE));
        assertThat(matchmaker.getStatusCode()).as("named after the instance, of another role").isEqualTo(403);
        assertThat(matchmaker.getBody()).contains("UnauthorizedException", "own instance");
        assertThat(get("gs-1", RestEvents.session(Role.GAME_SERVER, "not-an-instance")).getStatusCode())
                .as("bound to no instance").isEqualTo(403);
        assertThat(get("#session#" + ID, GAME_SERVER).getStatusCode()).as("not a game server id").isEqualTo(400);
    }
}

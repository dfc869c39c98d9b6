package io.gamefleet.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The REST route table and the JSON door (docs/api.md). */
class RoutesTest {
    @ParameterizedTest
    @EnumSource(Operation.class)
    void eachOperationHasExactlyOneRouteAndOfFindsIt(Operation operation) {
        Route route = Routes.of(operation);
        assertThat(route.operation()).isEqualTo(operation);
        assertThat(Routes.ALL.stream().filter(r -> r.operation() == operation)).containsExactly(route);
        assertThat(route.functionName()).isEqualTo(operation.functionName());
        assertThat(route.handlerClass()).isEqualTo(operation.handlerClass());
        assertThat(route.handlerMethod()).isEqualTo(operation.handlerMethod());
    }

    @Test
    void routesAreTheDocumentedOnes() {
        assertThat(Routes.of(Operation.CREATE_GAME_SERVER_GROUP))
                .isEqualTo(new Route(Operation.CREATE_GAME_SERVER_GROUP, "POST", "/game-server-groups", Set.of(),
                        Set.of(Role.ADMIN)));
        assertThat(Routes.of(Operation.LIST_GAME_SERVERS)).isEqualTo(new Route(Operation.LIST_GAME_SERVERS, "GET",
                "/game-server-groups/{GameServerGroupName}/game-servers", Set.of("SortOrder", "Limit", "NextToken"),
                Set.of(Role.ADMIN, Role.MATCHMAKER)));
        assertThat(Routes.of(Operation.DEREGISTER_GAME_SERVER)).isEqualTo(new Route(Operation.DEREGISTER_GAME_SERVER,
                "DELETE", "/game-server-groups/{GameServerGroupName}/game-servers/{GameServerId}", Set.of(),
                Set.of(Role.ADMIN, Role.GAME_SERVER)));
        assertThat(Routes.of(Operation.DESCRIBE_GAME_SERVER).roles()).containsExactlyInAnyOrder(Role.values());
        assertThat(Routes.of(Operation.CLAIM_GAME_SERVER).path()).isEqualTo("/game-server-groups/{GameServerGroupName}/claim");
        assertThat(Routes.of(Operation.DELETE_GAME_SERVER_GROUP).queryMembers()).containsExactly("DeleteOption");
    }

    @Test
    void aRouteKeepsItsOwnCopyOfItsSets() {
        Set<String> query = new HashSet<>(Set.of("Limit"));
        Set<Role> roles = new HashSet<>(Set.of(Role.ADMIN));
        Route route = new Route(Operation.LIST_GAME_SERVER_GROUPS, "GET", "/game-server-groups", query, roles);
        query.add("NextToken");
        roles.add(Role.MATCHMAKER);
        assertThat(route.queryMembers()).containsExactly("Limit");
        assertThat(route.roles()).containsExactly(Role.ADMIN);
    }

    @Test
    void theJsonDoorIsOneFunctionAtPostSlash() {
        JsonDoor door = Routes.JSON_DOOR;
        assertThat(door.method()).isEqualTo("POST");
        assertThat(door.path()).isEqualTo("/");
        assertThat(door.functionName()).isEqualTo("gamefleet-GameLiftJson");
        assertThat(door.handlerMethod()).isEqualTo("io.gamefleet.functions.GameLiftJsonHandler::handleRequest");
    }

    /** Gamefleet's own routes: no FleetIQ operation, no CBOR path; one function each. */
    @Test
    void theProcessRouteIsAnAdminsReadOfOneServersProcess() {
        ExtensionRoute process = Routes.DESCRIBE_GAME_SERVER_PROCESS;
        assertThat(process.routeKey())
                .isEqualTo("GET /game-server-groups/{GameServerGroupName}/game-servers/{GameServerId}/process");
        assertThat(process.roles()).containsExactly(Role.ADMIN);
        assertThat(process.functionName()).isEqualTo("gamefleet-DescribeGameServerProcess");
        assertThat(process.handlerMethod()).isEqualTo("io.gamefleet.api.DescribeGameServerProcessHandler::handleRequest");
        assertThat(Routes.EXTENSIONS).containsExactly(process, Routes.CREATE_SESSION, Routes.DESCRIBE_SESSION,
                Routes.DESCRIBE_GAME_SERVER_SESSION,
                Routes.PUT_STANDBY_POLICY, Routes.DESCRIBE_STANDBY_POLICY,
                Routes.PUT_CLAIM_STRATEGY, Routes.DESCRIBE_CLAIM_STRATEGY,
                Routes.LIST_SESSIONS, Routes.LIST_QOS_SERVERS, Routes.LIST_REGIONS, Routes.DESCRIBE_GROUP_SUMMARY,
                Routes.DESCRIBE_GROUP_METRICS, Routes.CREATE_CONTAINER_GROUP);
        for (ExtensionRoute extension : Routes.EXTENSIONS) {
            assertThat(Routes.ALL).noneMatch(r -> (r.method() + " " + r.path()).equals(extension.routeKey())
                    || r.functionName().equals(extension.functionName()));
        }
    }

    /** A container group is an ADMIN's to create, as a game server group is, beside FleetIQ's path. */
    @Test
    void aContainerGroupIsAnAdminsToCreate() {
        assertThat(Routes.CREATE_CONTAINER_GROUP.routeKey()).isEqualTo("POST /container-groups");
        assertThat(Routes.CREATE_CONTAINER_GROUP.roles()).containsExactly(Role.ADMIN);
        assertThat(Routes.CREATE_CONTAINER_GROUP.queryMembers()).isEmpty();
        assertThat(Routes.CREATE_CONTAINER_GROUP.handlerClass()).isEqualTo("io.gamefleet.api.CreateContainerGroupHandler");
    }

    /** A group setting an ADMIN puts and a matchmaker may read: one path, two functions. */
    @Test
    void theClaimStrategyIsAnAdminsToPutAndAMatchmakersToo() {
        assertThat(Routes.PUT_CLAIM_STRATEGY.routeKey()).isEqualTo("PUT /game-server-groups/{GameServerGroupName}/claim-strategy");
        assertThat(Routes.PUT_CLAIM_STRATEGY.roles()).containsExactly(Role.ADMIN);
        assertThat(Routes.DESCRIBE_CLAIM_STRATEGY.routeKey())
                .isEqualTo("GET /game-server-groups/{GameServerGroupName}/claim-strategy");
        assertThat(Routes.DESCRIBE_CLAIM_STRATEGY.roles()).containsExactlyInAnyOrder(Role.ADMIN, Role.MATCHMAKER);
        assertThat(Routes.DESCRIBE_CLAIM_STRATEGY.functionName()).isEqualTo("gamefleet-DescribeClaimStrategy");
    }

    /** A matchmaker's or an ADMIN's, never a game server's: its session route and its own function. */
    @Test
    void theSessionRoutesAreAMatchmakersClaimAndRead() {
        assertThat(Routes.CREATE_SESSION.routeKey()).isEqualTo("POST /game-server-groups/{GameServerGroupName}/sessions");
        assertThat(Routes.DESCRIBE_SESSION.routeKey())
                .isEqualTo("GET /game-server-groups/{GameServerGroupName}/sessions/{SessionId}");
        assertThat(Routes.LIST_SESSIONS.routeKey()).isEqualTo("GET /game-server-groups/{GameServerGroupName}/sessions");
        for (ExtensionRoute session : List.of(Routes.CREATE_SESSION, Routes.DESCRIBE_SESSION, Routes.LIST_SESSIONS)) {
            assertThat(session.roles()).containsExactlyInAnyOrder(Role.ADMIN, Role.MATCHMAKER);
        }
        // a listing's query, as ListGameServers'; the others take none
        assertThat(Routes.LIST_SESSIONS.queryMembers()).containsExactlyInAnyOrder("Limit", "NextToken");
        assertThat(Routes.DESCRIBE_SESSION.queryMembers()).isEmpty();
        assertThat(Routes.CREATE_SESSION.functionName()).isEqualTo("gamefleet-CreateSession");
        assertThat(Routes.DESCRIBE_SESSION.handlerClass()).isEqualTo("io.gamefleet.api.DescribeSessionHandler");
        assertThat(SessionLimits.SESSION_ID.matcher("3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b").matches()).isTrue();
        assertThat(SessionLimits.SESSION_ID.matcher("3f2a1b4c5d6e4f708a9b0c1d2e3f4a5b").matches()).isFalse();
    }

    /** Any Gamefleet role's read, of no group: a client's matchmaker, an ADMIN, a game server choosing a region. */
    @Test
    void theQosServersAreAnyRolesListing() {
        assertThat(Routes.LIST_QOS_SERVERS.routeKey()).isEqualTo("GET /qos-servers");
        assertThat(Routes.LIST_QOS_SERVERS.roles()).containsExactlyInAnyOrder(Role.ADMIN, Role.MATCHMAKER, Role.GAME_SERVER);
        assertThat(Routes.LIST_QOS_SERVERS.queryMembers()).containsExactly("Region");
        assertThat(Routes.LIST_QOS_SERVERS.handlerClass()).isEqualTo("io.gamefleet.api.ListQosServersHandler");
    }

    /** The regions a session may be placed in: any role's read, of no group, that reads no table. */
    @Test
    void theRegionsAreAnyRolesListingOfNoTable() {
        assertThat(Routes.LIST_REGIONS.routeKey()).isEqualTo("GET /regions");
        assertThat(Routes.LIST_REGIONS.roles()).containsExactlyInAnyOrder(Role.ADMIN, Role.MATCHMAKER, Role.GAME_SERVER);
        assertThat(FunctionAccess.of(Routes.LIST_REGIONS.functionName()).tables()).isEmpty();
        assertThat(FunctionAccess.callsPeers(Routes.LIST_REGIONS.functionName())).isTrue();
        assertThat(FunctionAccess.callsPeers(Routes.CREATE_SESSION.functionName())).isTrue();
        assertThat(FunctionAccess.callsPeers(Routes.DESCRIBE_SESSION.functionName())).isFalse();
    }

    /** A console's read of a group's header: an ADMIN's or a matchmaker's, two GetItems of the groups table. */
    @Test
    void theGroupsSummaryIsAReadOfTheGroupsTableAlone() {
        assertThat(Routes.DESCRIBE_GROUP_SUMMARY.routeKey()).isEqualTo("GET /game-server-groups/{GameServerGroupName}/summary");
        assertThat(Routes.DESCRIBE_GROUP_SUMMARY.roles()).containsExactlyInAnyOrder(Role.ADMIN, Role.MATCHMAKER);
        assertThat(Routes.DESCRIBE_GROUP_SUMMARY.handlerClass()).isEqualTo("io.gamefleet.api.DescribeGameServerGroupSummaryHandler");
        assertThat(FunctionAccess.of(Routes.DESCRIBE_GROUP_SUMMARY.functionName()).tables())
                .extracting(t -> t.table()).containsExactly(Tables.GAME_SERVER_GROUPS);
    }

    /** A console's charts' history: an ADMIN's or a matchmaker's read of the group's item and of CloudWatch alone. */
    @Test
    void theGroupsMetricsAreAReadOfCloudWatch() {
        assertThat(Routes.DESCRIBE_GROUP_METRICS.routeKey()).isEqualTo("GET /game-server-groups/{GameServerGroupName}/metrics");
        assertThat(Routes.DESCRIBE_GROUP_METRICS.roles()).containsExactlyInAnyOrder(Role.ADMIN, Role.MATCHMAKER);
        assertThat(FunctionAccess.readsMetrics(Routes.DESCRIBE_GROUP_METRICS.functionName())).isTrue();
        assertThat(FunctionAccess.readsMetrics(Routes.DESCRIBE_GROUP_SUMMARY.functionName())).isFalse();
        assertThat(FunctionAccess.of(Routes.DESCRIBE_GROUP_METRICS.functionName()).tables())
                .extracting(t -> t.table()).containsExactly(Tables.GAME_SERVER_GROUPS);
    }

    /** A game server's read of its own server's session (or an ADMIN's), never a matchmaker's. */
    @Test
    void theServersSessionRouteIsAGameServersRead() {
        ExtensionRoute session = Routes.DESCRIBE_GAME_SERVER_SESSION;
        assertThat(session.routeKey())
                .isEqualTo("GET /game-server-groups/{GameServerGroupName}/game-servers/{GameServerId}/session");
        assertThat(session.roles()).containsExactlyInAnyOrder(Role.ADMIN, Role.GAME_SERVER);
        assertThat(session.queryMembers()).isEmpty();
        assertThat(session.functionName()).isEqualTo("gamefleet-DescribeGameServerSession");
        assertThat(session.handlerClass()).isEqualTo("io.gamefleet.api.DescribeGameServerSessionHandler");
    }

    /** An ADMIN's setting, which a matchmaker may read: the group's standby route and its own functions. */
    @Test
    void theStandbyRoutesAreAnAdminsSettingAMatchmakerMayRead() {
        assertThat(Routes.PUT_STANDBY_POLICY.routeKey()).isEqualTo("PUT /game-server-groups/{GameServerGroupName}/standby");
        assertThat(Routes.DESCRIBE_STANDBY_POLICY.routeKey())
                .isEqualTo("GET /game-server-groups/{GameServerGroupName}/standby");
        assertThat(Routes.PUT_STANDBY_POLICY.roles()).containsExactly(Role.ADMIN);
        assertThat(Routes.DESCRIBE_STANDBY_POLICY.roles()).containsExactlyInAnyOrder(Role.ADMIN, Role.MATCHMAKER);
        assertThat(Routes.PUT_STANDBY_POLICY.handlerClass()).isEqualTo("io.gamefleet.api.PutStandbyPolicyHandler");
        assertThat(Routes.DESCRIBE_STANDBY_POLICY.functionName()).isEqualTo("gamefleet-DescribeStandbyPolicy");
    }
}

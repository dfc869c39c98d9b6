package io.gamefleet.catalog;

import static io.gamefleet.catalog.Role.ADMIN;
import static io.gamefleet.catalog.Role.GAME_SERVER;
import static io.gamefleet.catalog.Role.MATCHMAKER;

import java.util.List;
import java.util.Set;

/** The route table of API.md: read by the CDK app (HTTP API routes) and by the local edge server. */
public final class Routes {
    private static final String API = "io.gamefleet.api.";
    private static final String GROUPS = "/game-server-groups";
    private static final String GROUP = GROUPS + "/{GameServerGroupName}";
    private static final String SERVERS = GROUP + "/game-servers";
    private static final String SERVER = SERVERS + "/{GameServerId}";

    public static final List<Route> ALL = List.of(
            route("CreateGameServerGroup", "POST", GROUPS, ADMIN),
            route("ListGameServerGroups", "GET", GROUPS, ADMIN, MATCHMAKER),
            route("DescribeGameServerGroup", "GET", GROUP, ADMIN, MATCHMAKER),
            route("UpdateGameServerGroup", "PATCH", GROUP, ADMIN),
            route("DeleteGameServerGroup", "DELETE", GROUP, ADMIN),
            route("SuspendGameServerGroup", "POST", GROUP + "/suspend", ADMIN),
            route("ResumeGameServerGroup", "POST", GROUP + "/resume", ADMIN),
            route("DescribeGameServerInstances", "GET", GROUP + "/instances", ADMIN, MATCHMAKER),
            route("RegisterGameServer", "POST", SERVERS, ADMIN, GAME_SERVER),
            route("ListGameServers", "GET", SERVERS, ADMIN, MATCHMAKER),
            route("DescribeGameServer", "GET", SERVER, ADMIN, MATCHMAKER, GAME_SERVER),
            route("UpdateGameServer", "PATCH", SERVER, ADMIN, GAME_SERVER),
            route("DeregisterGameServer", "DELETE", SERVER, ADMIN, GAME_SERVER),
            route("ClaimGameServer", "POST", GROUP + "/claim", ADMIN, MATCHMAKER));

    private Routes() {}

    private static Route route(String operation, String method, String path, Role... roles) {
        return new Route(operation, method, path, API + operation + "Handler", Set.of(roles));
    }

    public static Route byOperation(String operation) {
        return ALL.stream().filter(r -> r.operation().equals(operation)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no route for " + operation));
    }
}

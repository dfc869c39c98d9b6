package io.gamefleet.catalog;

import static io.gamefleet.catalog.Role.ADMIN;
import static io.gamefleet.catalog.Role.GAME_SERVER;
import static io.gamefleet.catalog.Role.MATCHMAKER;

import java.util.List;
import java.util.Set;

/** The route table of API.md: read by the CDK app (HTTP API routes) and by the local edge server. */
public final class Routes {
    private static final String GROUPS = "/game-server-groups";
    private static final String GROUP = GROUPS + "/{GameServerGroupName}";
    private static final String SERVERS = GROUP + "/game-servers";
    private static final String SERVER = SERVERS + "/{GameServerId}";

    public static final List<Route> ALL = List.of(
            route(Operation.CREATE_GAME_SERVER_GROUP, "POST", GROUPS, ADMIN),
            route(Operation.LIST_GAME_SERVER_GROUPS, "GET", GROUPS, ADMIN, MATCHMAKER),
            route(Operation.DESCRIBE_GAME_SERVER_GROUP, "GET", GROUP, ADMIN, MATCHMAKER),
            route(Operation.UPDATE_GAME_SERVER_GROUP, "PATCH", GROUP, ADMIN),
            route(Operation.DELETE_GAME_SERVER_GROUP, "DELETE", GROUP, ADMIN),
            route(Operation.SUSPEND_GAME_SERVER_GROUP, "POST", GROUP + "/suspend", ADMIN),
            route(Operation.RESUME_GAME_SERVER_GROUP, "POST", GROUP + "/resume", ADMIN),
            route(Operation.DESCRIBE_GAME_SERVER_INSTANCES, "GET", GROUP + "/instances", ADMIN, MATCHMAKER),
            route(Operation.REGISTER_GAME_SERVER, "POST", SERVERS, ADMIN, GAME_SERVER),
            route(Operation.LIST_GAME_SERVERS, "GET", SERVERS, ADMIN, MATCHMAKER),
            route(Operation.DESCRIBE_GAME_SERVER, "GET", SERVER, ADMIN, MATCHMAKER, GAME_SERVER),
            route(Operation.UPDATE_GAME_SERVER, "PATCH", SERVER, ADMIN, GAME_SERVER),
            route(Operation.DEREGISTER_GAME_SERVER, "DELETE", SERVER, ADMIN, GAME_SERVER),
            route(Operation.CLAIM_GAME_SERVER, "POST", GROUP + "/claim", ADMIN, MATCHMAKER));

    private Routes() {}

    private static Route route(Operation operation, String method, String path, Role... roles) {
        return new Route(operation, method, path, Set.of(roles));
    }

    public static Route of(Operation operation) {
        return ALL.stream().filter(r -> r.operation() == operation).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no route for " + operation));
    }
}

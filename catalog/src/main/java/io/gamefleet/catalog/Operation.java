package io.gamefleet.catalog;

/**
 * The API operations, by their FleetIQ names: the one place an operation's name is written. Each
 * is served by one Lambda function whose handler class is named after it.
 */
public enum Operation {
    CREATE_GAME_SERVER_GROUP("CreateGameServerGroup"),
    LIST_GAME_SERVER_GROUPS("ListGameServerGroups"),
    DESCRIBE_GAME_SERVER_GROUP("DescribeGameServerGroup"),
    UPDATE_GAME_SERVER_GROUP("UpdateGameServerGroup"),
    DELETE_GAME_SERVER_GROUP("DeleteGameServerGroup"),
    SUSPEND_GAME_SERVER_GROUP("SuspendGameServerGroup"),
    RESUME_GAME_SERVER_GROUP("ResumeGameServerGroup"),
    DESCRIBE_GAME_SERVER_INSTANCES("DescribeGameServerInstances"),
    REGISTER_GAME_SERVER("RegisterGameServer"),
    LIST_GAME_SERVERS("ListGameServers"),
    DESCRIBE_GAME_SERVER("DescribeGameServer"),
    UPDATE_GAME_SERVER("UpdateGameServer"),
    DEREGISTER_GAME_SERVER("DeregisterGameServer"),
    CLAIM_GAME_SERVER("ClaimGameServer");

    private static final String HANDLERS = "io.gamefleet.api.";

    private final String fleetIqName;

    Operation(String fleetIqName) {
        this.fleetIqName = fleetIqName;
    }

    /** The name FleetIQ's API model and wire protocols use. */
    public String fleetIqName() {
        return fleetIqName;
    }

    /** The Lambda function name of this operation's handler, as deployed and as served locally. */
    public String functionName() {
        return Catalog.FUNCTION_PREFIX + fleetIqName;
    }

    public String handlerClass() {
        return HANDLERS + fleetIqName + "Handler";
    }

    public String handlerMethod() {
        return handlerClass() + "::handleRequest";
    }

    @Override
    public String toString() {
        return fleetIqName;
    }
}

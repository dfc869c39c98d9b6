package io.gamefleet.catalog;

import java.util.Arrays;
import java.util.Optional;

/**
 * The API operations, by their FleetIQ names: the one place an operation's name is written. Each
 * is served by one Lambda function whose handler class is named after it, at three doors: its
 * REST route ({@link Routes}), its Smithy RPC v2 CBOR path, and the AWS JSON 1.1 target that the
 * JSON door dispatches on.
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
    /** GameLift's service name in the Smithy model, which both RPC protocols are addressed by. */
    private static final String SERVICE = "GameLift";
    private static final String CBOR_PATH_PREFIX = "/service/" + SERVICE + "/operation/";

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

    /** The Smithy RPC v2 CBOR path: {@code POST /service/GameLift/operation/<Operation>}. */
    public String cborPath() {
        return CBOR_PATH_PREFIX + fleetIqName;
    }

    /** The AWS JSON 1.1 {@code X-Amz-Target} header value: {@code GameLift.<Operation>}. */
    public String jsonTarget() {
        return SERVICE + "." + fleetIqName;
    }

    public static Optional<Operation> byJsonTarget(String target) {
        return Arrays.stream(values()).filter(o -> o.jsonTarget().equals(target)).findFirst();
    }

    public static Optional<Operation> byCborPath(String path) {
        return Arrays.stream(values()).filter(o -> o.cborPath().equals(path)).findFirst();
    }

    @Override
    public String toString() {
        return fleetIqName;
    }
}

package io.gamefleet.functions;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.gamefleet.wiring.TestServices;
import io.gamefleet.wiring.Services;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The JSON door authorizes as the per-operation routes' IAM policies would. A request it lets
 * through reaches validation: the body below names no group, so an admitted caller gets
 * InvalidRequestException, never a store call (DynamoDB here is unreachable).
 */
class GameLiftJsonHandlerTest {
    private static final String ACCOUNT = "123456789012";
    private static final String REQUEST_ID = "Kq3bLgZZoAMEJzw=";
    private static final String VIEWER_ROLE_ID = "AROAVIEWER0000000000";
    /** A console viewer's session, as the identity pool names it. */
    private static final String VIEWER = session("Gamefleet-prod-ConsoleViewerRole", "CognitoIdentityCredentials");
    private final GameLiftJsonHandler door = new GameLiftJsonHandler(TestServices.unreachableStore(Map.of(
            "GAMEFLEET_ADMIN_ROLE_ARN", "arn:aws:iam::" + ACCOUNT + ":role/ops/gamefleet-admin",
            "GAMEFLEET_MATCHMAKER_ROLE_ARN", "arn:aws:iam::" + ACCOUNT + ":role/gamefleet-matchmaker",
            "GAMEFLEET_GAME_SERVER_ROLE_ARN", "arn:aws:iam::" + ACCOUNT + ":role/gamefleet-game-server",
            "GAMEFLEET_VIEWER_ROLE_ARN", "arn:aws:iam::" + ACCOUNT + ":role/Gamefleet-prod-ConsoleViewerRole",
            "GAMEFLEET_VIEWER_ROLE_ID", VIEWER_ROLE_ID)));

    @Test
    void aRoleAllowedTheOperationGetsThrough() {
        assertType(call("GameLift.ClaimGameServer", session("gamefleet-matchmaker", "mm-1")), "InvalidRequestException");
        // A role's path is not part of its sessions' ARNs.
        assertType(call("GameLift.CreateGameServerGroup", session("gamefleet-admin", "ops")), "InvalidRequestException");
    }

    @Test
    void aRoleNotAllowedTheOperationIsRefused() {
        APIGatewayV2HTTPResponse response = call("GameLift.CreateGameServerGroup", session("gamefleet-matchmaker", "mm-1"));
        assertType(response, "UnauthorizedException");
        assertThat(response.getBody()).contains("a MATCHMAKER caller may not call CreateGameServerGroup");
        assertType(call("GameLift.ClaimGameServer", session("gamefleet-game-server", "i-0123456789abcdef0")),
                "UnauthorizedException");
    }

    @Test
    void callersOutsideTheDeploymentsRolesAreRefused() {
        assertType(call("GameLift.ClaimGameServer", session("someone-else", "x")), "UnauthorizedException");
        assertType(call("GameLift.ClaimGameServer",
                "arn:aws:sts::999999999999:assumed-role/gamefleet-matchmaker/mm-1"), "UnauthorizedException");
        assertType(call("GameLift.ClaimGameServer", "arn:aws:iam::" + ACCOUNT + ":user/alice"), "UnauthorizedException");
    }

    /** ConsoleAccess: a MATCHMAKER's reads, nothing else, and only for a session of that very role. */
    @Test
    void aConsoleViewerMayReadAndNothingElse() {
        String userId = VIEWER_ROLE_ID + ":CognitoIdentityCredentials";
        assertType(call("GameLift.DescribeGameServerGroup", VIEWER, userId), "InvalidRequestException");
        assertType(call("GameLift.ListGameServers", VIEWER, userId), "InvalidRequestException");
        for (String write : java.util.List.of("GameLift.ClaimGameServer", "GameLift.CreateGameServerGroup",
                "GameLift.RegisterGameServer", "GameLift.DeleteGameServerGroup")) {
            APIGatewayV2HTTPResponse response = call(write, VIEWER, userId);
            assertType(response, "UnauthorizedException");
            assertThat(response.getBody()).contains("a console viewer may only read");
        }
        // Another role of the same name (deleted and created again) is not the viewer role.
        assertType(call("GameLift.DescribeGameServerGroup", VIEWER, "AROAOTHER00000000000:CognitoIdentityCredentials"),
                "UnauthorizedException");
    }

    @Test
    void aTargetThatNamesNoOperationIsRefused() {
        APIGatewayV2HTTPResponse response = call("GameLift.CreateFleet", session("gamefleet-admin", "ops"));
        assertType(response, "InvalidRequestException");
        assertThat(response.getBody()).contains("names no GameLift operation");
        assertType(call(null, session("gamefleet-admin", "ops")), "InvalidRequestException");
    }

    private APIGatewayV2HTTPResponse call(String target, String callerArn) {
        return call(target, callerArn, io.gamefleet.api.RestEvents.userId(callerArn));
    }

    private APIGatewayV2HTTPResponse call(String target, String callerArn, String userId) {
        Map<String, String> headers = target == null ? Map.of("content-type", "application/x-amz-json-1.1")
                : Map.of("x-amz-target", target, "content-type", "application/x-amz-json-1.1");
        var iam = APIGatewayV2HTTPEvent.RequestContext.IAM.builder().withUserArn(callerArn)
                .withUserId(userId).withAccountId(ACCOUNT).build();
        APIGatewayV2HTTPEvent event = APIGatewayV2HTTPEvent.builder().withVersion("2.0").withRouteKey("POST /")
                .withHeaders(headers).withBody("{}").withIsBase64Encoded(false)
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder().withRequestId(REQUEST_ID)
                        .withAuthorizer(APIGatewayV2HTTPEvent.RequestContext.Authorizer.builder().withIam(iam).build())
                        .build())
                .build();
        return door.handleRequest(event, null);
    }

    private static String session(String role, String name) {
        return "arn:aws:sts::" + ACCOUNT + ":assumed-role/" + role + "/" + name;
    }

    private static void assertType(APIGatewayV2HTTPResponse response, String type) {
        assertThat(response.getStatusCode()).as(response.getBody()).isEqualTo(400);
        assertThat(response.getHeaders()).containsEntry("x-amzn-ErrorType", type)
                .containsEntry("x-amzn-RequestId", REQUEST_ID); // SDKs put it in their exceptions
    }
}

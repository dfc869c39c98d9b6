package io.gamefleet.api;

import io.gamefleet.wiring.CallerRole;
import static io.gamefleet.api.RestEvents.session;
import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.Role;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.Compute.ScalingGroupState;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.fakes.FakeCompute;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.wiring.TestServices;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * RegisterGameServer naming an instance Gamefleet has not recorded: the API edge tells the domain
 * who the caller is (from the deployment's role ARNs), and only an ADMIN session or the GAME_SERVER
 * session of that very instance has Auto Scaling asked, once per unknown instance.
 */
class RegistrationCallerTest {
    private static final String ACCOUNT = LocalAccount.ACCOUNT_ID;
    private static final String LAUNCHED = "i-0aaaaaaaaaaaaaaaa";
    private static final String OTHER = "i-0bbbbbbbbbbbbbbbb";

    private final TestServices test = new TestServices();
    private final ApiHandler register = new FunctionRegistry(test.services).api(Operation.REGISTER_GAME_SERVER);
    private int serial;

    @BeforeEach
    void anActiveGroupWithAnInstanceNotYetRecorded() {
        test.groups.create(GameServerGroup.builder().name("arena").arn(test.services.settings().groupArn("arena"))
                .status(GameServerGroupStatus.ACTIVE).minSize(1).maxSize(4)
                .creationTime(test.clock.instant()).lastUpdatedTime(test.clock.instant()).build());
        test.compute.putScalingGroup("gamefleet-arena", new ScalingGroupState(1, 1, 4, List.of(), false,
                List.of(new ComputeInstance(LAUNCHED, "c5.large", "us-east-1a", true, false))));
    }

    @Test
    void callersBoundToNoInstanceAreRefusedWithoutAskingAutoScaling() {
        // A role of one's own with the GameServer policy, even with sessions named after an instance, is no instance's.
        for (String caller : List.of(session(Role.MATCHMAKER, "mm-1"), session(Role.MATCHMAKER, LAUNCHED),
                "arn:aws:iam::" + ACCOUNT + ":user/alice", "arn:aws:sts::" + ACCOUNT + ":assumed-role/other/" + LAUNCHED,
                "arn:aws:sts::999999999999:assumed-role/gamefleet-game-server/" + LAUNCHED)) {
            APIGatewayV2HTTPResponse response = register(caller, LAUNCHED);
            assertThat(response.getStatusCode()).as(caller).isEqualTo(403);
            assertThat(response.getBody()).contains("UnauthorizedException").contains("this caller is bound to no instance");
        }
        assertThat(describes()).isZero();
        assertThat(test.servers.find("gs-0")).isEmpty();
    }

    @Test
    void theInstancesOwnGameServerSessionHasItAskedOnce() {
        assertThat(register(session(Role.GAME_SERVER, OTHER), LAUNCHED).getBody())
                .as("another instance's process").contains("UnauthorizedException");
        assertThat(describes()).isZero();

        assertThat(register(session(Role.GAME_SERVER, LAUNCHED), LAUNCHED).getStatusCode()).isEqualTo(200);
        assertThat(register(session(Role.GAME_SERVER, LAUNCHED), LAUNCHED).getStatusCode()).isEqualTo(200);
        assertThat(describes()).isEqualTo(1);
    }

    @Test
    void anAdminSessionHasAnUnknownInstanceAskedAboutOnce() {
        for (int attempt = 0; attempt < 3; attempt++) {
            APIGatewayV2HTTPResponse response = register(session(Role.ADMIN, "ops"), OTHER);
            assertThat(response.getStatusCode()).isEqualTo(400);
            assertThat(response.getBody()).contains("InvalidRequestException").contains("InstanceId " + OTHER);
        }
        assertThat(describes()).isEqualTo(1);
        assertThat(register(session(Role.ADMIN, "ops"), LAUNCHED).getStatusCode()).isEqualTo(200);
        assertThat(describes()).isEqualTo(2);
    }

    @Test
    void theEdgeTellsTheDomainWhoCalls() {
        Map<Role, CallerRole> arns = test.services.callerRoles();
        IamCaller admin = iam(session(Role.ADMIN, LAUNCHED));
        assertThat(admin.domainCaller(admin.roleIn(arns))).isEqualTo(new Caller(Optional.of(LAUNCHED), false, true));
        IamCaller process = iam(session(Role.GAME_SERVER, LAUNCHED));
        assertThat(process.domainCaller(process.roleIn(arns))).isEqualTo(Caller.onInstance(LAUNCHED));
        IamCaller user = iam("arn:aws:iam::" + ACCOUNT + ":user/alice");
        assertThat(user.roleIn(arns)).isEmpty();
        assertThat(user.domainCaller(user.roleIn(arns))).isEqualTo(Caller.UNBOUND);
    }

    private APIGatewayV2HTTPResponse register(String callerArn, String instanceId) {
        String body = "{\"GameServerId\":\"gs-" + serial++ + "\",\"InstanceId\":\"" + instanceId + "\"}";
        return register.handleRequest(event(callerArn, body), null);
    }

    private int describes() {
        return test.compute.calls(FakeCompute.DESCRIBE_SCALING_GROUP).size();
    }


    private static IamCaller iam(String callerArn) {
        return IamCaller.of(event(callerArn, "{}"));
    }

    private static APIGatewayV2HTTPEvent event(String callerArn, String body) {
        String path = "/game-server-groups/arena/game-servers";
        var iam = APIGatewayV2HTTPEvent.RequestContext.IAM.builder().withUserArn(callerArn)
                .withUserId(RestEvents.userId(callerArn)).withAccountId(ACCOUNT).build();
        return APIGatewayV2HTTPEvent.builder().withVersion("2.0").withRawPath(path)
                .withPathParameters(Map.of("GameServerGroupName", "arena")).withBody(body).withIsBase64Encoded(false)
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder().withMethod("POST").withPath(path).build())
                        .withAuthorizer(APIGatewayV2HTTPEvent.RequestContext.Authorizer.builder().withIam(iam).build())
                        .build())
                .build();
    }
}

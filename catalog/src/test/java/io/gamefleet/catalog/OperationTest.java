package io.gamefleet.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** An operation's names at each door, and the lookups the doors dispatch with. */
class OperationTest {
    @Test
    void everyNameIsDerivedFromTheFleetIqName() {
        Operation claim = Operation.CLAIM_GAME_SERVER;
        assertThat(claim.fleetIqName()).isEqualTo("ClaimGameServer");
        assertThat(claim).hasToString("ClaimGameServer");
        assertThat(claim.functionName()).isEqualTo("gamefleet-ClaimGameServer");
        assertThat(claim.handlerClass()).isEqualTo("io.gamefleet.api.ClaimGameServerHandler");
        assertThat(claim.handlerMethod()).isEqualTo("io.gamefleet.api.ClaimGameServerHandler::handleRequest");
        assertThat(claim.cborPath()).isEqualTo("/service/GameLift/operation/ClaimGameServer");
        assertThat(claim.jsonTarget()).isEqualTo("GameLift.ClaimGameServer");
    }

    @Test
    void theFleetIqNamesAreFleetIqs() {
        assertThat(Arrays.stream(Operation.values()).map(Operation::fleetIqName)).containsExactly(
                "CreateGameServerGroup", "ListGameServerGroups", "DescribeGameServerGroup", "UpdateGameServerGroup",
                "DeleteGameServerGroup", "SuspendGameServerGroup", "ResumeGameServerGroup",
                "DescribeGameServerInstances", "RegisterGameServer", "ListGameServers", "DescribeGameServer",
                "UpdateGameServer", "DeregisterGameServer", "ClaimGameServer");
    }

    @ParameterizedTest
    @EnumSource(Operation.class)
    void eachOperationIsFoundByItsJsonTargetAndItsCborPath(Operation operation) {
        assertThat(Operation.byJsonTarget("GameLift." + operation.fleetIqName())).contains(operation);
        assertThat(Operation.byCborPath("/service/GameLift/operation/" + operation.fleetIqName())).contains(operation);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ClaimGameServer", "gamelift.ClaimGameServer", "GameLift.ClaimGameServers",
            "GameLift.CreateFleet", "/service/GameLift/operation/ClaimGameServer"})
    void aTargetThatIsNotExactlyAnOperationsFindsNone(String target) {
        assertThat(Operation.byJsonTarget(target)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ClaimGameServer", "/service/GameLift/operation/", "/service/GameLift/operation/claimGameServer",
            "/service/GameLift/operation/ClaimGameServer/", "GameLift.ClaimGameServer"})
    void aPathThatIsNotExactlyAnOperationsFindsNone(String path) {
        assertThat(Operation.byCborPath(path)).isEmpty();
    }
}

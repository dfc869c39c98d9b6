package io.gamefleet.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupAction;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.InstanceDefinition;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.Page;
import io.gamefleet.domain.UtilizationStatus;
import io.gamefleet.json.Json;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The FleetIQ output shapes as Outputs builds them: members in order, absent ones left out, times in epoch seconds. */
class OutputsTest {
    private static final Instant T = Instant.parse("2100-01-01T00:00:00.25Z");

    @Test
    void aGroupWithEveryMember() {
        GameServerGroup g = GameServerGroup.builder().name("arena").arn("arn:g").roleArn("arn:r")
                .instanceDefinitions(List.of(new InstanceDefinition("c5.large", "3"), new InstanceDefinition("m5.large", null)))
                .autoScalingGroupArn("arn:asg").status(GameServerGroupStatus.ERROR).statusReason("it broke")
                .suspendedActions(Set.of(GameServerGroupAction.REPLACE_INSTANCE_TYPES))
                .creationTime(T).lastUpdatedTime(T.plusMillis(1)).build();
        assertThat(Outputs.group(g)).hasToString("{\"GameServerGroupName\":\"arena\",\"GameServerGroupArn\":\"arn:g\","
                + "\"RoleArn\":\"arn:r\",\"InstanceDefinitions\":[{\"InstanceType\":\"c5.large\",\"WeightedCapacity\":\"3\"},"
                + "{\"InstanceType\":\"m5.large\"}],\"BalancingStrategy\":\"SPOT_PREFERRED\","
                + "\"GameServerProtectionPolicy\":\"NO_PROTECTION\",\"AutoScalingGroupArn\":\"arn:asg\",\"Status\":\"ERROR\","
                + "\"StatusReason\":\"it broke\",\"SuspendedActions\":[\"REPLACE_INSTANCE_TYPES\"],"
                + "\"CreationTime\":4102444800.250,\"LastUpdatedTime\":4102444800.251}");
    }

    @Test
    void aGroupWithoutTheOptionalMembers() {
        GameServerGroup g = GameServerGroup.builder().name("arena").arn("arn:g").roleArn("arn:r").build();
        assertThat(Outputs.group(g)).hasToString("{\"GameServerGroupName\":\"arena\",\"GameServerGroupArn\":\"arn:g\","
                + "\"RoleArn\":\"arn:r\",\"InstanceDefinitions\":[],\"BalancingStrategy\":\"SPOT_PREFERRED\","
                + "\"GameServerProtectionPolicy\":\"NO_PROTECTION\",\"Status\":\"NEW\",\"SuspendedActions\":[]}");
    }

    @Test
    void aServerIsClaimedOnlyUntilItsClaimExpires() {
        GameServer s = GameServer.builder().gameServerGroupName("arena").gameServerId("gs-1").instanceId("i-1")
                .connectionInfo("10.0.0.1:1").gameServerData("d").utilizationStatus(UtilizationStatus.UTILIZED)
                .claimExpiresAt(T.plusSeconds(60)).lastClaimTime(T).lastHealthCheckTime(T.plusSeconds(1))
                .registrationTime(T.minusSeconds(1)).instanceStatus(InstanceStatus.DRAINING).build();
        assertThat(Outputs.server(s, "arn:g", T)).hasToString("{\"GameServerGroupName\":\"arena\",\"GameServerGroupArn\":\"arn:g\","
                + "\"GameServerId\":\"gs-1\",\"InstanceId\":\"i-1\",\"ConnectionInfo\":\"10.0.0.1:1\",\"GameServerData\":\"d\","
                + "\"ClaimStatus\":\"CLAIMED\",\"UtilizationStatus\":\"UTILIZED\",\"RegistrationTime\":4102444799.250,"
                + "\"LastClaimTime\":4102444800.250,\"LastHealthCheckTime\":4102444801.250,\"InstanceStatus\":\"DRAINING\"}");
        ObjectNode expired = Outputs.server(s, "arn:g", T.plusSeconds(60));
        assertThat(expired.has("ClaimStatus")).isFalse();
    }

    @Test
    void aServerWithoutTheOptionalMembers() {
        GameServer s = GameServer.builder().gameServerGroupName("arena").gameServerId("gs-1").instanceId("i-1")
                .utilizationStatus(UtilizationStatus.AVAILABLE).instanceStatus(InstanceStatus.ACTIVE).build();
        assertThat(Outputs.server(s, "arn:g", T)).hasToString("{\"GameServerGroupName\":\"arena\",\"GameServerGroupArn\":\"arn:g\","
                + "\"GameServerId\":\"gs-1\",\"InstanceId\":\"i-1\",\"UtilizationStatus\":\"AVAILABLE\","
                + "\"InstanceStatus\":\"ACTIVE\"}");
    }

    @Test
    void anInstanceWithAndWithoutTypeAndLaunchTime() {
        assertThat(Outputs.instance(new GameServerInstance("arena", "i-1", InstanceStatus.SPOT_TERMINATING, "c5.large", "az",
                T), "arn:g")).hasToString("{\"GameServerGroupName\":\"arena\",\"GameServerGroupArn\":\"arn:g\","
                + "\"InstanceId\":\"i-1\",\"InstanceStatus\":\"SPOT_TERMINATING\",\"InstanceType\":\"c5.large\","
                + "\"LaunchTime\":4102444800.250}");
        assertThat(Outputs.instance(new GameServerInstance("arena", "i-1", InstanceStatus.ACTIVE, null, null, null), "arn:g"))
                .hasToString("{\"GameServerGroupName\":\"arena\",\"GameServerGroupArn\":\"arn:g\",\"InstanceId\":\"i-1\","
                        + "\"InstanceStatus\":\"ACTIVE\"}");
    }

    @Test
    void aPageListsItsItemsInOrderAndItsTokenIfAny() {
        assertThat(Outputs.page("Things", new Page<>(List.of("a", "b"), Optional.of("tok")),
                v -> Json.NODES.objectNode().put("V", v)))
                .hasToString("{\"Things\":[{\"V\":\"a\"},{\"V\":\"b\"}],\"NextToken\":\"tok\"}");
        assertThat(Outputs.page("Things", new Page<String>(List.of(), Optional.empty()), v -> null))
                .hasToString("{\"Things\":[]}");
    }

    @Test
    void wrapPutsTheValueUnderItsMember() {
        assertThat(Outputs.wrap("GameServer", Json.NODES.objectNode().put("a", 1))).hasToString("{\"GameServer\":{\"a\":1}}");
    }
}

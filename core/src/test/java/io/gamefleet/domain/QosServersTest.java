package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.QosServers.QosServer;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The QoS beacons listed to ping: ACTIVE instances whose agent is connected with one, a few at random. */
class QosServersTest {
    private final Fleet fleet = new Fleet();
    private final QosServers qos = new QosServers(fleet.groups, fleet.instances, new Random(7), fleet.clock);

    @BeforeEach
    void anActiveGroup() {
        fleet.activeGroup();
    }

    private void connected(String instanceId, OptionalInt qosPort) {
        fleet.launch(instanceId, C5);
        fleet.pushConnections().connect(Caller.onInstance(instanceId), GROUP, instanceId, "conn-" + instanceId, qosPort);
    }

    @Test
    void anActiveInstanceIsListedWhileItsAgentIsConnectedWithABeacon() {
        connected("i-1", OptionalInt.of(3075));
        connected("i-2", OptionalInt.empty());
        connected("i-3", OptionalInt.of(3076));
        connected("i-4", OptionalInt.of(3077));
        fleet.pushConnections().disconnect("conn-i-3");
        fleet.drain(GROUP, "i-4");
        // FakeCompute's addresses have no public one: the first
        assertThat(qos.list()).containsExactly(new QosServer("10.0.0.1", 3075));

        // a connection older than API Gateway's lifetime is gone, and its beacon with it
        fleet.clock.advance(GameServerInstance.PUSH_CONNECTION_LIFETIME);
        assertThat(qos.list()).isEmpty();
    }

    @Test
    void aFewOfManyAreListedAtRandomSoThatClientsSpreadOverThemAll() {
        for (int n = 1; n <= 6; n++) {
            connected("i-" + n, OptionalInt.of(3000 + n));
        }
        Set<Integer> seen = new HashSet<>();
        for (int call = 0; call < 50; call++) {
            List<QosServer> listed = qos.list();
            assertThat(listed).hasSize(QosServers.LISTED).doesNotHaveDuplicates();
            listed.forEach(s -> seen.add(s.port()));
        }
        assertThat(seen).containsExactlyInAnyOrder(3001, 3002, 3003, 3004, 3005, 3006);
    }

    @Test
    void aGroupThatIsNotActiveIsNotRead() {
        connected("i-1", OptionalInt.of(3075));
        fleet.groups.update(fleet.group(GROUP).toBuilder().status(GameServerGroupStatus.DELETE_SCHEDULED).build());
        assertThat(qos.list()).isEmpty();
    }

    /** Its public IPv4, else its public DNS name, else its first address (the local profile's loopback). */
    @Test
    void theAddressIsThePublicOneWhereTheInstanceHasOne() {
        assertThat(QosServers.address(List.of("10.0.0.1", "54.1.2.3", "ip-10-0-0-1.ec2.internal",
                "ec2-54-1-2-3.compute-1.amazonaws.com"))).isEqualTo("54.1.2.3");
        assertThat(QosServers.address(List.of("10.0.0.1", "2600:1f18::1", "ip-10-0-0-1.ec2.internal",
                "ec2-54-1-2-3.compute-1.amazonaws.com"))).isEqualTo("ec2-54-1-2-3.compute-1.amazonaws.com");
        assertThat(QosServers.address(List.of("127.0.0.1", "localhost"))).isEqualTo("127.0.0.1");
        assertThat(QosServers.address(List.of("172.31.5.6", "100.64.0.1", "169.254.1.1", "ip-172-31-5-6.us-west-2.compute.internal")))
                .isEqualTo("172.31.5.6");
        assertThat(QosServers.isPublicIpv4("172.32.0.1")).isTrue();
        assertThat(QosServers.isPublicIpv4("192.168.1.1")).isFalse();
    }
}

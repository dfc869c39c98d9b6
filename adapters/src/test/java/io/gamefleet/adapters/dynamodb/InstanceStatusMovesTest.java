package io.gamefleet.adapters.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.testing.Dynoxide;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * How {@code setInstanceStatus} and {@code retire} write: one TransactWriteItems per hundred
 * servers as read, and one UpdateItem per server of a chunk that changed meanwhile. The calls are
 * counted by an interceptor on the repository's client.
 */
class InstanceStatusMovesTest {
    /** The group's maximum size, which its servers are registered for: large, so that they spread over every shard. */
    private static final int GROUP_MAX_SIZE = 1_000;
    /** How many servers one instance may hold: more than any of these tests registers on one. */
    private static final int ON_ONE_INSTANCE = 1_000;
    @RegisterExtension
    static final Dynoxide DYNAMO = new Dynoxide();

    private static final Instant T0 = Instant.parse("2100-01-01T00:00:00Z");
    private static final List<String> CALLS = new CopyOnWriteArrayList<>();
    private static DynamoGameServerRepository servers;
    private static DynamoGroupRepository groups;
    private static int sequence;
    private String group;

    @BeforeAll
    static void countingRepository() {
        DynamoDbClient counted = DYNAMO.client(List.of(new ExecutionInterceptor() {
            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                CALLS.add(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME));
            }
        }));
        servers = new DynamoGameServerRepository(counted, DYNAMO.tableNames());
        groups = new DynamoGroupRepository(DYNAMO.client(), DYNAMO.enhanced(), DYNAMO.tableNames());
    }

    @BeforeEach
    void activeGroup() {
        group = "moves-" + ++sequence;
        GameServerGroup g = GameServerGroup.builder().name(group).creationTime(T0).lastUpdatedTime(T0)
                .maxSize(GROUP_MAX_SIZE).build();
        groups.create(g);
        groups.update(g.toBuilder().status(GameServerGroupStatus.ACTIVE).build());
        CALLS.clear();
    }

    private List<GameServer> registered(int count) {
        List<GameServer> registered = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            GameServer s = GameServer.builder().gameServerGroupName(group).gameServerId(group + "-" + i)
                    .instanceId("i-1").registrationTime(T0).lastHealthCheckTime(T0)
                    .instanceStatus(InstanceStatus.ACTIVE).instanceLaunchTime(T0).build();
            servers.register(s, GROUP_MAX_SIZE, ON_ONE_INSTANCE);
            registered.add(s);
        }
        CALLS.clear();
        return registered;
    }

    private long calls(String operation) {
        return CALLS.stream().filter(operation::equals).count();
    }

    @Test
    void noServersNoCall() {
        servers.setInstanceStatus(List.of(), InstanceStatus.DRAINING);
        assertThat(servers.retire(List.of())).isTrue();
        assertThat(CALLS).isEmpty();
    }

    @Test
    void exactlyAHundredServersAsReadMoveInOneTransaction() {
        List<GameServer> read = registered(100);
        servers.setInstanceStatus(read, InstanceStatus.DRAINING);
        assertThat(CALLS).containsExactly("TransactWriteItems");
        assertThat(servers.listAll(group)).hasSize(100)
                .allSatisfy(s -> assertThat(s.instanceStatus()).isEqualTo(InstanceStatus.DRAINING));
    }

    @Test
    void aHundredAndOneServersTakeTwoTransactions() {
        List<GameServer> read = registered(101);
        assertThat(servers.retire(read)).isTrue();
        assertThat(CALLS).containsExactly("TransactWriteItems", "TransactWriteItems");
        assertThat(servers.listAll(group))
                .allSatisfy(s -> assertThat(s.instanceStatus()).isEqualTo(InstanceStatus.SPOT_TERMINATING));
    }

    @Test
    void aChunkWithAServerChangedSinceItWasReadMovesOneByOne() {
        List<GameServer> read = registered(100);
        // changed since read: its instance is being interrupted, a status no move overwrites
        servers.setInstanceStatus(List.of(read.get(7)), InstanceStatus.SPOT_TERMINATING);
        CALLS.clear();

        servers.setInstanceStatus(read, InstanceStatus.DRAINING);

        assertThat(calls("TransactWriteItems")).isEqualTo(1);
        assertThat(calls("GetItem")).isEqualTo(100); // each server read again
        assertThat(calls("UpdateItem")).isEqualTo(99); // and each but the interrupted one moved
        assertThat(CALLS).hasSize(200);
        assertThat(servers.listAll(group)).filteredOn(s -> s.instanceStatus() == InstanceStatus.DRAINING).hasSize(99);
        assertThat(servers.find(read.get(7).gameServerId()).map(GameServer::instanceStatus))
                .contains(InstanceStatus.SPOT_TERMINATING);
    }

    @Test
    void retireGivesUpAtTheFirstChangedChunkWithoutWriting() {
        List<GameServer> read = registered(3);
        servers.setInstanceStatus(List.of(read.get(0)), InstanceStatus.SPOT_TERMINATING);
        CALLS.clear();

        assertThat(servers.retire(read)).isFalse();

        assertThat(CALLS).containsExactly("TransactWriteItems");
        assertThat(servers.find(read.get(1).gameServerId()).map(GameServer::instanceStatus))
                .isEqualTo(Optional.of(InstanceStatus.ACTIVE));
    }
}

package io.gamefleet.adapters.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerRepository.ClaimCondition;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.UtilizationStatus;
import io.gamefleet.testing.Dynoxide;
import java.time.Instant;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * What the claim path's reads of the Claimable index cost ({@code someClaimCandidates}): the
 * first of a container reads every shard the group can have servers in (its gates say which),
 * each later one a single Query of a shard that showed candidates, so a claim is one Query and
 * one UpdateItem whatever the group's size; and an empty
 * answer still means the whole group has none. The calls are counted by an interceptor.
 */
class ClaimIndexTest {
    /** The group's maximum size, which its servers are registered for: large, so that they spread over every shard. */
    private static final int GROUP_MAX_SIZE = 1_000;
    /** How many servers one instance may hold: more than these tests register on one. */
    private static final int ON_ONE_INSTANCE = 1_000;
    @RegisterExtension
    static final Dynoxide DYNAMO = new Dynoxide();

    private static final Instant T0 = Instant.parse("2100-01-01T00:00:00Z");
    private static final ClaimCondition CONDITION = new ClaimCondition(T0, T0.minusSeconds(60),
            EnumSet.of(InstanceStatus.ACTIVE, InstanceStatus.DRAINING));
    /** Per call, its operation and (for a Query) the partition it read. */
    private static final List<String> CALLS = new CopyOnWriteArrayList<>();
    private static DynamoDbClient counted;
    private static DynamoGroupRepository groups;
    private static int sequence;
    private String group;
    private DynamoGameServerRepository container;

    @BeforeAll
    static void countingClient() {
        counted = DYNAMO.client(List.of(new ExecutionInterceptor() {
            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                CALLS.add(context.request() instanceof QueryRequest q
                        ? "Query " + q.expressionAttributeValues().get(":p").s() : context.request().getClass().getSimpleName());
            }
        }));
        groups = new DynamoGroupRepository(DYNAMO.client(), DYNAMO.enhanced(), DYNAMO.tableNames());
    }

    @BeforeEach
    void activeGroup() {
        group = "claim-index-" + ++sequence;
        GameServerGroup g = GameServerGroup.builder().name(group).creationTime(T0).lastUpdatedTime(T0)
                .maxSize(GROUP_MAX_SIZE).build();
        groups.create(g);
        groups.update(g.toBuilder().status(GameServerGroupStatus.ACTIVE).build());
        container = new DynamoGameServerRepository(counted, DYNAMO.tableNames());
    }

    private void register(int count) {
        DynamoGameServerRepository registrar = new DynamoGameServerRepository(DYNAMO.client(), DYNAMO.tableNames());
        for (int i = 0; i < count; i++) {
            registrar.register(GameServer.builder().gameServerGroupName(group).gameServerId(group + "-" + i)
                    .instanceId("i-" + i / 50).utilizationStatus(UtilizationStatus.AVAILABLE).registrationTime(T0)
                    .lastHealthCheckTime(T0).instanceStatus(InstanceStatus.ACTIVE).instanceLaunchTime(T0).build(), GROUP_MAX_SIZE, ON_ONE_INSTANCE);
        }
        CALLS.clear();
    }

    private List<GameServer> read() {
        return container.someClaimCandidates(group, InstanceStatus.ACTIVE, T0, T0.minusSeconds(60), 200).servers();
    }

    private void claim(GameServer candidate) {
        assertThat(container.tryClaim(candidate, CONDITION, T0.plusSeconds(60), Optional.empty())).isPresent();
    }

    @Test
    void aSmallGroupsClaimsAfterTheFirstReadAreOneQueryAndOneWriteEach() {
        register(10);
        List<GameServer> first = read();
        assertThat(first).hasSize(10);
        assertThat(CALLS).hasSize(Tables.GAME_SERVER_SHARDS).allMatch(c -> c.startsWith("Query "));

        Set<String> claimed = new HashSet<>();
        for (int n = 0; n < 10; n++) {
            CALLS.clear();
            List<GameServer> candidates = n == 0 ? first : read();
            assertThat(candidates).isNotEmpty();
            claim(candidates.get(0));
            claimed.add(candidates.get(0).gameServerId());
            assertThat(CALLS).as("claim " + n).hasSize(n == 0 ? 1 : 2).last().isEqualTo("UpdateItemRequest");
        }
        assertThat(claimed).hasSize(10);

        CALLS.clear();
        assertThat(read()).as("none left: the whole group is read to say so").isEmpty();
        assertThat(CALLS).hasSize(Tables.GAME_SERVER_SHARDS);
    }

    @Test
    void aLargeGroupsReadsSpreadOverItsShardsOneQueryEach() {
        register(400);
        read();
        Set<String> partitions = new HashSet<>();
        for (int n = 0; n < 64; n++) {
            CALLS.clear();
            List<GameServer> candidates = read();
            assertThat(CALLS).hasSize(1);
            partitions.add(CALLS.get(0));
            claim(candidates.get(0));
        }
        assertThat(partitions).as("claims spread over the group's partitions").hasSizeGreaterThanOrEqualTo(12);
    }

    @Test
    void candidatesOtherContainersTookCostAReadOfTheWholeGroupBeforeAnEmptyAnswer() {
        register(20);
        read();
        DynamoGameServerRepository other = new DynamoGameServerRepository(DYNAMO.client(), DYNAMO.tableNames());
        List<GameServer> all = other.claimCandidates(group, InstanceStatus.ACTIVE, T0, T0.minusSeconds(60), 200).servers();
        for (GameServer s : all.subList(0, 19)) {
            assertThat(other.tryClaim(s, CONDITION, T0.plusSeconds(60), Optional.empty())).isPresent();
        }
        assertThat(read()).extracting(GameServer::gameServerId).containsExactly(all.get(19).gameServerId());
    }

    @Test
    void eachReadGivesItsShardsBestOldestInstanceFirstAndActiveBeforeDraining() {
        DynamoGameServerRepository registrar = new DynamoGameServerRepository(DYNAMO.client(), DYNAMO.tableNames());
        for (int i = 0; i < 96; i++) {
            registrar.register(GameServer.builder().gameServerGroupName(group).gameServerId(group + "-" + i)
                    .instanceId("i-" + i % 3).utilizationStatus(UtilizationStatus.AVAILABLE).registrationTime(T0)
                    .lastHealthCheckTime(T0).instanceStatus(i % 3 == 2 ? InstanceStatus.DRAINING : InstanceStatus.ACTIVE)
                    .instanceLaunchTime(T0.minusSeconds(3600 * (3 - i % 3))).build(), GROUP_MAX_SIZE, ON_ONE_INSTANCE);
        }
        read();
        for (int n = 0; n < 64; n++) {
            List<GameServer> candidates = read();
            GameServer head = candidates.get(0);
            List<GameServer> ofItsShard = registrar.claimCandidates(group, InstanceStatus.ACTIVE, T0, T0.minusSeconds(60), 200)
                    .servers().stream().filter(s -> Tables.shardOf(s.gameServerId()) == Tables.shardOf(head.gameServerId()))
                    .toList();
            assertThat(head).as("the best of its shard").isEqualTo(ofItsShard.get(0));
            assertThat(candidates).extracting(GameServer::instanceLaunchTime).isSorted();
            claim(head);
        }
        assertThat(read()).as("no ACTIVE server left").isEmpty();
        assertThat(container.someClaimCandidates(group, InstanceStatus.DRAINING, T0, T0.minusSeconds(60), 200).servers())
                .hasSize(32);
    }

    @Test
    void aGroupOfOneInstanceHasOneShardSoItsClaimsStayOneQueryAndOneWriteAsItsServersComeAndGo() {
        DynamoGameServerRepository registrar = new DynamoGameServerRepository(DYNAMO.client(), DYNAMO.tableNames());
        int[] next = {0};
        Runnable registerOne = () -> registrar.register(GameServer.builder().gameServerGroupName(group)
                .gameServerId(group + "-" + next[0]++).instanceId("i-1").utilizationStatus(UtilizationStatus.AVAILABLE)
                .registrationTime(T0).lastHealthCheckTime(T0).instanceStatus(InstanceStatus.ACTIVE)
                .instanceLaunchTime(T0).build(), 1, ON_ONE_INSTANCE);
        for (int i = 0; i < 10; i++) {
            registerOne.run();
        }
        read();
        for (int n = 0; n < 30; n++) {
            CALLS.clear();
            GameServer head = read().get(0);
            claim(head);
            assertThat(CALLS).as("claim " + n).containsExactly("Query " + Tables.groupShard(group, 0), "UpdateItemRequest");
            assertThat(registrar.deregister(group, head.gameServerId(), Optional.empty())).isPresent(); // its game ended
            registerOne.run(); // and a new server came
        }
    }

    /** A new ACTIVE group of at most {@code maxSize} instances, now the test's group. */
    private GameServerGroup groupOf(int maxSize) {
        group = "claim-index-" + ++sequence;
        GameServerGroup g = GameServerGroup.builder().name(group).creationTime(T0).lastUpdatedTime(T0).maxSize(maxSize).build();
        groups.create(g);
        return groups.update(g.toBuilder().status(GameServerGroupStatus.ACTIVE).build());
    }

    private void register(int from, int to, int groupMaxSize) {
        DynamoGameServerRepository registrar = new DynamoGameServerRepository(DYNAMO.client(), DYNAMO.tableNames());
        for (int i = from; i < to; i++) {
            registrar.register(GameServer.builder().gameServerGroupName(group).gameServerId(group + "-" + i)
                    .instanceId("i-" + i % groupMaxSize).utilizationStatus(UtilizationStatus.AVAILABLE).registrationTime(T0)
                    .lastHealthCheckTime(T0).instanceStatus(InstanceStatus.ACTIVE).instanceLaunchTime(T0).build(), groupMaxSize, ON_ONE_INSTANCE);
        }
        CALLS.clear();
    }

    private List<String> shardQueries(int shards) {
        return IntStream.range(0, shards).mapToObj(s -> "Query " + Tables.groupShard(group, s)).toList();
    }

    @Test
    void aContainersFirstReadOfAGroupReadsOnlyTheShardsItsMaximumSizeGave() {
        groupOf(1);
        register(0, 10, 1);
        assertThat(read()).hasSize(10);
        assertThat(CALLS).as("a group of one instance: one shard").containsExactlyElementsOf(shardQueries(1));

        groupOf(10);
        register(0, 40, 10);
        container = new DynamoGameServerRepository(counted, DYNAMO.tableNames());
        assertThat(read()).hasSize(40);
        assertThat(CALLS).as("a group of ten: ten shards").containsExactlyInAnyOrderElementsOf(shardQueries(10));
        CALLS.clear();
        claimAll(40);
        assertThat(read()).as("none left: every shard it has is read to say so").isEmpty();
        assertThat(CALLS).containsExactlyInAnyOrderElementsOf(shardQueries(10));
    }

    @Test
    void aGroupThatGrewIsReadInAllItsNewShardsAndOneThatShrankInAllItsOldOnes() {
        GameServerGroup g = groupOf(2);
        register(0, 4, 2);
        assertThat(read()).hasSize(4);
        assertThat(CALLS).containsExactlyInAnyOrderElementsOf(shardQueries(2));
        claimAll(4);

        g = groups.update(g.toBuilder().maxSize(16).build());
        register(4, 40, 16);
        assertThat(read()).as("this container knew two shards; the gates say sixteen now").hasSize(36);
        assertThat(CALLS).containsExactlyInAnyOrderElementsOf(shardQueries(16));

        groups.update(g.toBuilder().maxSize(1).build());
        container = new DynamoGameServerRepository(counted, DYNAMO.tableNames());
        CALLS.clear();
        assertThat(read()).as("its servers stay where they were written").hasSize(36);
        assertThat(CALLS).containsExactlyInAnyOrderElementsOf(shardQueries(16));
    }

    @Test
    void gatesWrittenBeforeTheyCarriedTheShardCountHaveEveryShardRead() {
        groupOf(1);
        register(0, 3, 1);
        for (int shard = 0; shard < Tables.GAME_SERVER_SHARDS; shard++) { // as an earlier release wrote them
            String id = GameServerSchema.gateId(group, shard);
            DYNAMO.client().updateItem(u -> u.tableName(DYNAMO.tableNames().of(Tables.GAME_SERVERS))
                    .key(GameServerSchema.key(id)).updateExpression("SET ClaimSortKey = :k")
                    .expressionAttributeValues(Map.of(":k",
                            AttributeValue.fromS(GameServerSchema.GATE_SORT_KEY))));
        }
        assertThat(read()).hasSize(3);
        assertThat(CALLS).containsExactlyInAnyOrderElementsOf(shardQueries(Tables.GAME_SERVER_SHARDS));
    }

    /** Claims {@code count} servers, reading as the claim path does. */
    private void claimAll(int count) {
        for (int n = 0; n < count; n++) {
            claim(read().get(0));
        }
        CALLS.clear();
    }
}

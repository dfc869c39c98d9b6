package io.gamefleet.adapters.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerRepository.ClaimCondition;
import io.gamefleet.domain.GameServerRepository.HealthLease;
import io.gamefleet.domain.GameServerRepository.ReportedProcess;
import io.gamefleet.domain.GameServerRepository.ServerUpdate;
import io.gamefleet.domain.HealthReports;
import io.gamefleet.domain.InstanceLifetime;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.ProcessEvents;
import io.gamefleet.domain.ProcessReport;
import io.gamefleet.domain.ProcessState;
import io.gamefleet.domain.Session;
import io.gamefleet.domain.SessionRepository;
import io.gamefleet.domain.UtilizationStatus;
import io.gamefleet.domain.fakes.MutableClock;
import io.gamefleet.testing.Dynoxide;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Capacity;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * What a heartbeat, a health lease, a claim, a registration and a deregistration write, as DynamoDB
 * bills it: each write asks for {@code ReturnConsumedCapacity: INDEXES}, and the emulator answers
 * with the write units of the items and of each index the write touched (an index whose key changes
 * takes a delete and a put).
 */
class WriteUnitsTest {
    /** The group's maximum size, which its servers are registered for: large, so that they spread over every shard. */
    private static final int GROUP_MAX_SIZE = 1_000;
    /** How many servers one instance may hold: more than any of these tests registers on one. */
    private static final int ON_ONE_INSTANCE = 1_000;
    @RegisterExtension
    static final Dynoxide DYNAMO = new Dynoxide();

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final Recorder RECORDER = new Recorder();
    private static DynamoGameServerRepository servers;
    private static int groups;

    private String group;
    private GameServer server;

    @BeforeAll
    static void repositories() {
        DynamoDbClient counted = DYNAMO.client(List.of(RECORDER));
        servers = new DynamoGameServerRepository(counted, DYNAMO.tableNames());
    }

    @BeforeEach
    void aServerOfAnActiveGroup() {
        group = "units-" + ++groups;
        DynamoGroupRepository groupRepository = new DynamoGroupRepository(DYNAMO.client(), DYNAMO.enhanced(),
                DYNAMO.tableNames());
        GameServerGroup g = GameServerGroup.builder().name(group).creationTime(T0).lastUpdatedTime(T0)
                .maxSize(GROUP_MAX_SIZE).build();
        groupRepository.create(g);
        groupRepository.update(g.toBuilder().status(GameServerGroupStatus.ACTIVE).build());
        server = GameServer.builder().gameServerGroupName(group).gameServerId(group + "-gs").instanceId("i-1")
                .connectionInfo("10.0.0.1:7777").registrationTime(T0).lastHealthCheckTime(T0)
                .instanceStatus(InstanceStatus.ACTIVE).instanceLaunchTime(T0.minusSeconds(3600)).build();
        servers.register(server, GROUP_MAX_SIZE, ON_ONE_INSTANCE);
        RECORDER.writes.clear();
    }

    @Test
    void aHeartbeatIsOneCallWritingTheItemAlone() {
        servers.update(group, server.gameServerId(), Optional.of("i-1"),
                new ServerUpdate(Optional.empty(), Optional.empty(), Optional.of(T0.plusSeconds(30)))).orElseThrow();

        assertThat(RECORDER.writes).hasSize(1);
        assertThat(RECORDER.writes.get(0).total()).isEqualTo(1.0);
        assertThat(RECORDER.writes.get(0).indexes()).isEmpty();
    }

    @Test
    void aHealthLeaseIsOneCallWritingTheItemAloneAndEndingTheInstancesLeasesWritesOnlyTheLiveOnes() {
        servers.setHealthLease(group, server.gameServerId(), "i-1", new HealthLease(
                T0.plusSeconds(600), Optional.of(T0), "conn-1")).orElseThrow();
        servers.endHealthLeases("i-1", T0.plusSeconds(30));
        servers.endHealthLeases("i-1", T0.plusSeconds(31)); // ended already: no write

        assertThat(RECORDER.writes).extracting(Write::total).containsExactly(1.0, 1.0);
        assertThat(RECORDER.writes).allSatisfy(w -> assertThat(w.indexes()).isEmpty());
    }

    @Test
    void aHeartbeatOfAClaimedOrUtilizedServerWritesTheItemAlone() {
        GameServer candidate = servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, T0, 10).servers().get(0);
        servers.tryClaim(candidate, condition(T0), T0.plusSeconds(60), Optional.of("match")).orElseThrow();
        RECORDER.writes.clear();
        heartbeat(T0.plusSeconds(1));
        servers.update(group, server.gameServerId(), Optional.empty(),
                new ServerUpdate(Optional.empty(), Optional.of(UtilizationStatus.UTILIZED), Optional.empty())).orElseThrow();
        heartbeat(T0.plusSeconds(2));

        assertThat(RECORDER.writes).extracting(Write::total).containsExactly(1.0, 3.0, 1.0);
        assertThat(RECORDER.writes.get(1).indexes()).as("UTILIZED leaves the claim index and is counted by group")
                .containsOnly(Map.entry(Tables.CLAIMABLE_INDEX, 1.0), Map.entry(Tables.SERVERS_BY_GROUP_INDEX, 1.0));
    }

    /**
     * A claim writes the item and moves its entry in the claim index, and no other index: the move
     * (the expiry is in the entry's key, which is what keeps lapsed claims in order with no
     * background job) is billed as a delete and a put of the entry.
     */
    @Test
    void aClaimWritesTheItemAndItsClaimIndexEntryOnly() {
        GameServer candidate = servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, T0, 10).servers().get(0);
        RECORDER.writes.clear();

        servers.tryClaim(candidate, condition(T0), T0.plusSeconds(60), Optional.of("match")).orElseThrow();

        assertThat(RECORDER.writes).hasSize(1);
        assertThat(RECORDER.writes.get(0).table()).isEqualTo(1.0);
        assertThat(RECORDER.writes.get(0).indexes()).containsOnly(Map.entry(Tables.CLAIMABLE_INDEX, 2.0));
    }

    /**
     * A registration is one transaction: the gate's ConditionCheck (2), the item's put (2), the
     * instance's count (2: its one item, no index) and the item's three index entries; a game's
     * deregistration (of a UTILIZED server, out of the claim index) one transaction too, after a
     * read of the item for its instance: the item's delete (2) with its two index entries, and the
     * count's one back (2).
     */
    @Test
    void aRegistrationWritesNineUnitsAndADeregistrationSix() {
        GameServer next = server.toBuilder().gameServerId(group + "-gs2").build();
        servers.register(next, GROUP_MAX_SIZE, ON_ONE_INSTANCE);
        assertThat(RECORDER.writes).hasSize(1);
        assertThat(RECORDER.writes.get(0).total()).isEqualTo(9.0);
        assertThat(RECORDER.writes.get(0).indexes()).containsOnly(Map.entry(Tables.SERVERS_BY_GROUP_INDEX, 1.0),
                Map.entry(Tables.CLAIMABLE_INDEX, 1.0), Map.entry(Tables.SERVERS_BY_INSTANCE_INDEX, 1.0));
        servers.update(group, next.gameServerId(), Optional.empty(),
                new ServerUpdate(Optional.empty(), Optional.of(UtilizationStatus.UTILIZED), Optional.empty())).orElseThrow();
        RECORDER.writes.clear();

        servers.deregister(group, next.gameServerId(), Optional.of("i-1")).orElseThrow();
        assertThat(RECORDER.writes).extracting(Write::total).containsExactly(6.0);
        assertThat(RECORDER.writes.get(0).indexes()).as("the count's item is in no index")
                .containsOnly(Map.entry(Tables.SERVERS_BY_GROUP_INDEX, 1.0), Map.entry(Tables.SERVERS_BY_INSTANCE_INDEX, 1.0));
    }

    /**
     * A process that changed is its own item's put (by its size: a unit per KB, player ids
     * included) and the server's summary in its lease's UpdateItem (one unit, in no index); the
     * server's item stays within one unit whatever the player ids, so its claims cost what they did.
     */
    @Test
    void aChangedProcessWritesItsItemAndTheServersSummaryInNoIndex() {
        GameServer reported = onItsOwnInstance("reported");
        ProcessReport active = new ProcessReport(ProcessState.Active, 8, players(8, 36), 0, 0, null);
        servers.setHealthLease(group, reported.gameServerId(), reported.instanceId(), new HealthLease(T0.plusSeconds(600),
                Optional.of(T0), "conn-1", Optional.of(new ReportedProcess(active, T0, T0, T0.plusSeconds(86_400))))).orElseThrow();
        assertThat(RECORDER.writes).extracting(Write::total).containsExactly(1.0, 1.0);
        assertThat(RECORDER.writes).allSatisfy(w -> assertThat(w.indexes()).isEmpty());

        RECORDER.writes.clear();
        ProcessReport full = new ProcessReport(ProcessState.Active, 150, players(100, 128), 0, 0, null);
        servers.setHealthLease(group, reported.gameServerId(), reported.instanceId(), new HealthLease(T0.plusSeconds(600),
                Optional.empty(), "conn-1", Optional.of(new ReportedProcess(full, T0, T0, T0.plusSeconds(86_400))))).orElseThrow();
        assertThat(RECORDER.writes).extracting(Write::total).as("100 ids of 128 characters: 13 KB").containsExactly(13.0, 1.0);
        RECORDER.writes.clear();
        GameServer candidate = servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, T0, 10).servers().stream()
                .filter(c -> c.gameServerId().equals(reported.gameServerId())).findFirst().orElseThrow();
        servers.tryClaim(candidate, condition(T0), T0.plusSeconds(60), Optional.of("match")).orElseThrow();
        assertThat(RECORDER.writes.get(0).table()).as("the claim's item write").isEqualTo(1.0);
    }

    /**
     * The named ports ride on the server's item, which a claim reads and writes anyway: the most a
     * report may name (8 of 32 characters) keeps its summary, and the claim, within one unit.
     */
    @Test
    void theMostNamedPortsKeepTheServersItemWithinOneUnit() {
        GameServer reported = onItsOwnInstance("ports");
        Map<String, Integer> ports = new TreeMap<>();
        for (int n = 0; n < io.gamefleet.catalog.PushChannel.PROCESS_MAX_PORTS; n++) {
            ports.put(n + "-" + "p".repeat(30), 65_535 - n);
        }
        ProcessReport standingBy = new ProcessReport(ProcessState.StandingBy, 0, List.of(), 0, 0, null, ports);
        servers.setHealthLease(group, reported.gameServerId(), reported.instanceId(), new HealthLease(T0.plusSeconds(600),
                Optional.of(T0), "conn-1", Optional.of(new ReportedProcess(standingBy, T0, T0, T0.plusSeconds(86_400))))).orElseThrow();
        assertThat(RECORDER.writes).extracting(Write::total).containsExactly(1.0, 1.0);
        RECORDER.writes.clear();
        GameServer candidate = servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, T0, 10).servers().stream()
                .filter(c -> c.gameServerId().equals(reported.gameServerId())).findFirst().orElseThrow();
        assertThat(servers.tryClaim(candidate, condition(T0), T0.plusSeconds(60), Optional.of("match")).orElseThrow()
                .process().ports()).isEqualTo(ports);
        assertThat(RECORDER.writes.get(0).table()).as("the claim's item write").isEqualTo(1.0);
    }

    /** A server of this test's group on an instance of its own (leases are ended per instance). */
    private GameServer onItsOwnInstance(String name) {
        GameServer s = server.toBuilder().gameServerId(group + "-" + name).instanceId(group + "-" + name + "-i").build();
        servers.register(s, GROUP_MAX_SIZE, ON_ONE_INSTANCE);
        RECORDER.writes.clear();
        return s;
    }

    /**
     * One game server-hour of an agent's reports every 30 s, through the domain's HealthReports on
     * DynamoDB: 6 games of 10 minutes, each a minute StandingBy, then Active with 4 and, a minute
     * later, 8 players, Terminating for its last 30 s. Printed, with the same hour's reports without
     * processes beside it (docs/capacity.md, "The processes' state").
     */
    @Test
    void anHourOfProcessReportsWritesOnlyWhatChanged() {
        double withProcess = hourOfReports(onItsOwnInstance("reported"), true);
        double bare = hourOfReports(onItsOwnInstance("bare"), false);
        System.out.printf("a game server-hour of health reports: %.0f write units without processes, %.0f with"
                + " (%.0f for the processes)%n", bare, withProcess, withProcess - bare);
        assertThat(bare).as("the leases: the first, then a renewal every 5.5 minutes").isEqualTo(11.0);
        // 4 changes a game, 24 in the hour: each its item's put, and the server's summary but where
        // a lease renewal was due at the same report (4 of them).
        assertThat(withProcess - bare).isEqualTo(44.0);
    }

    private double hourOfReports(GameServer s, boolean withProcess) {
        MutableClock clock = new MutableClock(T0);
        DynamoInstanceRepository instances = new DynamoInstanceRepository(DYNAMO.client(), DYNAMO.enhanced(),
                DYNAMO.tableNames());
        HealthReports reports = new HealthReports(servers, instances, () -> null, InstanceLifetime.UNLIMITED, clock);
        servers.setPushConnection(s.instanceId(), "conn-" + s.instanceId());
        RECORDER.writes.clear();
        for (int report = 0; report < 120; report++) {
            int second = (report * 30) % 600;
            Map<String, Integer> ports = Map.of("game", 7000, "query", 8000);
            ProcessReport process = second < 60 ? new ProcessReport(ProcessState.StandingBy, 0, List.of(), 0, 0, null, ports)
                    : second == 570 ? new ProcessReport(ProcessState.Terminating, 8, players(8, 36), 0, 0, null, ports)
                    : second < 120 ? new ProcessReport(ProcessState.Active, 4, players(4, 36), 0, 0, null, ports)
                    : new ProcessReport(ProcessState.Active, 8, players(8, 36), 0, 0, null, ports);
            reports.report("conn-" + s.instanceId(), group, List.of(new HealthReports.Report(s.gameServerId(), true,
                    withProcess ? Optional.of(process) : Optional.empty())), ProcessEvents.NONE);
            clock.advance(java.time.Duration.ofSeconds(30));
        }
        return RECORDER.writes.stream().mapToDouble(Write::total).sum();
    }

    /** {@code count} player ids of {@code length} characters each. */
    private static List<String> players(int count, int length) {
        List<String> ids = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            ids.add(String.format("%0" + length + "d", n));
        }
        return ids;
    }

    /**
     * A session's claim is one transaction: the claim's UpdateItem (which leaves the session's id on
     * the server item, still under 1 KB) and the session's Put (an item
     * under 1 KB here: its id, group, cookie, players, filter, server and claim), each billed double
     * as a transaction's, the claim's move in the claim index as a claim's, and the session's
     * keys-only entry in the sessions index, one unit whatever the session's size. A larger session
     * costs two units more per KB of its item (a 4 KB cookie: 15).
     */
    @Test
    void aSessionsClaimIsOneTransactionOfSevenUnits() {
        DynamoSessionRepository sessions = new DynamoSessionRepository(DYNAMO.client(List.of(RECORDER)),
                DYNAMO.tableNames(), servers);
        GameServer candidate = servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, T0, 10).servers().get(0);
        RECORDER.writes.clear();
        Session session = new Session(new Session.Request("3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b-" + group, group,
                "map=dust2;mode=ranked", List.of("player-1", "player-2"), EnumSet.of(InstanceStatus.ACTIVE)),
                candidate.gameServerId(), T0, T0.plusSeconds(60), T0.plusSeconds(86_400));

        assertThat(sessions.claim(session, candidate, condition(T0))).isInstanceOf(SessionRepository.Outcome.Claimed.class);

        assertThat(RECORDER.writes).extracting(Write::total).containsExactly(7.0);
        assertThat(RECORDER.writes.get(0).table()).isEqualTo(4.0);
        assertThat(RECORDER.writes.get(0).indexes()).containsOnly(Map.entry(Tables.CLAIMABLE_INDEX, 2.0),
                Map.entry(Tables.SESSIONS_BY_GROUP_INDEX, 1.0));

        servers.register(server.toBuilder().gameServerId(group + "-gs2").build(), GROUP_MAX_SIZE, ON_ONE_INSTANCE);
        GameServer second = servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, T0, 10).servers().get(0);
        Session large = new Session(new Session.Request(session.sessionId() + "-large", group, "c".repeat(4096),
                List.of(), EnumSet.of(InstanceStatus.ACTIVE)), second.gameServerId(), T0, T0.plusSeconds(60),
                T0.plusSeconds(86_400));
        RECORDER.writes.clear();
        assertThat(sessions.claim(large, second, condition(T0))).isInstanceOf(SessionRepository.Outcome.Claimed.class);
        assertThat(RECORDER.writes).extracting(Write::total).containsExactly(15.0);
    }

    @Test
    void aRefusedClaimWritesNothing() {
        GameServer candidate = servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, T0, 10).servers().get(0);
        servers.tryClaim(candidate, condition(T0), T0.plusSeconds(60), Optional.empty()).orElseThrow();
        RECORDER.writes.clear();

        assertThat(servers.tryClaim(candidate, condition(T0), T0.plusSeconds(60), Optional.empty())).isEmpty();
        assertThat(RECORDER.writes).isEmpty(); // a failed condition answers no ConsumedCapacity to count
    }

    private void heartbeat(Instant at) {
        servers.update(group, server.gameServerId(), Optional.empty(),
                new ServerUpdate(Optional.empty(), Optional.empty(), Optional.of(at))).orElseThrow();
    }

    private static ClaimCondition condition(Instant now) {
        return new ClaimCondition(now, now.minusSeconds(60), EnumSet.of(InstanceStatus.ACTIVE, InstanceStatus.DRAINING));
    }

    /** One UpdateItem's write units: the item's, and each index's by name. */
    record Write(double total, double table, Map<String, Double> indexes) {}

    /** Asks every write (UpdateItem, DeleteItem, TransactWriteItems) for its consumed capacity per index and records the answers. */
    static final class Recorder implements ExecutionInterceptor {
        final List<Write> writes = new ArrayList<>();

        @Override
        public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
            if (context.request() instanceof UpdateItemRequest update) {
                return update.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
            }
            if (context.request() instanceof PutItemRequest put) {
                return put.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
            }
            if (context.request() instanceof DeleteItemRequest delete) {
                return delete.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
            }
            if (context.request() instanceof TransactWriteItemsRequest transaction) {
                return transaction.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
            }
            return context.request();
        }

        @Override
        public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
            if (context.response() instanceof UpdateItemResponse response && response.consumedCapacity() != null) {
                record(List.of(response.consumedCapacity()));
            } else if (context.response() instanceof PutItemResponse response && response.consumedCapacity() != null) {
                record(List.of(response.consumedCapacity()));
            } else if (context.response() instanceof DeleteItemResponse response && response.consumedCapacity() != null) {
                record(List.of(response.consumedCapacity()));
            } else if (context.response() instanceof TransactWriteItemsResponse response && response.hasConsumedCapacity()) {
                record(response.consumedCapacity());
            }
        }

        /** One call's units, over the tables it wrote (a transaction's may be several). */
        private void record(List<ConsumedCapacity> capacities) {
            double total = 0;
            double table = 0;
            Map<String, Double> indexes = new TreeMap<>();
            for (ConsumedCapacity c : capacities) {
                total += c.capacityUnits();
                table += c.table() == null ? c.capacityUnits() : units(c.table());
                if (c.hasGlobalSecondaryIndexes()) {
                    c.globalSecondaryIndexes().forEach((name, capacity) -> indexes.merge(name, units(capacity), Double::sum));
                }
            }
            writes.add(new Write(total, table, indexes));
        }

        private static double units(Capacity capacity) {
            return capacity.capacityUnits();
        }
    }
}

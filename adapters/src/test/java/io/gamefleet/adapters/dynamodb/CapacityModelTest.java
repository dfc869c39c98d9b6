package io.gamefleet.adapters.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.IndexDefinition;
import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.UtilizationStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * docs/capacity.md's model, computed from the catalog's key design and the item layout itself:
 * one group of {@link #SERVERS} game servers heartbeating every {@link #HEARTBEAT_SECONDS}
 * seconds, {@link #CLAIMS_PER_SECOND} claims a second, each the start of a game that ends with
 * its server deregistering and a new one registering (the worst case: every claim a game). Every
 * operation's writes are derived from the items before and after it
 * ({@link GameServerSchema#toItem}) and from what each index of {@link Tables#GAME_SERVERS} keys
 * and projects: an index entry is written when a write adds, removes or changes it (a key change
 * is a delete and a put). The writes and reads of one second are added up per partition key,
 * and none may pass DynamoDB's limits per partition: 1,000 write units and 3,000 read units a
 * second.
 */
class CapacityModelTest {
    static final int SERVERS = 50_000;
    static final int HEARTBEAT_SECONDS = 30;
    static final int CLAIMS_PER_SECOND = 3_000;
    /** The stage's default maxGameServersPerInstance: 3,125 instances. */
    static final int SERVERS_PER_INSTANCE = 16;
    /** Warm function containers claiming at once (3,000/s at ~10 ms each is ~30; with room). */
    static final int CLAIMING_CONTAINERS = 100;
    /** Warm containers of all API functions, each reading a group's status once a second at most. */
    static final int CONTAINERS = 300;
    /** A container reads one shard's head at least this often while it claims (ClaimCandidateCache.CANDIDATES_MAX_AGE). */
    static final double CANDIDATE_READS_PER_CONTAINER_SECOND = 2;

    /** A claim-index entry as read: its keys (partition, sort key, the table's key) with their names, rounded up. */
    static final int CLAIM_INDEX_ENTRY_BYTES = 120;

    static final double WRITE_LIMIT = 1_000;
    static final double READ_LIMIT = 3_000;
    private static final String GROUP = "arena";
    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

    /** Units a second per partition key ("table/key" or "table.index/key"). */
    private final Map<String, double[]> load = new TreeMap<>();

    private void write(String partition, double units) {
        load.computeIfAbsent(partition, k -> new double[2])[0] += units;
    }

    private void read(String partition, double units) {
        load.computeIfAbsent(partition, k -> new double[2])[1] += units;
    }

    private static GameServer available(String id) {
        String instance = "i-" + String.format("%017d", Math.floorMod(id.hashCode(), SERVERS / SERVERS_PER_INSTANCE));
        return GameServer.builder().gameServerGroupName(GROUP).gameServerId(id).instanceId(instance)
                .connectionInfo("10.0.12.34:7777").utilizationStatus(UtilizationStatus.AVAILABLE)
                .registrationTime(NOW).lastHealthCheckTime(NOW).instanceStatus(InstanceStatus.ACTIVE)
                .instanceLaunchTime(NOW.minusSeconds(3600)).build();
    }

    /** A write of the GameServers item from {@code before} to {@code after} (either null for a put or a delete). */
    private void change(GameServer before, GameServer after, double itemUnits) {
        Map<String, AttributeValue> b = before == null ? null : GameServerSchema.toItem(before);
        Map<String, AttributeValue> a = after == null ? null : GameServerSchema.toItem(after);
        assertThat(size(a == null ? b : a)).as("an item within one write unit (1 KB)").isLessThanOrEqualTo(1024);
        String id = (after == null ? before : after).gameServerId();
        write("GameServers/" + id, itemUnits);
        for (IndexDefinition index : Tables.GAME_SERVERS.indexes()) {
            Entry eb = entry(index, b);
            Entry ea = entry(index, a);
            String name = "GameServers." + index.name() + "/";
            if (eb == null && ea != null) {
                write(name + ea.partition(), 1);
            } else if (eb != null && ea == null) {
                write(name + eb.partition(), 1);
            } else if (eb != null && !eb.key().equals(ea.key())) {
                write(name + eb.partition(), 1); // the old entry goes...
                write(name + ea.partition(), 1); // ...and the new one comes
            } else if (eb != null && !eb.equals(ea)) {
                write(name + ea.partition(), 1);
            }
        }
    }

    private record Entry(String partition, List<Object> key, Map<String, AttributeValue> projected) {}

    /** The item's entry in the index as the catalog defines it, or null when the item has none. */
    private static Entry entry(IndexDefinition index, Map<String, AttributeValue> item) {
        if (item == null || !item.containsKey(index.partitionKey().name()) || !item.containsKey(index.sortKey().name())) {
            return null;
        }
        Map<String, AttributeValue> projected = new TreeMap<>();
        switch (index.projection().type()) {
            case "ALL" -> projected.putAll(item);
            case "INCLUDE" -> index.projection().nonKeyAttributes().stream().filter(item::containsKey)
                    .forEach(n -> projected.put(n, item.get(n)));
            default -> { }
        }
        return new Entry(item.get(index.partitionKey().name()).s(),
                List.of(item.get(index.partitionKey().name()), item.get(index.sortKey().name()), item.get("GameServerId")),
                projected);
    }

    private static int size(Map<String, AttributeValue> item) {
        return item.entrySet().stream().mapToInt(e -> e.getKey().length()
                + (e.getValue().s() != null ? e.getValue().s().length() : e.getValue().n().length())).sum();
    }

    /** One second of the load described above. */
    private void oneSecond() {
        // Heartbeats: every server every HEARTBEAT_SECONDS, so SERVERS / HEARTBEAT_SECONDS servers this second.
        for (int n = 0; n < SERVERS / HEARTBEAT_SECONDS; n++) {
            GameServer s = available("gs-" + n);
            change(s, s.toBuilder().lastHealthCheckTime(NOW.plusSeconds(1)).build(), 1);
        }
        // Games: a claim, UTILIZED, the end (deregistration), a new server (registration).
        for (int n = 0; n < CLAIMS_PER_SECOND; n++) {
            GameServer s = available("gs-" + (SERVERS - 1 - n));
            GameServer claimed = s.toBuilder().claimExpiresAt(NOW.plusSeconds(60)).lastClaimTime(NOW)
                    .gameServerData("match-" + n).build();
            change(s, claimed, 1);
            GameServer utilized = claimed.toBuilder().utilizationStatus(UtilizationStatus.UTILIZED).claimExpiresAt(null).build();
            change(claimed, utilized, 1);
            read("GameServers/" + utilized.gameServerId(), 1); // the deregistration reads it, strongly consistent
            change(utilized, null, 2); // then deletes it in a transaction: two units
            write("GameServers/" + InstanceCounts.ID_PREFIX + utilized.instanceId(), 2); // with its instance's count
            GameServer fresh = available("gs-new-" + n);
            change(null, fresh, 2); // a transactional put: two units
            write("GameServers/" + GameServerSchema.gateId(GROUP, Tables.shardOf(fresh.gameServerId())), 2); // its ConditionCheck
            write("GameServers/" + InstanceCounts.ID_PREFIX + fresh.instanceId(), 2); // and its instance's count
            read("GameServerInstances/" + GROUP, 0.5); // the instance, eventually consistent (the table's key is the group)
        }
        // Claim candidates: each claiming container reads one shard's head per refresh (ClaimIndex#some),
        // a page of up to 200 index entries, eventually consistent, the shards chosen at random.
        double refreshes = Math.max(CLAIMING_CONTAINERS * CANDIDATE_READS_PER_CONTAINER_SECOND,
                CLAIMS_PER_SECOND / (2.0 * 200 / 3)); // or one top-up per two thirds of a 200-candidate page
        double unitsPerRead = 0.5 * Math.ceil(200.0 * CLAIM_INDEX_ENTRY_BYTES / 4096);
        for (int shard = 0; shard < Tables.GAME_SERVER_SHARDS; shard++) {
            read("GameServers." + Tables.CLAIMABLE_INDEX + "/" + Tables.groupShard(GROUP, shard),
                    unitsPerRead * refreshes / Tables.GAME_SERVER_SHARDS);
        }
        // The group's status: once a second at most per container (strongly consistent, under 4 KB).
        read("GameServerGroups/" + GROUP, CONTAINERS);
    }

    @Test
    void noPartitionOfAGroupOf50000ServersWith3000ClaimsASecondPassesDynamoDbsLimits() {
        Map<String, AttributeValue> item = GameServerSchema.toItem(available("gs-" + (SERVERS - 1)));
        assertThat(size(Map.of("ClaimPartition", item.get("ClaimPartition"), "ClaimSortKey", item.get("ClaimSortKey"),
                "GameServerId", item.get("GameServerId")))).as("a claim-index entry").isLessThanOrEqualTo(CLAIM_INDEX_ENTRY_BYTES);
        assertThat(Tables.shardsFor(SERVERS / SERVERS_PER_INSTANCE)).as("the group's shards, by its instances")
                .isEqualTo(Tables.GAME_SERVER_SHARDS);
        oneSecond();

        List<Map.Entry<String, double[]>> hottest = new ArrayList<>(load.entrySet());
        hottest.sort(Comparator.comparingDouble((Map.Entry<String, double[]> e) -> -Math.max(e.getValue()[0] / WRITE_LIMIT,
                e.getValue()[1] / READ_LIMIT)));
        System.out.printf("%d servers, heartbeat every %d s, %d claims/s (each a game); hottest partition keys:%n",
                SERVERS, HEARTBEAT_SECONDS, CLAIMS_PER_SECOND);
        Set<String> shown = new HashSet<>();
        for (Map.Entry<String, double[]> e : hottest) {
            String table = e.getKey().replaceAll("/.*", "");
            String key = e.getKey().substring(table.length() + 1);
            // GameServers' own items: a server's, a gate, an instance's count.
            String kind = !table.equals("GameServers") ? table : key.startsWith(GameServerSchema.GATE_ID_PREFIX)
                    ? table + " (gate)" : key.startsWith(InstanceCounts.ID_PREFIX) ? table + " (instance count)" : table;
            if (shown.add(kind)) {
                System.out.printf("  %-40s %8.1f writes/s %8.1f reads/s  (%s)%n", kind, e.getValue()[0], e.getValue()[1],
                        key);
            }
        }
        for (Map.Entry<String, double[]> e : load.entrySet()) {
            assertThat(e.getValue()[0]).as("write units/s of " + e.getKey()).isLessThanOrEqualTo(WRITE_LIMIT);
            assertThat(e.getValue()[1]).as("read units/s of " + e.getKey()).isLessThanOrEqualTo(READ_LIMIT);
        }
        // What keeps it so: the claim index is spread over the shards...
        assertThat(load.keySet().stream().filter(k -> k.startsWith("GameServers." + Tables.CLAIMABLE_INDEX + "/")))
                .hasSize(Tables.GAME_SERVER_SHARDS);
        // ...and heartbeats write no index.
        GameServer s = available("gs-x");
        load.clear();
        change(s, s.toBuilder().lastHealthCheckTime(NOW.plusSeconds(1)).build(), 1);
        assertThat(load).containsOnlyKeys("GameServers/gs-x");
    }

    @Test
    void withOneShardTheClaimIndexWouldNotHold() {
        // The same games on one partition key: four claim-index writes each (registration, the
        // claim's move, UTILIZED), far past 1,000 a second.
        double perGame = 0;
        GameServer s = available("gs-1");
        load.clear();
        change(null, s, 2);
        GameServer claimed = s.toBuilder().claimExpiresAt(NOW.plusSeconds(60)).lastClaimTime(NOW).build();
        change(s, claimed, 1);
        change(claimed, claimed.toBuilder().utilizationStatus(UtilizationStatus.UTILIZED).claimExpiresAt(null).build(), 1);
        for (Map.Entry<String, double[]> e : load.entrySet()) {
            if (e.getKey().startsWith("GameServers." + Tables.CLAIMABLE_INDEX + "/")) {
                perGame += e.getValue()[0];
            }
        }
        assertThat(perGame).isEqualTo(4);
        assertThat(perGame * CLAIMS_PER_SECOND).isGreaterThan(WRITE_LIMIT);
        assertThat(perGame * CLAIMS_PER_SECOND / Tables.GAME_SERVER_SHARDS).isLessThanOrEqualTo(WRITE_LIMIT);
    }

    /**
     * Every one of those claims a session's ({@link DynamoSessionRepository#toItem}): each writes
     * one entry in the sessions index (keys only, under 1 KB), on its group's shard of
     * {@link Tables#SESSION_SHARDS} by its id (random UUIDs, as matchmakers send). The hottest
     * shard stays under a partition's limit; on one partition key they would not.
     */
    @Test
    void aGroupsSessionsAt3000ASecondStayUnderAPartitionsLimitOnTheirShards() {
        java.util.Random random = new java.util.Random(29);
        Map<String, Integer> perShard = new TreeMap<>();
        for (int n = 0; n < CLAIMS_PER_SECOND; n++) {
            String id = new java.util.UUID(random.nextLong(), random.nextLong()).toString();
            io.gamefleet.domain.Session session = new io.gamefleet.domain.Session(new io.gamefleet.domain.Session.Request(
                    id, GROUP, null, List.of(), Set.of(InstanceStatus.ACTIVE)), "gs-" + n, NOW, NOW.plusSeconds(60),
                    NOW.plusSeconds(86_400));
            Map<String, AttributeValue> item = DynamoSessionRepository.toItem(session);
            IndexDefinition index = Tables.GAME_SERVERS.indexes().stream()
                    .filter(i -> i.name().equals(Tables.SESSIONS_BY_GROUP_INDEX)).findFirst().orElseThrow();
            Entry entry = entry(index, item);
            assertThat(size(Map.of(index.partitionKey().name(), item.get(index.partitionKey().name()),
                    index.sortKey().name(), item.get(index.sortKey().name()), "GameServerId", item.get("GameServerId"))))
                    .as("a sessions-index entry: one write unit").isLessThanOrEqualTo(1024);
            perShard.merge(entry.partition(), 1, Integer::sum);
        }
        int hottest = perShard.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
        System.out.printf("%d sessions/s of one group: the sessions index's hottest shard takes %d writes/s (%s)%n",
                CLAIMS_PER_SECOND, hottest, perShard);
        assertThat(perShard).hasSize(Tables.SESSION_SHARDS);
        assertThat((double) hottest).isLessThanOrEqualTo(WRITE_LIMIT);
        assertThat((double) CLAIMS_PER_SECOND).as("on one key").isGreaterThan(WRITE_LIMIT);
    }
}

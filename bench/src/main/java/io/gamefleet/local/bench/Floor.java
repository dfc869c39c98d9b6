package io.gamefleet.local.bench;

import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GameServer;
import io.gamefleet.local.LocalProfile;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The drain's floors: what a claim's write costs the emulator without the rest of a claim.
 * Conditional UpdateItems, each on an item of its own, with the functions' client; the same write
 * on registered game servers, in GameServers and in a copy of them without indexes; and
 * Gamefleet's claim writes alone.
 */
final class Floor {
    /** The items of a floor run, one write each. */
    static final int FLOOR_ITEMS = 10000;
    final DynamoDbClient client;
    private final String gameServers = Tables.GAME_SERVERS.logicalName();
    private int runs;

    Floor(DynamoDbClient client) {
        this.client = client;
    }

    /**
     * Claims per second: {@link #FLOOR_ITEMS} conditional writes from {@code threads} threads.
     * With {@code indexed}, each item also has a claim-index entry that the write moves, as a
     * claim's does: what the emulator's index upkeep adds to the floor.
     */
    double run(int threads, boolean indexed) throws Exception {
        String prefix = "#floor#" + ++runs + "#";
        AtomicInteger nextSeed = new AtomicInteger();
        Benchmarks.onThreads(8, () -> {
            for (int i = nextSeed.getAndIncrement(); i < FLOOR_ITEMS; i = nextSeed.getAndIncrement()) {
                String id = prefix + next(i);
                Map<String, AttributeValue> item = indexed
                        ? Map.of("GameServerId", AttributeValue.fromS(id), "ClaimPartition", AttributeValue.fromS(prefix),
                                "ClaimSortKey", AttributeValue.fromS("0#0#" + id))
                        : Map.of("GameServerId", AttributeValue.fromS(id));
                client.putItem(p -> p.tableName(gameServers).item(item));
            }
            return null;
        });
        AtomicInteger nextItem = new AtomicInteger();
        Map<String, AttributeValue> values = indexed
                ? Map.of(":e", AttributeValue.fromN("1"), ":now", AttributeValue.fromN("0"), ":k", AttributeValue.fromS("0#1"))
                : Map.of(":e", AttributeValue.fromN("1"), ":now", AttributeValue.fromN("0"));
        long start = System.nanoTime();
        Benchmarks.onThreads(threads, () -> {
            for (int i = nextItem.getAndIncrement(); i < FLOOR_ITEMS; i = nextItem.getAndIncrement()) {
                String id = prefix + next(i);
                client.updateItem(u -> u.tableName(gameServers).key(Map.of("GameServerId", AttributeValue.fromS(id)))
                        .updateExpression(indexed ? "SET ClaimExpiresAt = :e, ClaimSortKey = :k" : "SET ClaimExpiresAt = :e")
                        .conditionExpression("attribute_not_exists(ClaimExpiresAt) OR ClaimExpiresAt <= :now")
                        .expressionAttributeValues(values));
            }
            return null;
        });
        return FLOOR_ITEMS / ((System.nanoTime() - start) / 1e9);
    }

    private static String next(int i) {
        return Integer.toString(i);
    }

    /**
     * The floor's write (a conditional SET of one attribute that no index holds) on registered
     * game servers, one each: what writing a game server's item costs the emulator, whose index
     * upkeep grows with the indexes an item sits in even when the write changes none of their keys.
     */
    double onGameServers(String table, String group, int servers, int threads) throws Exception {
        Map<String, AttributeValue> values = Map.of(":e", AttributeValue.fromN("1"));
        AtomicInteger next = new AtomicInteger();
        long start = System.nanoTime();
        Benchmarks.onThreads(threads, () -> {
            for (int i = next.getAndIncrement(); i < servers; i = next.getAndIncrement()) {
                String id = group + "-" + i;
                client.updateItem(u -> u.tableName(table).key(Map.of("GameServerId", AttributeValue.fromS(id)))
                        .updateExpression("SET FloorMark = :e").conditionExpression("attribute_not_exists(FloorMark)")
                        .expressionAttributeValues(values));
            }
            return null;
        });
        return servers / ((System.nanoTime() - start) / 1e9);
    }

    /**
     * Copies the group's game-server items, as stored, into a table with GameServers' key and no
     * index: the table's name. The floor's write on them there, beside the same write in
     * GameServers, shows what the indexes cost the emulator.
     */
    String copyIntoTableWithoutIndexes(String group, int servers) throws Exception {
        String copy = "bench-game-servers-without-indexes";
        client.createTable(c -> c.tableName(copy).billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(KeySchemaElement.builder().attributeName("GameServerId").keyType(KeyType.HASH).build())
                .attributeDefinitions(AttributeDefinition.builder().attributeName("GameServerId")
                        .attributeType(ScalarAttributeType.S).build()));
        AtomicInteger next = new AtomicInteger();
        Benchmarks.onThreads(8, () -> {
            for (int i = next.getAndIncrement(); i < servers; i = next.getAndIncrement()) {
                Map<String, AttributeValue> key = Map.of("GameServerId", AttributeValue.fromS(group + "-" + i));
                Map<String, AttributeValue> item = client.getItem(g -> g.tableName(Tables.GAME_SERVERS.logicalName())
                        .key(key).consistentRead(true)).item();
                client.putItem(p -> p.tableName(copy).item(item));
            }
            return null;
        });
        return copy;
    }

    /** What the claim's write costs without the rest of a claim: tryClaim on known servers, one each. */
    double claimWritesAlone(LocalProfile profile, String group, int servers, int threads) throws Exception {
        Map<String, String> env = new java.util.HashMap<>();
        Tables.ALL.forEach(t -> env.put(t.environmentVariable(), t.logicalName()));
        var repository = new io.gamefleet.adapters.dynamodb.DynamoGameServerRepository(client,
                new io.gamefleet.adapters.dynamodb.TableNames(env));
        java.time.Instant now = java.time.Instant.now();
        var condition = new io.gamefleet.domain.GameServerRepository.ClaimCondition(now, now.minusSeconds(60),
                java.util.EnumSet.of(io.gamefleet.domain.InstanceStatus.ACTIVE));
        List<GameServer> candidates = new java.util.ArrayList<>();
        for (int i = 0; i < servers; i++) {
            candidates.add(profile.services().gameServers().describe(group, group + "-" + i, Caller.UNBOUND));
        }
        AtomicInteger next = new AtomicInteger();
        long start = System.nanoTime();
        Benchmarks.onThreads(threads, () -> {
            for (int i = next.getAndIncrement(); i < servers; i = next.getAndIncrement()) {
                repository.tryClaim(candidates.get(i), condition, now.plusSeconds(60), Optional.empty()).orElseThrow();
            }
            return null;
        });
        return servers / ((System.nanoTime() - start) / 1e9);
    }
}

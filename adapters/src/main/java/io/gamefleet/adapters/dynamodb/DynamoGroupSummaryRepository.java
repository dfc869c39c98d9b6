package io.gamefleet.adapters.dynamodb;

import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.GroupSummary;
import io.gamefleet.domain.GroupSummaryRepository;
import io.gamefleet.domain.Metrics.GameServerCounts;
import io.gamefleet.domain.Metrics.ProcessCounts;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The groups' summaries in GameServerGroups, an item each beside its group's, keyed
 * {@code #summary#<group>} ({@code #} is outside the group name pattern, and the item has no
 * {@code ListPartition}, so no listing of groups shows it), as the standby policies are. The
 * balancer puts it whole at each run; a read is one GetItem (eventually consistent: a console
 * reads it every few seconds, and a run's count is a minute old anyway).
 */
public final class DynamoGroupSummaryRepository implements GroupSummaryRepository {
    static final String KEY_PREFIX = "#summary#";

    private final DynamoDbClient dynamoDb;
    private final String tableName;

    public DynamoGroupSummaryRepository(DynamoDbClient dynamoDb, TableNames names) {
        this.dynamoDb = dynamoDb;
        this.tableName = names.of(Tables.GAME_SERVER_GROUPS);
    }

    @Override
    public Optional<GroupSummary> find(String group) {
        var response = dynamoDb.getItem(r -> r.tableName(tableName).key(key(group)));
        if (!response.hasItem() || response.item().isEmpty()) {
            return Optional.empty();
        }
        Map<String, AttributeValue> item = response.item();
        return Optional.of(new GroupSummary(Instant.ofEpochMilli(n(item, "AsOf")), n(item, "GameServers"),
                new GameServerCounts(n(item, "Available"), n(item, "Utilized"), n(item, "DrainingAvailable"),
                        n(item, "DrainingUtilized")),
                n(item, "Claimable"), n(item, "Claimed"), n(item, "OnSpotTerminating"),
                new ProcessCounts(n(item, "Initializing"), n(item, "StandingBy"), n(item, "Active"),
                        n(item, "Terminating"), n(item, "ConnectedPlayers"))));
    }

    @Override
    public void save(String group, GroupSummary s) {
        Map<String, AttributeValue> item = new HashMap<>(key(group));
        put(item, "AsOf", s.asOf().toEpochMilli());
        put(item, "GameServers", s.gameServers());
        put(item, "Available", s.counts().available());
        put(item, "Utilized", s.counts().utilized());
        put(item, "DrainingAvailable", s.counts().drainingAvailable());
        put(item, "DrainingUtilized", s.counts().drainingUtilized());
        put(item, "Claimable", s.claimable());
        put(item, "Claimed", s.claimed());
        put(item, "OnSpotTerminating", s.onSpotTerminating());
        put(item, "Initializing", s.processes().initializing());
        put(item, "StandingBy", s.processes().standingBy());
        put(item, "Active", s.processes().active());
        put(item, "Terminating", s.processes().terminating());
        put(item, "ConnectedPlayers", s.processes().connectedPlayers());
        dynamoDb.putItem(r -> r.tableName(tableName).item(item));
    }

    private static Map<String, AttributeValue> key(String group) {
        return Map.of("GameServerGroupName", AttributeValue.fromS(KEY_PREFIX + group));
    }

    private static void put(Map<String, AttributeValue> item, String name, long value) {
        item.put(name, AttributeValue.fromN(Long.toString(value)));
    }

    private static long n(Map<String, AttributeValue> item, String name) {
        return Long.parseLong(item.get(name).n());
    }
}

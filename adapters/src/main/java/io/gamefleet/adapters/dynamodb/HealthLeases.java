package io.gamefleet.adapters.dynamodb;

import io.gamefleet.catalog.PushChannel;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerRepository.HealthLease;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/**
 * The agents' health leases on GameServers items ({@link io.gamefleet.domain.HealthReports}): the
 * rare writes, one UpdateItem per server whose health changed or whose lease nears its end (a
 * report's read of its servers is {@link ServerListings#some}).
 * No index holds the lease, so a write is the item's one write unit; a changed process adds its own
 * item's ({@link ProcessItems}).
 */
final class HealthLeases {
    private final DynamoDbClient dynamoDb;
    private final String tableName;
    private final BiConsumer<Map<String, AttributeValue>, GameServer> putBackIfTakenOut;
    private final ProcessItems processes;

    HealthLeases(DynamoDbClient dynamoDb, String tableName,
            BiConsumer<Map<String, AttributeValue>, GameServer> putBackIfTakenOut, ProcessItems processes) {
        this.dynamoDb = dynamoDb;
        this.tableName = tableName;
        this.putBackIfTakenOut = putBackIfTakenOut;
        this.processes = processes;
    }

    /**
     * One conditional UpdateItem: still in the group and on the instance. With a process, its
     * item is put first ({@link ProcessItems#put}), so that the summary the UpdateItem writes never
     * says a report is stored that is not: a report whose UpdateItem fails is written again.
     */
    Optional<GameServer> set(String group, String gameServerId, String instanceId, HealthLease lease) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":group", AttributeValue.fromS(group));
        values.put(":instance", AttributeValue.fromS(instanceId));
        values.put(":lease", GameServerSchema.number(lease.expiresAt()));
        values.put(":connection", AttributeValue.fromS(lease.pushConnectionId()));
        String set = "SET #lease = :lease, #connection = :connection";
        if (lease.healthCheckTime().isPresent()) {
            values.put(":health", GameServerSchema.number(lease.healthCheckTime().get()));
            set += ", LastHealthCheckTime = :health";
        }
        List<String> removes = new ArrayList<>();
        if (lease.process().isPresent()) {
            processes.put(group, gameServerId, instanceId, lease.process().get());
            set += ", " + ProcessItems.summaryUpdate(lease.process().get().report().summary(), values, removes);
        }
        String expression = set + (removes.isEmpty() ? "" : " REMOVE " + String.join(", ", removes));
        try {
            var response = dynamoDb.updateItem(u -> u.tableName(tableName).key(GameServerSchema.key(gameServerId))
                    .updateExpression(expression)
                    .conditionExpression("GameServerGroupName = :group AND InstanceId = :instance")
                    .expressionAttributeNames(names())
                    .expressionAttributeValues(values)
                    .returnValues(ReturnValue.ALL_NEW));
            GameServer updated = GameServerSchema.fromItem(response.attributes());
            if (lease.healthCheckTime().isPresent()) {
                putBackIfTakenOut.accept(response.attributes(), updated);
            }
            return Optional.of(updated);
        } catch (ConditionalCheckFailedException gone) {
            return Optional.empty();
        }
    }

    /** One conditional UpdateItem per server with a lease that runs past {@code now}. */
    void endAll(List<GameServer> onInstance, Instant now) {
        for (GameServer s : onInstance) {
            if (s.healthLeaseExpiresAt() == null || !s.healthLeaseExpiresAt().isAfter(now)) {
                continue;
            }
            try {
                dynamoDb.updateItem(u -> u.tableName(tableName).key(GameServerSchema.key(s.gameServerId()))
                        .updateExpression("SET #lease = :now")
                        .conditionExpression("#lease > :now")
                        .expressionAttributeNames(GameServerSchema.LEASE_NAME)
                        .expressionAttributeValues(Map.of(":now", GameServerSchema.number(now))));
            } catch (ConditionalCheckFailedException changedMeanwhile) {
                // ended or gone already
            }
        }
    }

    private static Map<String, String> names() {
        return Map.of("#lease", PushChannel.HEALTH_LEASE_ATTRIBUTE, "#connection", PushChannel.CONNECTION_ATTRIBUTE);
    }
}

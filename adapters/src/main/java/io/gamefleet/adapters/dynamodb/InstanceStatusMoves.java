package io.gamefleet.adapters.dynamodb;

import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.InstanceStatus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * Moves of game servers to another instance status (draining, Spot interruptions, retirement),
 * each server's claim-index entry rewritten with it: transactions of up to 100 servers as read,
 * and, when a concurrent change cancels one, the servers one by one from a fresh read, or (for
 * {@link #retire}) the ones already moved put back.
 */
final class InstanceStatusMoves {
    private final DynamoDbClient dynamoDb;
    private final String tableName;
    /** A strongly consistent read of a server by id. */
    private final Function<String, Optional<GameServer>> find;

    InstanceStatusMoves(DynamoDbClient dynamoDb, String tableName, Function<String, Optional<GameServer>> find) {
        this.dynamoDb = dynamoDb;
        this.tableName = tableName;
        this.find = find;
    }

    /** TransactWriteItems takes at most 100 actions. */
    private static final int TRANSACTION_LIMIT = 100;

    /**
     * One transaction per 100 servers, each update conditioned on the claim and utilization the
     * server was read with; when a concurrent claim or update cancels it, the servers are moved
     * one by one from a fresh read.
     */
    void setInstanceStatus(List<GameServer> servers, InstanceStatus status) {
        for (int from = 0; from < servers.size(); from += TRANSACTION_LIMIT) {
            List<GameServer> chunk = servers.subList(from, Math.min(servers.size(), from + TRANSACTION_LIMIT));
            if (!moveAsRead(chunk, status)) {
                chunk.forEach(s -> moveOneByOne(s.gameServerId(), status));
            }
        }
    }

    /**
     * One transaction per 100 servers. A refused one undoes those before it, server by server:
     * left SPOT_TERMINATING, their servers would stay out of claims on an instance that keeps running.
     */
    boolean retire(List<GameServer> servers) {
        for (int from = 0; from < servers.size(); from += TRANSACTION_LIMIT) {
            if (!moveAsRead(servers.subList(from, Math.min(servers.size(), from + TRANSACTION_LIMIT)),
                    InstanceStatus.SPOT_TERMINATING)) {
                servers.subList(0, from).forEach(this::unretire);
                return false;
            }
        }
        return true;
    }

    /** Puts a server retire took out of claims back to the status it was read with, while it is still retired. */
    private void unretire(GameServer read) {
        GameServer expected = read.toBuilder().instanceStatus(InstanceStatus.SPOT_TERMINATING).build(); // as retired
        for (int attempt = 0; attempt < 5; attempt++) {
            try {
                write(statusUpdate(expected, read.instanceStatus(), true));
                return;
            } catch (ConditionalCheckFailedException changedMeanwhile) {
                Optional<GameServer> current = find.apply(read.gameServerId());
                if (current.isEmpty() || current.get().instanceStatus() != InstanceStatus.SPOT_TERMINATING) {
                    return; // gone, or moved on by another writer
                }
                expected = current.get(); // updated while retired: put back as it is now
            }
        }
        throw GamefleetException.conflict("game server " + read.gameServerId() + " kept changing while it was put back into claims");
    }

    /** One transaction (at most 100 servers); false, and nothing written, if any server changed since it was read. */
    private boolean moveAsRead(List<GameServer> servers, InstanceStatus status) {
        List<TransactWriteItem> updates = servers.stream()
                .map(s -> TransactWriteItem.builder().update(statusUpdate(s, status, false)).build()).toList();
        try {
            dynamoDb.transactWriteItems(t -> t.transactItems(updates));
            return true;
        } catch (TransactionCanceledException changedMeanwhile) {
            return false;
        }
    }

    private void moveOneByOne(String gameServerId, InstanceStatus status) {
        for (int attempt = 0; attempt < 5; attempt++) {
            Optional<GameServer> current = find.apply(gameServerId);
            if (current.isEmpty() || current.get().instanceStatus() == InstanceStatus.SPOT_TERMINATING) {
                return; // gone, or its instance is being interrupted: that status stays
            }
            try {
                write(statusUpdate(current.get(), status, false));
                return;
            } catch (ConditionalCheckFailedException changedMeanwhile) {
                // read it again and redo
            }
        }
        throw GamefleetException.conflict("game server " + gameServerId + " kept changing while its instance status was set");
    }

    /** One conditional update on its own (ConditionalCheckFailedException when its condition fails). */
    private void write(Update u) {
        dynamoDb.updateItem(r -> r.tableName(u.tableName()).key(u.key()).updateExpression(u.updateExpression())
                .conditionExpression(u.conditionExpression()).expressionAttributeValues(u.expressionAttributeValues()));
    }

    /**
     * The server's instance status and claim-index entry, rewritten together, if the server is
     * as it was read. A server on an interrupted instance never leaves SPOT_TERMINATING, unless
     * {@code fromRetired}: then only a SPOT_TERMINATING one moves (retire's undo).
     */
    private Update statusUpdate(GameServer current, InstanceStatus status, boolean fromRetired) {
        GameServer moved = current.toBuilder().instanceStatus(status).build();
        String sortKey = GameServerSchema.claimSortKey(moved, moved.claimExpiresAt());
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":status", AttributeValue.fromS(status.name()));
        values.put(":utilization", AttributeValue.fromS(current.utilizationStatus().name()));
        values.put(":terminating", AttributeValue.fromS(InstanceStatus.SPOT_TERMINATING.name()));
        String condition = "UtilizationStatus = :utilization AND InstanceStatus " + (fromRetired ? "=" : "<>")
                + " :terminating AND ";
        if (current.claimExpiresAt() == null) {
            condition += "attribute_not_exists(ClaimExpiresAt)";
        } else {
            values.put(":expires", GameServerSchema.number(current.claimExpiresAt()));
            condition += "ClaimExpiresAt = :expires";
        }
        String update;
        if (sortKey == null) {
            update = "SET InstanceStatus = :status REMOVE ClaimPartition, ClaimSortKey";
        } else {
            values.put(":sortKey", AttributeValue.fromS(sortKey));
            update = "SET InstanceStatus = :status, ClaimSortKey = :sortKey, ClaimPartition = RegistrationPartition";
        }
        return Update.builder().tableName(tableName).key(GameServerSchema.key(current.gameServerId()))
                .updateExpression(update).conditionExpression(condition).expressionAttributeValues(values).build();
    }
}

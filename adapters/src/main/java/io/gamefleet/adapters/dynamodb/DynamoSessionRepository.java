package io.gamefleet.adapters.dynamodb;

import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerRepository.ClaimCondition;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.Page;
import io.gamefleet.domain.Session;
import io.gamefleet.domain.SessionRepository;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * Sessions in GameServers, an item each, {@code #session#<sessionId>} ({@code #} is outside the
 * game server id pattern, so no server takes it), kept until the session's {@code keepUntil} by
 * the table's TTL. Its entry in the sparse, keys-only {@link Tables#SESSIONS_BY_GROUP_INDEX} (the
 * only items with its keys) lists the group's sessions: partition {@code <group>#<shard>} of
 * {@link Tables#SESSION_SHARDS} by the session id, sort key the claim time (13 digits of epoch
 * milliseconds) and the session id, so that a group's listing is its shards' entries merged. A session's claim is one TransactWriteItems: the claim's
 * conditional UpdateItem of the server ({@link DynamoGameServerRepository#claimUpdate}) and the
 * session's Put on {@code attribute_not_exists}: of requests with one session id, exactly one
 * claims a server; the others' transactions are cancelled and they read the stored session.
 */
public final class DynamoSessionRepository implements SessionRepository {
    static final String ID_PREFIX = "#session#";
    /** The transaction's actions, in order. */
    private static final int CLAIM = 0;
    private static final int SESSION = 1;
    private static final String PARTITION = "SessionPartition";
    private static final String SORT_KEY = "SessionSortKey";

    private final DynamoDbClient dynamoDb;
    private final String tableName;
    private final DynamoGameServerRepository servers;

    public DynamoSessionRepository(DynamoDbClient dynamoDb, TableNames names, DynamoGameServerRepository servers) {
        this.dynamoDb = dynamoDb;
        this.tableName = names.of(Tables.GAME_SERVERS);
        this.servers = servers;
    }

    @Override
    public Optional<Session> find(String sessionId) {
        var response = dynamoDb.getItem(r -> r.tableName(tableName).key(GameServerSchema.key(ID_PREFIX + sessionId))
                .consistentRead(true));
        return response.hasItem() && !response.item().isEmpty() ? Optional.of(fromItem(response.item()))
                : Optional.empty();
    }

    /**
     * Each shard's next {@code limit} entries after the cursor (the sort key the page before ended
     * at), newest first, in one Query each (sent together), merged; then the page's sessions by key.
     */
    @Override
    public Page<Session> listByGroup(String group, int limit, Optional<String> cursor) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, not " + limit);
        }
        Map<String, AttributeValue> decoded = Cursors.decode(cursor);
        Optional<AttributeValue> after = decoded == null ? Optional.empty() : Optional.ofNullable(decoded.get(SORT_KEY));
        List<QueryResponse> shards = Shards.query(0, Tables.SESSION_SHARDS, shard -> {
            Map<String, AttributeValue> values = new HashMap<>();
            values.put(":p", AttributeValue.fromS(Tables.groupShard(group, shard)));
            after.ifPresent(a -> values.put(":after", a));
            return dynamoDb.query(q -> q.tableName(tableName).indexName(Tables.SESSIONS_BY_GROUP_INDEX)
                    .keyConditionExpression(PARTITION + " = :p" + (after.isPresent() ? " AND " + SORT_KEY + " < :after" : ""))
                    .expressionAttributeValues(values).scanIndexForward(false).limit(limit));
        });
        List<Map<String, AttributeValue>> entries = new ArrayList<>();
        boolean more = false;
        for (QueryResponse response : shards) {
            entries.addAll(response.items());
            more |= response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty();
        }
        entries.sort(Comparator.comparing((Map<String, AttributeValue> e) -> e.get(SORT_KEY).s()).reversed());
        more |= entries.size() > limit;
        List<Map<String, AttributeValue>> page = entries.subList(0, Math.min(limit, entries.size()));
        Optional<String> next = (more || page.size() == limit) && !page.isEmpty()
                ? Cursors.encode(Map.of(SORT_KEY, page.get(page.size() - 1).get(SORT_KEY))) : Optional.empty();
        List<String> ids = page.stream().map(e -> e.get("GameServerId").s()).toList();
        List<Session> sessions = BatchGets.items(dynamoDb, tableName, ids, false).stream()
                .map(DynamoSessionRepository::fromItem).toList();
        return new Page<>(sessions, next);
    }

    /**
     * The transaction, then the claimed server read (a transaction returns no item): a claim's
     * write and read units, doubled for the transaction, and the session's Put.
     */
    @Override
    public Outcome claim(Session session, GameServer candidate, ClaimCondition condition) {
        Optional<Update> claim = servers.claimUpdate(candidate, condition, session.claimExpiresAt(), Optional.empty(),
                Optional.of(session.sessionId()));
        if (claim.isEmpty()) {
            return new Outcome.NotClaimed();
        }
        Put put = Put.builder().tableName(tableName).item(toItem(session))
                .conditionExpression("attribute_not_exists(GameServerId)").build();
        try {
            dynamoDb.transactWriteItems(t -> t.transactItems(TransactWriteItem.builder().update(claim.get()).build(),
                    TransactWriteItem.builder().put(put).build()));
        } catch (TransactionCanceledException e) {
            List<CancellationReason> reasons = e.hasCancellationReasons() ? e.cancellationReasons() : List.of();
            if (failed(reasons, CLAIM)) {
                CancellationReason refused = reasons.get(CLAIM);
                servers.tried(candidate, condition, refused.hasItem() ? refused.item() : Map.of());
            } else {
                servers.tried(candidate, condition, Map.of());
            }
            // Stored by a duplicate (its condition failed, or its write conflicted with this one's).
            Optional<Session> stored = failed(reasons, SESSION) || conflicted(reasons, SESSION)
                    ? find(session.sessionId()) : Optional.empty();
            return stored.<Outcome>map(Outcome.Exists::new).orElseGet(Outcome.NotClaimed::new);
        }
        servers.tried(candidate, condition, Map.of());
        GameServer claimed = servers.find(candidate.gameServerId()).orElseThrow(() -> new IllegalStateException(
                "game server " + candidate.gameServerId() + " was deregistered the moment it was claimed"));
        return new Outcome.Claimed(claimed, session);
    }

    /** One conditional PutItem; the stored item, when there is one, comes back with the refusal. */
    @Override
    public Optional<Session> place(Session placed) {
        try {
            dynamoDb.putItem(p -> p.tableName(tableName).item(toItem(placed))
                    .conditionExpression("attribute_not_exists(GameServerId)")
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
            return Optional.empty();
        } catch (ConditionalCheckFailedException e) {
            return e.hasItem() && !e.item().isEmpty() ? Optional.of(fromItem(e.item())) : find(placed.sessionId());
        }
    }

    private static boolean failed(List<CancellationReason> reasons, int action) {
        return reasons.size() > action && "ConditionalCheckFailed".equals(reasons.get(action).code());
    }

    private static boolean conflicted(List<CancellationReason> reasons, int action) {
        return reasons.size() > action && "TransactionConflict".equals(reasons.get(action).code());
    }

    static Map<String, AttributeValue> toItem(Session session) {
        Session.Request r = session.request();
        Map<String, AttributeValue> item = new HashMap<>(GameServerSchema.key(ID_PREFIX + r.sessionId()));
        item.put("SessionId", AttributeValue.fromS(r.sessionId()));
        item.put("GameServerGroupName", AttributeValue.fromS(r.gameServerGroupName()));
        if (r.sessionCookie() != null) {
            item.put("SessionCookie", AttributeValue.fromS(r.sessionCookie()));
        }
        if (!r.initialPlayers().isEmpty()) {
            item.put("InitialPlayers", AttributeValue.fromL(r.initialPlayers().stream().map(AttributeValue::fromS)
                    .toList()));
        }
        item.put("InstanceStatuses", AttributeValue.fromSs(r.instanceStatuses().stream().map(Enum::name).sorted()
                .toList()));
        item.put("SessionServerId", AttributeValue.fromS(session.gameServerId()));
        item.put("SessionClaimTime", GameServerSchema.number(session.claimTime()));
        item.put("SessionClaimExpiresAt", GameServerSchema.number(session.claimExpiresAt()));
        if (session.placedIn().isPresent()) {
            // Another region's session: not in this region's listing (the index is sparse).
            item.put("SessionRegion", AttributeValue.fromS(session.placedIn().get()));
        } else {
            item.put(PARTITION, AttributeValue.fromS(Tables.groupShard(r.gameServerGroupName(),
                    Tables.shardOf(r.sessionId(), Tables.SESSION_SHARDS))));
            item.put(SORT_KEY, AttributeValue.fromS(String.format("%013d#%s", session.claimTime().toEpochMilli(),
                    r.sessionId())));
        }
        // TTL takes epoch seconds.
        item.put("ExpiresAt", AttributeValue.fromN(Long.toString(session.keepUntil().getEpochSecond())));
        return item;
    }

    static Session fromItem(Map<String, AttributeValue> item) {
        AttributeValue cookie = item.get("SessionCookie");
        AttributeValue players = item.get("InitialPlayers");
        Set<InstanceStatus> statuses = item.get("InstanceStatuses").ss().stream().map(InstanceStatus::valueOf)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(InstanceStatus.class)));
        List<String> initialPlayers = players == null ? List.of() : players.l().stream().map(AttributeValue::s).toList();
        Session.Request request = new Session.Request(item.get("SessionId").s(), item.get("GameServerGroupName").s(),
                cookie == null ? null : cookie.s(), initialPlayers, statuses);
        AttributeValue region = item.get("SessionRegion");
        return new Session(request, item.get("SessionServerId").s(), millis(item.get("SessionClaimTime")),
                millis(item.get("SessionClaimExpiresAt")), Instant.ofEpochSecond(Long.parseLong(item.get("ExpiresAt").n())),
                Optional.ofNullable(region).map(AttributeValue::s));
    }

    private static Instant millis(AttributeValue value) {
        return Instant.ofEpochMilli(Long.parseLong(value.n()));
    }
}

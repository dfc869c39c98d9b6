package io.gamefleet.adapters.dynamodb;

import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.ClaimStrategy;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerRepository.ClaimCandidates;
import io.gamefleet.domain.InstanceStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Reads of a group's claim candidates from the Claimable index's shards (keys in
 * {@link GameServerSchema}). {@link #best} reads the head of every shard the group's servers can
 * be in (its gates say how many: one per instance of the largest maximum size it had, up to 16)
 * and merges them: the group's best. {@link #some} reads one shard: the one Query of a claim whose container read
 * the group before, chosen at random in proportion to the candidates each shard showed this
 * container last, so that a small group's empty shards cost no read and a large group's claims
 * spread over all its partitions. What each shard showed is kept per container, less the candidates it
 * tried since, until it is read again; a shard found empty is read again only once the others
 * ran out too.
 */
final class ClaimIndex {
    /** Groups (and buckets) whose shards' candidates a container keeps; past this, it forgets them all. */
    static final int KNOWN_GROUPS = 1_000;
    /** Candidates whose shard a container remembers until they are tried; past this, it forgets them all. */
    static final int KNOWN_CANDIDATES = 10_000;
    /** Up to this many candidates are read from each shard per {@code limit} asked for, in a merged read. */
    private static final int SHARD_READ_FACTOR = 2;
    /** Pages past the first that one merged read may add, one shard at a time. */
    private static final int MAX_EXTRA_SHARD_PAGES = 8;
    /** One-shard reads a call of {@link #some} makes before it reads every shard. */
    private static final int SHARDS_TRIED = 2;

    private final DynamoDbClient dynamoDb;
    private final String tableName;
    /** Per group and bucket, the candidates each shard showed at its last read, less those tried since. */
    private final Map<String, AtomicIntegerArray> shown = new ConcurrentHashMap<>();
    /** The shard each candidate handed out lately was read from (its id says it only with its group's shard count). */
    private final Map<String, Integer> readFrom = new ConcurrentHashMap<>();
    /** Per group, the shards its servers can be in, as its gates said at their last read here. */
    private final Map<String, Integer> groupShards = new ConcurrentHashMap<>();

    ClaimIndex(DynamoDbClient dynamoDb, String tableName) {
        this.dynamoDb = dynamoDb;
        this.tableName = tableName;
    }

    /**
     * The group's best candidates: the claimable range of each shard its servers can be in, read
     * from its head, merged. Only the merged entries up to the least last key of the shards that
     * hold more are surely the group's best, so the answer stops there (at {@code limit}). A
     * container's first read of the group reads shard 0 first, whose gate says how many shards
     * there are; a gate that says more than were read (the group grew) has the rest read too.
     */
    ClaimCandidates best(String group, InstanceStatus instanceStatus, Instant now, int limit) {
        requireLimit(limit);
        Range range = Range.of(instanceStatus, now);
        if (range == null) {
            return new ClaimCandidates(Optional.empty(), List.of());
        }
        Integer known = groupShards.get(group);
        List<QueryResponse> responses = new ArrayList<>();
        if (known == null && range.withGate()) {
            responses.add(query(group, 0, range, limit + 1, null));
        }
        int perShard = perShard(limit, known != null ? known : gateShards(responses).orElse(Tables.GAME_SERVER_SHARDS));
        for (int read = -1; read < responses.size(); ) { // until the gates say no more shards than were read
            read = responses.size();
            int shards = Math.max(read, gateShards(responses).orElse(known != null ? known : Tables.GAME_SERVER_SHARDS));
            responses.addAll(Shards.query(read, shards, shard -> query(group, shard, range,
                    range.withGate() ? perShard + 1 : perShard, null)));
        }
        if (range.withGate()) {
            gateShards(responses).ifPresent(shards -> learnShards(group, shards));
        }
        List<List<String>> keys = new ArrayList<>(); // per shard, the sort keys read, in order
        List<Map<String, AttributeValue>> more = new ArrayList<>(); // per shard, where its next page starts (or null)
        int gates = 0;
        GameServerGroupStatus notActive = null;
        ClaimStrategy strategy = null; // the first gate's: all are written in one transaction
        for (QueryResponse response : responses) {
            List<String> shardKeys = new ArrayList<>();
            for (Map<String, AttributeValue> item : response.items()) {
                AttributeValue gateStatus = item.get("GroupStatus");
                if (gateStatus != null) {
                    gates++;
                    if (strategy == null) {
                        strategy = GameServerSchema.gateStrategy(item.get("ClaimSortKey").s());
                    }
                    GameServerGroupStatus status = GameServerGroupStatus.valueOf(gateStatus.s());
                    if (status != GameServerGroupStatus.ACTIVE) {
                        notActive = status;
                    }
                } else {
                    shardKeys.add(item.get("ClaimSortKey").s());
                }
            }
            keys.add(shardKeys);
            more.add(next(response));
        }
        // Only the keys up to the least last key of the shards that hold more are surely the
        // group's best: while fewer than the limit are, that shard's next page is read.
        List<String> best = merged(keys, more);
        for (int extra = 0; best.size() < limit && extra < MAX_EXTRA_SHARD_PAGES; extra++) {
            int shard = boundaryShard(keys, more);
            if (shard < 0) {
                break;
            }
            QueryResponse next = query(group, shard, range, perShard, more.get(shard));
            next.items().stream().filter(i -> !i.containsKey("GroupStatus"))
                    .forEach(i -> keys.get(shard).add(i.get("ClaimSortKey").s()));
            more.set(shard, next(next));
            best = merged(keys, more);
        }
        AtomicIntegerArray counts = new AtomicIntegerArray(Tables.GAME_SERVER_SHARDS);
        for (int shard = 0; shard < keys.size(); shard++) {
            counts.set(shard, keys.get(shard).size());
            int from = shard;
            keys.get(shard).forEach(k -> noteShard(k, from));
        }
        remember(group, instanceStatus, counts);
        // All shards' gates are written in one transaction; one that lags still says so.
        Optional<GameServerGroupStatus> status = notActive != null ? Optional.of(notActive)
                : gates == 0 ? Optional.empty()
                : gates < responses.size() ? Optional.empty() // some not seen yet: ask the group
                : Optional.of(GameServerGroupStatus.ACTIVE);
        return new ClaimCandidates(status, candidates(group, best, limit), Optional.ofNullable(strategy));
    }

    /**
     * Candidates from one shard, best first within it, and its gate's status: one Query when
     * this container read the group before and a shard showed candidates, else (and when the
     * shards tried have none left) the merged read of {@link #best}, so an empty answer still
     * means the whole group has none.
     */
    ClaimCandidates some(String group, InstanceStatus instanceStatus, Instant now, int limit) {
        requireLimit(limit);
        Range range = Range.of(instanceStatus, now);
        AtomicIntegerArray counts = shown.get(key(group, instanceStatus));
        for (int tried = 0; range != null && counts != null && tried < SHARDS_TRIED; tried++) {
            int shard = pick(counts);
            if (shard < 0) {
                break;
            }
            QueryResponse response = query(group, shard, range, range.withGate() ? limit + 1 : limit, null);
            Optional<GameServerGroupStatus> gate = Optional.empty();
            Optional<ClaimStrategy> strategy = Optional.empty();
            List<String> keys = new ArrayList<>();
            for (Map<String, AttributeValue> item : response.items()) {
                AttributeValue gateStatus = item.get("GroupStatus");
                if (gateStatus != null) {
                    gate = Optional.of(GameServerGroupStatus.valueOf(gateStatus.s()));
                    strategy = Optional.of(GameServerSchema.gateStrategy(item.get("ClaimSortKey").s()));
                    if (learnShards(group, GameServerSchema.gateShards(item.get("ClaimSortKey").s()))) {
                        shown.remove(key(group, instanceStatus)); // the group grew: the next read spreads over all its shards
                    }
                } else {
                    keys.add(item.get("ClaimSortKey").s());
                }
            }
            counts.set(shard, keys.size());
            int from = shard;
            keys.stream().limit(limit).forEach(k -> noteShard(k, from));
            if (!keys.isEmpty() || gate.filter(s -> s != GameServerGroupStatus.ACTIVE).isPresent()) {
                return new ClaimCandidates(gate, candidates(group, keys, limit), strategy);
            }
        }
        return best(group, instanceStatus, now, limit);
    }

    /** A candidate handed out was tried (claimed, or found taken): its shard shows one fewer to this container. */
    void tried(String group, GameServer candidate) {
        Integer shard = readFrom.remove(candidate.gameServerId());
        AtomicIntegerArray counts = shown.get(key(group, candidate.instanceStatus()));
        if (shard != null && counts != null) {
            counts.getAndUpdate(shard, n -> Math.max(0, n - 1));
        }
    }

    /** Up to {@code limit} in all, at least two per shard, more than its share from each. */
    private static int perShard(int limit, int shards) {
        return Math.min(limit, Math.max(2, (SHARD_READ_FACTOR * limit + shards - 1) / shards));
    }

    /** The most shards the gates among {@code responses} say the group's servers can be in; empty with no gate. */
    private static Optional<Integer> gateShards(List<QueryResponse> responses) {
        return responses.stream().flatMap(r -> r.items().stream()).filter(i -> i.containsKey("GroupStatus"))
                .map(i -> GameServerSchema.gateShards(i.get("ClaimSortKey").s())).max(Integer::compare);
    }

    /** Notes the shards a gate said; true if it said more than this container knew. */
    private boolean learnShards(String group, int shards) {
        if (groupShards.size() >= KNOWN_GROUPS) {
            groupShards.clear();
        }
        Integer before = groupShards.put(group, shards);
        return before != null && shards > before;
    }

    private void noteShard(String claimSortKey, int shard) {
        if (readFrom.size() >= KNOWN_CANDIDATES) {
            readFrom.clear();
        }
        readFrom.put(GameServerSchema.candidate("", claimSortKey).gameServerId(), shard);
    }

    private void remember(String group, InstanceStatus instanceStatus, AtomicIntegerArray counts) {
        if (shown.size() >= KNOWN_GROUPS) {
            shown.clear();
        }
        shown.put(key(group, instanceStatus), counts);
    }

    /** A shard at random, each in proportion to the candidates it showed; -1 when none showed any. */
    private static int pick(AtomicIntegerArray counts) {
        int[] snapshot = new int[counts.length()];
        long total = 0;
        for (int s = 0; s < snapshot.length; s++) {
            snapshot[s] = counts.get(s);
            total += snapshot[s];
        }
        if (total == 0) {
            return -1;
        }
        long at = ThreadLocalRandom.current().nextLong(total);
        for (int s = 0; s < snapshot.length; s++) {
            at -= snapshot[s];
            if (at < 0) {
                return s;
            }
        }
        return snapshot.length - 1;
    }

    private static String key(String group, InstanceStatus instanceStatus) {
        return group + "/" + instanceStatus;
    }

    private static void requireLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, not " + limit);
        }
    }

    private static List<GameServer> candidates(String group, List<String> keys, int limit) {
        return keys.stream().limit(limit).map(k -> GameServerSchema.candidate(group, k)).toList();
    }

    /**
     * A bucket's claimable range: from its head (the gate's key on the ACTIVE bucket, so the
     * read also tells the group's status) up to the servers whose claim is absent or lapsed now.
     */
    private record Range(String from, String to, boolean withGate) {
        static Range of(InstanceStatus instanceStatus, Instant now) {
            String bucket = GameServerSchema.bucket(instanceStatus);
            if (bucket == null) {
                return null;
            }
            boolean withGate = instanceStatus == InstanceStatus.ACTIVE;
            return new Range(withGate ? GameServerSchema.GATE_SORT_KEY : bucket + "#",
                    GameServerSchema.claimableUpTo(instanceStatus, now), withGate);
        }
    }

    private QueryResponse query(String group, int shard, Range range, int limit, Map<String, AttributeValue> start) {
        return dynamoDb.query(q -> q.tableName(tableName)
                .indexName(Tables.CLAIMABLE_INDEX)
                .keyConditionExpression("ClaimPartition = :p AND ClaimSortKey BETWEEN :from AND :to")
                .expressionAttributeValues(Map.of(
                        ":p", AttributeValue.fromS(Tables.groupShard(group, shard)),
                        ":from", AttributeValue.fromS(range.from()),
                        ":to", AttributeValue.fromS(range.to())))
                .exclusiveStartKey(start)
                .limit(limit));
    }

    private static Map<String, AttributeValue> next(QueryResponse response) {
        return response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty() ? response.lastEvaluatedKey() : null;
    }

    /** The shard with more whose last key read is the least, or -1 when none has more. */
    private static int boundaryShard(List<List<String>> keys, List<Map<String, AttributeValue>> more) {
        int shard = -1;
        for (int s = 0; s < keys.size(); s++) {
            if (more.get(s) != null && !keys.get(s).isEmpty() && (shard < 0
                    || last(keys.get(s)).compareTo(last(keys.get(shard))) < 0)) {
                shard = s;
            }
        }
        return shard;
    }

    /** The keys read that are surely the group's best, in order. */
    private static List<String> merged(List<List<String>> keys, List<Map<String, AttributeValue>> more) {
        int boundary = boundaryShard(keys, more);
        String upTo = boundary < 0 ? null : last(keys.get(boundary));
        return keys.stream().flatMap(List::stream).filter(k -> upTo == null || k.compareTo(upTo) <= 0).sorted().toList();
    }

    private static String last(List<String> keys) {
        return keys.get(keys.size() - 1);
    }
}

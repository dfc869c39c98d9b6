package io.gamefleet.domain.fakes;

import static io.gamefleet.domain.fakes.Storage.sortable;

import io.gamefleet.domain.InterruptionRepository;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The SpotInterruptions table in memory, as DynamoInterruptionRepository shows it through the
 * port: keyed by group and {@code <epoch ms>#<instance id>}. Its TTL is not played: rows stay.
 */
public final class InMemoryInterruptionRepository implements InterruptionRepository {
    private final Map<String, TreeMap<String, Interruption>> interruptions = new HashMap<>();

    @Override
    public synchronized boolean record(Interruption i, Instant expiresAt) {
        Interruption stored = new Interruption(i.group(), i.instanceId(), i.instanceType(), Storage.millis(i.at()));
        return interruptions.computeIfAbsent(i.group(), g -> new TreeMap<>())
                .putIfAbsent(sortable(i.at()) + "#" + i.instanceId(), stored) == null;
    }

    /** In key order: by time, then instance id. */
    @Override
    public synchronized List<Interruption> since(String group, Instant from) {
        return List.copyOf(interruptions.getOrDefault(group, new TreeMap<>()).tailMap(sortable(from), true).values());
    }
}

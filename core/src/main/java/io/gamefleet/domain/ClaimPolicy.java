package io.gamefleet.domain;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * The order in which a claimer tries candidates. Candidates arrive best first (packing: oldest
 * instance first). Trying strictly in that order would make concurrent claimers all race for the
 * first item; so each claimer shuffles the first {@code spread} candidates and tries them before
 * the rest, trading a little packing for far fewer failed conditional writes.
 */
public final class ClaimPolicy {
    private final int spread;
    private final RandomGenerator random;

    public ClaimPolicy(int spread, RandomGenerator random) {
        if (spread < 1) {
            throw new IllegalArgumentException("spread must be at least 1");
        }
        this.spread = spread;
        this.random = random;
    }

    public <T> List<T> tryOrder(List<T> bestFirst) {
        List<T> order = new ArrayList<>(bestFirst);
        shuffleHead(order);
        return order;
    }

    /**
     * The candidates in the group's claim strategy's order. FLEETIQ: as {@link #tryOrder(List)}.
     * Otherwise they are regrouped by instance, as the claim index shows it (its launch time: the
     * index holds no instance id), and counted: PACKED tries the instance with the fewest of them
     * first (the fullest, where instances run equal numbers of servers), DISTRIBUTED the one with
     * the most first and then one server of each instance in turn; ties keep the arrival order
     * (the oldest instance first). The shuffle stays within each instance's first {@code spread}
     * servers, so that it spreads concurrent claimers without undoing the strategy's order.
     */
    public List<GameServer> tryOrder(List<GameServer> bestFirst, ClaimStrategy strategy) {
        if (strategy == ClaimStrategy.FLEETIQ) {
            return tryOrder(bestFirst);
        }
        Map<Instant, List<GameServer>> byInstance = new LinkedHashMap<>();
        for (GameServer candidate : bestFirst) {
            byInstance.computeIfAbsent(candidate.instanceLaunchTime(), i -> new ArrayList<>()).add(candidate);
        }
        List<List<GameServer>> instances = new ArrayList<>(byInstance.values());
        Comparator<List<GameServer>> fewestFirst = Comparator.comparingInt(List::size);
        instances.sort(strategy == ClaimStrategy.PACKED ? fewestFirst : fewestFirst.reversed()); // stable: ties by arrival
        instances.forEach(this::shuffleHead);
        List<GameServer> order = new ArrayList<>(bestFirst.size());
        if (strategy == ClaimStrategy.PACKED) {
            instances.forEach(order::addAll);
        } else {
            for (int round = 0; order.size() < bestFirst.size(); round++) {
                for (List<GameServer> servers : instances) {
                    if (round < servers.size()) {
                        order.add(servers.get(round));
                    }
                }
            }
        }
        return order;
    }

    /** Fisher-Yates over the head only. */
    private void shuffleHead(List<?> order) {
        for (int i = Math.min(spread, order.size()) - 1; i > 0; i--) {
            Collections.swap(order, i, random.nextInt(i + 1));
        }
    }
}

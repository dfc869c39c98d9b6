package io.gamefleet.domain;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
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
        // Fisher-Yates over the head only.
        for (int i = Math.min(spread, order.size()) - 1; i > 0; i--) {
            Collections.swap(order, i, random.nextInt(i + 1));
        }
        return order;
    }
}

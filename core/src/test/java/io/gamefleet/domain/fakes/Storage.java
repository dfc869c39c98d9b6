package io.gamefleet.domain.fakes;

import io.gamefleet.domain.Page;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** What the DynamoDB tables do to values and listings, shared by the in-memory repositories. */
final class Storage {
    private Storage() {}

    /** Instants are stored as epoch milliseconds. */
    static Instant millis(Instant instant) {
        return instant == null ? null : Instant.ofEpochMilli(instant.toEpochMilli());
    }

    /** TTL attributes are stored as epoch seconds. */
    static Instant seconds(Instant instant) {
        return instant == null ? null : Instant.ofEpochSecond(instant.getEpochSecond());
    }

    /** Epoch milliseconds, zero-padded so that string order is time order (as in the index keys). */
    static String sortable(Instant instant) {
        return String.format("%013d", instant == null ? 0 : instant.toEpochMilli());
    }

    /**
     * One page of a Query: {@code items} in ascending key order, read from after the cursor (the
     * last key of the page before) in the given direction. Like DynamoDB's LastEvaluatedKey, the
     * cursor is returned whenever the page holds {@code limit} items, even if none follows.
     */
    static <T> Page<T> page(List<T> items, Function<T, String> key, boolean ascending, int limit,
            Optional<String> cursor) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, not " + limit);
        }
        List<T> ordered = new ArrayList<>(items);
        if (!ascending) {
            java.util.Collections.reverse(ordered);
        }
        List<T> page = ordered.stream()
                .filter(item -> cursor.isEmpty() || Integer.signum(key.apply(item).compareTo(cursor.get())) == (ascending ? 1 : -1))
                .limit(limit)
                .toList();
        Optional<String> next = page.size() == limit ? Optional.of(key.apply(page.get(limit - 1))) : Optional.empty();
        return new Page<>(page, next);
    }
}

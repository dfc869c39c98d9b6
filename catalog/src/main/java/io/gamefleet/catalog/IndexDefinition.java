package io.gamefleet.catalog;

import java.util.List;

/**
 * A global secondary index and what it projects. An index is written whenever a write changes one
 * of its keys or one of the attributes it projects, so an index projects only what its queries
 * need: then writes that change nothing it holds (a heartbeat, say) write the item alone.
 */
public record IndexDefinition(String name, KeyAttribute partitionKey, KeyAttribute sortKey, Projection projection) {
    /** An index projecting all attributes. */
    public IndexDefinition(String name, KeyAttribute partitionKey, KeyAttribute sortKey) {
        this(name, partitionKey, sortKey, Projection.ALL);
    }

    /** DynamoDB's projection: ALL, KEYS_ONLY, or INCLUDE with the non-key attributes it names. */
    public record Projection(String type, List<String> nonKeyAttributes) {
        public static final Projection ALL = new Projection("ALL", List.of());
        public static final Projection KEYS_ONLY = new Projection("KEYS_ONLY", List.of());

        public Projection {
            nonKeyAttributes = List.copyOf(nonKeyAttributes);
            if (type.equals("INCLUDE") == nonKeyAttributes.isEmpty()) {
                throw new IllegalArgumentException("INCLUDE, and only INCLUDE, names non-key attributes");
            }
        }

        public static Projection include(String... attributes) {
            return new Projection("INCLUDE", List.of(attributes));
        }
    }
}

package io.gamefleet.domain.contracts;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

/** What the contracts share: a base time and names no other test of the JVM uses. */
final class ContractSupport {
    /**
     * The base time of the stored data: far ahead of the wall clock, so that no TTL of a real
     * DynamoDB deletes rows during a test.
     */
    static final Instant T0 = Instant.parse("2100-01-01T00:00:00Z");

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private ContractSupport() {}

    static String unique(String prefix) {
        return prefix + "-" + SEQUENCE.incrementAndGet();
    }
}

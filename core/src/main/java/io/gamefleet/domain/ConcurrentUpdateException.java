package io.gamefleet.domain;

/** An optimistic-lock write lost to a concurrent one: the caller re-reads and decides again. */
public final class ConcurrentUpdateException extends RuntimeException {
    public ConcurrentUpdateException(String what) {
        super(what + " was changed concurrently");
    }
}

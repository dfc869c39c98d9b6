package io.gamefleet.wiring;

import java.util.function.Supplier;

/** A value built on first use, once, whichever thread asks first. */
final class Lazy<T> implements Supplier<T> {
    private final Supplier<T> factory;
    private volatile T value;

    private Lazy(Supplier<T> factory) {
        this.factory = factory;
    }

    static <T> Supplier<T> of(Supplier<T> factory) {
        return new Lazy<>(factory);
    }

    @Override
    public T get() {
        T v = value;
        if (v == null) {
            synchronized (this) {
                if (value == null) {
                    value = factory.get();
                }
                v = value;
            }
        }
        return v;
    }
}

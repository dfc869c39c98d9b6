package io.gamefleet.adapters.dynamodb;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.function.BiConsumer;
import java.util.function.Function;
import software.amazon.awssdk.enhanced.dynamodb.mapper.StaticAttributeTag;
import software.amazon.awssdk.enhanced.dynamodb.mapper.StaticImmutableTableSchema;

/**
 * Small helpers that declare table-schema attributes without bean introspection (it costs cold
 * start): strings, epoch-millisecond instants, enums by name, and nested values as JSON text.
 */
final class Attributes {
    /** Made on first use: reading game servers needs no JSON, and making an ObjectMapper costs a cold start. */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper()
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    }

    private Attributes() {}

    static <T, B> void string(StaticImmutableTableSchema.Builder<T, B> schema, String name,
            Function<T, String> getter, BiConsumer<B, String> setter) {
        schema.addAttribute(String.class, a -> a.name(name).getter(getter).setter(setter));
    }

    static <T, B> void millis(StaticImmutableTableSchema.Builder<T, B> schema, String name,
            Function<T, Instant> getter, BiConsumer<B, Instant> setter) {
        schema.addAttribute(Long.class, a -> a.name(name)
                .getter(t -> {
                    Instant v = getter.apply(t);
                    return v == null ? null : v.toEpochMilli();
                })
                .setter((b, v) -> setter.accept(b, v == null ? null : Instant.ofEpochMilli(v))));
    }

    static <T, B, E extends Enum<E>> void enumeration(StaticImmutableTableSchema.Builder<T, B> schema, String name,
            Class<E> type, Function<T, E> getter, BiConsumer<B, E> setter) {
        schema.addAttribute(String.class, a -> a.name(name)
                .getter(t -> {
                    E v = getter.apply(t);
                    return v == null ? null : v.name();
                })
                .setter((b, v) -> setter.accept(b, v == null ? null : Enum.valueOf(type, v))));
    }

    static <T, B, V> void json(StaticImmutableTableSchema.Builder<T, B> schema, String name,
            TypeReference<V> type, Function<T, V> getter, BiConsumer<B, V> setter) {
        schema.addAttribute(String.class, a -> a.name(name)
                .getter(t -> {
                    V v = getter.apply(t);
                    return v == null ? null : write(v);
                })
                .setter((b, v) -> setter.accept(b, v == null ? null : read(v, type))));
    }

    /** An index key derived from the item's fields: written, never read back into the item. */
    static <T, B> void derived(StaticImmutableTableSchema.Builder<T, B> schema, String name,
            Function<T, String> getter, StaticAttributeTag... tags) {
        schema.addAttribute(String.class, a -> a.name(name).getter(getter).setter((b, v) -> { }).tags(tags));
    }

    static String write(Object value) {
        try {
            return Json.MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    static <V> V read(String text, TypeReference<V> type) {
        try {
            return Json.MAPPER.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored JSON is unreadable", e);
        }
    }

    /** Epoch milliseconds, zero-padded so that string order is time order. */
    static String sortable(Instant instant) {
        long millis = instant == null ? 0 : instant.toEpochMilli();
        if (millis < 0) {
            return String.format("%013d", millis);
        }
        String digits = Long.toString(millis);
        return digits.length() >= 13 ? digits : "0000000000000".substring(digits.length()) + digits;
    }
}

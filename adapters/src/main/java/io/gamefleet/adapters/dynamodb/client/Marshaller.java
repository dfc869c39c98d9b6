package io.gamefleet.adapters.dynamodb.client;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.protocol.MarshallingType;
import software.amazon.awssdk.core.traits.ListTrait;
import software.amazon.awssdk.core.traits.MapTrait;
import software.amazon.awssdk.core.util.SdkAutoConstructList;
import software.amazon.awssdk.core.util.SdkAutoConstructMap;
import software.amazon.awssdk.utils.builder.SdkBuilder;

/**
 * The SDK's DynamoDB model objects to JSON 1.0 bodies and back, through the fields every model
 * class declares ({@link SdkPojo#sdkFields()}: name on the wire, marshalling type, getter, and the
 * builder's setter), as the SDK's own JSON protocol does: members never set are left out; lists
 * and maps the caller never set (the SDK's auto-construct ones) too; timestamps are epoch seconds;
 * bytes are base64.
 */
final class Marshaller {
    private Marshaller() {}

    /** The JSON object of a request (or any model object). */
    static String toJson(SdkPojo pojo) {
        StringBuilder out = new StringBuilder(256);
        writePojo(out, pojo);
        return out.toString();
    }

    private static void writePojo(StringBuilder out, SdkPojo pojo) {
        out.append('{');
        boolean first = true;
        for (SdkField<?> field : pojo.sdkFields()) {
            Object value = field.getValueOrDefault(pojo);
            if (value == null || value instanceof SdkAutoConstructList || value instanceof SdkAutoConstructMap) {
                continue;
            }
            if (!first) {
                out.append(',');
            }
            first = false;
            JsonText.writeString(out, field.locationName());
            out.append(':');
            writeValue(out, field, value);
        }
        out.append('}');
    }

    private static void writeValue(StringBuilder out, SdkField<?> field, Object value) {
        if (value == null) {
            out.append("null");
            return;
        }
        MarshallingType<?> type = field.marshallingType();
        if (type == MarshallingType.STRING) {
            JsonText.writeString(out, (String) value);
        } else if (type == MarshallingType.SDK_POJO) {
            writePojo(out, (SdkPojo) value);
        } else if (type == MarshallingType.MAP) {
            SdkField<?> valueField = field.getRequiredTrait(MapTrait.class).valueFieldInfo();
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                JsonText.writeString(out, (String) e.getKey());
                out.append(':');
                writeValue(out, valueField, e.getValue());
            }
            out.append('}');
        } else if (type == MarshallingType.LIST) {
            SdkField<?> member = field.getRequiredTrait(ListTrait.class).memberFieldInfo();
            out.append('[');
            boolean first = true;
            for (Object element : (List<?>) value) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                writeValue(out, member, element);
            }
            out.append(']');
        } else if (type == MarshallingType.BOOLEAN) {
            out.append(((Boolean) value).booleanValue());
        } else if (type == MarshallingType.INTEGER || type == MarshallingType.LONG || type == MarshallingType.SHORT
                || type == MarshallingType.BYTE) {
            out.append(((java.lang.Number) value).longValue());
        } else if (type == MarshallingType.DOUBLE || type == MarshallingType.FLOAT) {
            double d = ((java.lang.Number) value).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                JsonText.writeString(out, Double.toString(d)); // as the SDK writes them: "NaN", "Infinity"
            } else {
                out.append(d);
            }
        } else if (type == MarshallingType.BIG_DECIMAL) {
            out.append(((BigDecimal) value).toString());
        } else if (type == MarshallingType.INSTANT) {
            Instant instant = (Instant) value;
            out.append(BigDecimal.valueOf(instant.getEpochSecond()).add(BigDecimal.valueOf(instant.getNano(), 9))
                    .stripTrailingZeros().toPlainString());
        } else if (type == MarshallingType.SDK_BYTES) {
            out.append('"').append(Base64.getEncoder().encodeToString(((SdkBytes) value).asByteArrayUnsafe())).append('"');
        } else {
            throw new IllegalArgumentException("cannot write " + field.memberName() + " of type " + type);
        }
    }

    /** Fills {@code builder} (a model builder, also an {@link SdkPojo}) from a JSON object and builds it. */
    @SuppressWarnings("unchecked")
    static <T> T fromJson(Map<String, Object> json, SdkPojo builder) {
        fill(json, builder);
        return (T) ((SdkBuilder<?, ?>) builder).build();
    }

    /** Sets the builder's fields found in {@code json}; members it does not model are ignored. */
    static void fill(Map<String, Object> json, SdkPojo builder) {
        for (SdkField<?> field : builder.sdkFields()) {
            String name = field.unmarshallLocationName();
            if (json.containsKey(name)) {
                Object value = json.get(name);
                if (value != null) {
                    field.set(builder, read(field, value));
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Object read(SdkField<?> field, Object json) {
        if (json == null) {
            return null;
        }
        MarshallingType<?> type = field.marshallingType();
        if (type == MarshallingType.STRING) {
            return (String) json;
        } else if (type == MarshallingType.SDK_POJO) {
            SdkPojo nested = field.constructor().get();
            fill((Map<String, Object>) json, nested);
            return ((SdkBuilder<?, ?>) nested).build();
        } else if (type == MarshallingType.MAP) {
            SdkField<?> valueField = field.getRequiredTrait(MapTrait.class).valueFieldInfo();
            Map<String, Object> in = (Map<String, Object>) json;
            Map<String, Object> map = new LinkedHashMap<>(Math.max(4, in.size() * 4 / 3 + 1));
            in.forEach((k, v) -> map.put(k, read(valueField, v)));
            return map;
        } else if (type == MarshallingType.LIST) {
            SdkField<?> member = field.getRequiredTrait(ListTrait.class).memberFieldInfo();
            List<Object> in = (List<Object>) json;
            List<Object> list = new ArrayList<>(in.size());
            for (Object element : in) {
                list.add(read(member, element));
            }
            return list;
        } else if (type == MarshallingType.BOOLEAN) {
            return (Boolean) json;
        } else if (type == MarshallingType.INTEGER) {
            return Integer.valueOf(number(json));
        } else if (type == MarshallingType.LONG) {
            return Long.valueOf(number(json));
        } else if (type == MarshallingType.SHORT) {
            return Short.valueOf(number(json));
        } else if (type == MarshallingType.BYTE) {
            return Byte.valueOf(number(json));
        } else if (type == MarshallingType.DOUBLE) {
            return Double.valueOf(number(json));
        } else if (type == MarshallingType.FLOAT) {
            return Float.valueOf(number(json));
        } else if (type == MarshallingType.BIG_DECIMAL) {
            return new BigDecimal(number(json));
        } else if (type == MarshallingType.INSTANT) {
            BigDecimal seconds = new BigDecimal(number(json));
            long whole = seconds.longValue();
            return Instant.ofEpochSecond(whole, seconds.subtract(BigDecimal.valueOf(whole)).movePointRight(9).longValue());
        } else if (type == MarshallingType.SDK_BYTES) {
            return SdkBytes.fromByteArrayUnsafe(Base64.getDecoder().decode((String) json));
        }
        throw new IllegalArgumentException("cannot read " + field.memberName() + " of type " + type);
    }

    /** A JSON number's text; a string too, as the SDK reads "NaN" and "Infinity". */
    private static String number(Object json) {
        return json instanceof JsonText.Number n ? n.text() : (String) json;
    }
}

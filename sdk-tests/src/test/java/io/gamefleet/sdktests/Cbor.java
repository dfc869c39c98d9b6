package io.gamefleet.sdktests;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Just enough CBOR (RFC 8949) for the Smithy RPC v2 CBOR tests, written from the RFC so that the
 * server's CBOR library is checked by something other than itself. Encodes maps, lists, text, whole
 * numbers and booleans with definite lengths; decodes every major type, with tags kept as
 * {@link Tagged} so that a test sees tag 1 on a timestamp.
 */
final class Cbor {
    private Cbor() {}

    /** A tagged data item (major type 6). */
    record Tagged(long tag, Object value) {}

    static byte[] encode(Object value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, value);
        return out.toByteArray();
    }

    private static void write(ByteArrayOutputStream out, Object value) {
        if (value instanceof Map<?, ?> map) {
            head(out, 5, map.size());
            map.forEach((k, v) -> {
                write(out, k);
                write(out, v);
            });
        } else if (value instanceof List<?> list) {
            head(out, 4, list.size());
            list.forEach(item -> write(out, item));
        } else if (value instanceof String text) {
            byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            head(out, 3, utf8.length);
            out.writeBytes(utf8);
        } else if (value instanceof Integer || value instanceof Long) {
            long n = ((Number) value).longValue();
            if (n >= 0) {
                head(out, 0, n);
            } else {
                head(out, 1, -1 - n);
            }
        } else if (value instanceof Boolean b) {
            out.write(b ? 0xf5 : 0xf4);
        } else {
            throw new IllegalArgumentException("not encodable here: " + value);
        }
    }

    /** The initial byte and argument, in the shortest form (RFC 8949 section 3 and 4.2.1). */
    private static void head(ByteArrayOutputStream out, int majorType, long argument) {
        int major = majorType << 5;
        if (argument < 24) {
            out.write(major | (int) argument);
        } else if (argument < 0x100) {
            out.write(major | 24);
            out.write((int) argument);
        } else if (argument < 0x10000) {
            out.write(major | 25);
            out.writeBytes(ByteBuffer.allocate(2).putShort((short) argument).array());
        } else if (argument < 0x100000000L) {
            out.write(major | 26);
            out.writeBytes(ByteBuffer.allocate(4).putInt((int) argument).array());
        } else {
            out.write(major | 27);
            out.writeBytes(ByteBuffer.allocate(8).putLong(argument).array());
        }
    }

    /** Decodes one data item that must span the whole input. */
    static Object decode(byte[] bytes) {
        Reader reader = new Reader(ByteBuffer.wrap(bytes));
        Object value = reader.item();
        if (reader.in.hasRemaining()) {
            throw new IllegalArgumentException(reader.in.remaining() + " bytes after the data item");
        }
        return value;
    }

    private static final Object BREAK = new Object();

    private static final class Reader {
        final ByteBuffer in;

        Reader(ByteBuffer in) {
            this.in = in;
        }

        Object item() {
            int initial = in.get() & 0xff;
            int major = initial >>> 5;
            int info = initial & 0x1f;
            if (major == 7) {
                return simple(info);
            }
            boolean indefinite = info == 31;
            long argument = indefinite ? -1 : argument(info);
            switch (major) {
                case 0:
                    return argument;
                case 1:
                    return -1 - argument;
                case 2:
                case 3: {
                    byte[] data = indefinite ? chunks(major) : take(argument);
                    return major == 2 ? data : new String(data, StandardCharsets.UTF_8);
                }
                case 4: {
                    List<Object> list = new ArrayList<>();
                    for (long i = 0; indefinite || i < argument; i++) {
                        Object item = item();
                        if (item == BREAK) {
                            break;
                        }
                        list.add(item);
                    }
                    return list;
                }
                case 5: {
                    Map<Object, Object> map = new LinkedHashMap<>();
                    for (long i = 0; indefinite || i < argument; i++) {
                        Object key = item();
                        if (key == BREAK) {
                            break;
                        }
                        map.put(key, item());
                    }
                    return map;
                }
                case 6:
                    return new Tagged(argument, item());
                default:
                    throw new IllegalStateException("major type " + major);
            }
        }

        private long argument(int info) {
            if (info < 24) {
                return info;
            }
            return switch (info) {
                case 24 -> in.get() & 0xffL;
                case 25 -> in.getShort() & 0xffffL;
                case 26 -> in.getInt() & 0xffffffffL;
                case 27 -> in.getLong();
                default -> throw new IllegalArgumentException("reserved additional information " + info);
            };
        }

        private Object simple(int info) {
            return switch (info) {
                case 20 -> false;
                case 21 -> true;
                case 22, 23 -> null;
                case 25 -> half(in.getShort() & 0xffff);
                case 26 -> (double) in.getFloat();
                case 27 -> in.getDouble();
                case 31 -> BREAK;
                default -> throw new IllegalArgumentException("simple value " + info);
            };
        }

        /** IEEE 754 half precision (RFC 8949 appendix D). */
        private static double half(int bits) {
            int exponent = (bits >> 10) & 0x1f;
            int mantissa = bits & 0x3ff;
            double value = exponent == 0 ? Math.scalb((double) mantissa, -24)
                    : exponent != 31 ? Math.scalb((double) (mantissa + 1024), exponent - 25)
                    : mantissa == 0 ? Double.POSITIVE_INFINITY : Double.NaN;
            return (bits & 0x8000) != 0 ? -value : value;
        }

        private byte[] take(long length) {
            byte[] data = new byte[Math.toIntExact(length)];
            in.get(data);
            return data;
        }

        private byte[] chunks(int major) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            while (true) {
                int initial = in.get() & 0xff;
                if (initial == 0xff) {
                    return out.toByteArray();
                }
                if (initial >>> 5 != major) {
                    throw new IllegalArgumentException("a chunk of another major type");
                }
                out.writeBytes(take(argument(initial & 0x1f)));
            }
        }
    }
}

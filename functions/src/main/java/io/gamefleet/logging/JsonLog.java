package io.gamefleet.logging;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.json.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The functions' log: one JSON object per line, per event, carrying the invocation's request id,
 * function, operation, group and caller role when known, so CloudWatch Logs Insights can filter on
 * them; an error is one record with its stack trace inside. Written to standard output, which
 * Lambda sends to the function's log group; the local profile installs a {@link #sink} that prints
 * the same records readably.
 */
public final class JsonLog {
    private static final ThreadLocal<Map<String, String>> CONTEXT = ThreadLocal.withInitial(LinkedHashMap::new);
    private static volatile Consumer<ObjectNode> sink = record -> System.out.println(Json.text(record));
    private static volatile Clock clock = Clock.systemUTC();

    private JsonLog() {}

    /** Where records go: standard output as JSON lines, unless the local profile says otherwise. */
    public static void sink(Consumer<ObjectNode> records, Clock recordClock) {
        sink = records;
        clock = recordClock;
    }

    /**
     * Starts an invocation's context on this thread (Lambda runs one invocation per thread at a
     * time, the local profile one per worker thread); closing it clears the context.
     */
    public static Invocation invocation(String requestId, String function) {
        Map<String, String> context = CONTEXT.get();
        context.clear();
        if (requestId != null) {
            context.put("requestId", requestId);
        }
        context.put("function", function);
        return context::clear;
    }

    /** Adds a field (operation, group, role...) to every record of the current invocation. */
    public static void with(String key, String value) {
        if (value != null) {
            CONTEXT.get().put(key, value);
        }
    }

    public static void info(String message) {
        write("INFO", message, null);
    }

    public static void warn(String message) {
        write("WARN", message, null);
    }

    public static void error(String message, Throwable error) {
        write("ERROR", message, error);
    }

    /** An invocation's context, closed when the invocation ends. */
    public interface Invocation extends AutoCloseable {
        @Override
        void close();
    }

    private static void write(String level, String message, Throwable error) {
        ObjectNode record = Json.NODES.objectNode();
        record.put("timestamp", clock.instant().toString());
        record.put("level", level);
        record.put("message", message);
        CONTEXT.get().forEach(record::put);
        if (error != null) {
            StringWriter stack = new StringWriter();
            error.printStackTrace(new PrintWriter(stack));
            record.putObject("error").put("type", error.getClass().getName())
                    .put("message", String.valueOf(error.getMessage())).put("stackTrace", stack.toString());
        }
        sink.accept(record);
    }
}

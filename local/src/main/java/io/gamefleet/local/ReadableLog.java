package io.gamefleet.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.local.edge.LogLevel;
import io.gamefleet.logging.JsonLog;
import java.io.PrintStream;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * The functions' JSON log records, printed for a person at a terminal: time, level, function and
 * message on one line, the other fields after it, a stack trace indented below; those of the
 * levels the {@link LogLevel} leaves out ({@code errors}: INFO) not at all.
 */
final class ReadableLog {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);
    private static final Set<String> HEADLINE = Set.of("timestamp", "level", "function", "message", "error");

    private ReadableLog() {}

    static void install(Clock clock, PrintStream out, LogLevel level) {
        JsonLog.sink(record -> {
            if (level.logs(record.path("level").asText())) {
                out.println(format(record));
            }
        }, clock);
    }

    static String format(ObjectNode record) {
        StringBuilder line = new StringBuilder();
        String timestamp = record.path("timestamp").asText();
        line.append(timestamp.isEmpty() ? "" : TIME.format(java.time.Instant.parse(timestamp))).append(' ')
                .append(String.format("%-5s", record.path("level").asText())).append(' ')
                .append(record.path("function").asText("-")).append(": ").append(record.path("message").asText());
        for (Iterator<Map.Entry<String, JsonNode>> fields = record.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!HEADLINE.contains(field.getKey())) {
                line.append(' ').append(field.getKey()).append('=').append(field.getValue().asText());
            }
        }
        JsonNode error = record.get("error");
        if (error != null) {
            line.append(System.lineSeparator()).append("    ")
                    .append(error.path("stackTrace").asText().strip().replace("\n", "\n    "));
        }
        return line.toString();
    }
}

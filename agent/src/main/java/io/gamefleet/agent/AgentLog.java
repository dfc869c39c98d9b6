package io.gamefleet.agent;

import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.function.Consumer;

/**
 * The agent's own log: one line per event on stderr (journald keeps it under systemd). Messages carry
 * what processes sent (a GSDK's flavor and version, a state, a refused notice), so every line is made
 * printable here, in one place: line breaks, tabs, ANSI escapes and every other C0 and C1 control
 * character, DEL, the Unicode line and paragraph separators and the bidirectional overrides are
 * escaped ({@code \n}, {@code \u001b}), so a process can neither start a line of its own that reads as
 * the agent's nor recolour or reorder one on a terminal; and a message is cut after
 * {@value #MAX_MESSAGE} characters, so one value cannot flood the journal.
 */
class AgentLog {
    static final int MAX_MESSAGE = 2_000;

    private final Clock clock;
    private final Consumer<String> sink;

    AgentLog(Clock clock, Consumer<String> sink) {
        this.clock = clock;
        this.sink = sink;
    }

    static AgentLog stderr(Clock clock) {
        return new AgentLog(clock, System.err::println);
    }

    void info(String message) {
        sink.accept(clock.instant().truncatedTo(ChronoUnit.MILLIS) + " INFO " + printable(message));
    }

    void warn(String message) {
        sink.accept(clock.instant().truncatedTo(ChronoUnit.MILLIS) + " WARN " + printable(message));
    }

    /** The message on one line, its control characters escaped, cut after {@value #MAX_MESSAGE} characters. */
    static String printable(String message) {
        int length = Math.min(message.length(), MAX_MESSAGE);
        StringBuilder out = new StringBuilder(length + 16);
        for (int i = 0; i < length; i++) {
            char c = message.charAt(i);
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (escaped(c)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        if (message.length() > length) {
            out.append("... (").append(message.length() - length).append(" more characters)");
        }
        return out.toString();
    }

    private static boolean escaped(char c) {
        return c < 0x20 || c >= 0x7f && c <= 0x9f || c == '\u2028' || c == '\u2029'
                || c >= '\u202a' && c <= '\u202e' || c >= '\u2066' && c <= '\u2069';
    }
}

package io.gamefleet.agent;

import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.function.Consumer;

/** The agent's own log: one line per event on stderr (journald keeps it under systemd). */
class AgentLog {
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
        sink.accept(clock.instant().truncatedTo(ChronoUnit.MILLIS) + " INFO " + message);
    }

    void warn(String message) {
        sink.accept(clock.instant().truncatedTo(ChronoUnit.MILLIS) + " WARN " + message);
    }
}

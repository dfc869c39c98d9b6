package io.gamefleet.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A dependency that is down fails every request alike: the log gets one trace, then counts. */
class ErrorLogTest {
    private final List<String> lines = new ArrayList<>();
    private final AtomicLong nanos = new AtomicLong();
    private final ErrorLog log = new ErrorLog((message, error) -> lines.add(error == null ? message
            : message + " " + error + stackOf(error)), Duration.ofMinutes(1), nanos::get);

    private static String stackOf(Throwable error) {
        java.io.StringWriter trace = new java.io.StringWriter();
        error.printStackTrace(new java.io.PrintWriter(trace));
        return trace.toString();
    }

    private static RuntimeException down() {
        return new IllegalStateException("Unable to execute HTTP request: Connection refused");
    }

    @Test
    void theSameErrorIsWrittenOnceAMinuteWithACount() {
        for (int i = 0; i < 1000; i++) {
            log.report("ListGameServerGroups failed unexpectedly", down());
        }
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).contains("Connection refused").contains("\tat ");

        nanos.addAndGet(Duration.ofSeconds(61).toNanos());
        log.report("ListGameServerGroups failed unexpectedly", down());
        assertThat(lines).hasSize(2);
        assertThat(lines.get(1)).contains("Connection refused").contains("999 more times").doesNotContain("\tat ");
    }

    @Test
    void differentErrorsAreEachWritten() {
        log.report("ListGameServerGroups failed unexpectedly", down());
        log.report("DescribeGameServerGroup failed unexpectedly", down());
        log.report("ListGameServerGroups failed unexpectedly", new IllegalStateException("other"));
        assertThat(lines).hasSize(3);
    }
}

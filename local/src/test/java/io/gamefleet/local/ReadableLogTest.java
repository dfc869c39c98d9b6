package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.local.edge.LogLevel;
import io.gamefleet.logging.JsonLog;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The functions log one JSON record per event; the local profile prints the same records for a person. */
class ReadableLogTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2100-01-01T10:20:30.456Z"), ZoneOffset.UTC);

    @AfterEach
    void restoreTheDefaultSink() {
        JsonLog.sink(record -> System.out.println(record.toString()), Clock.systemUTC());
    }

    @Test
    void aRecordCarriesItsInvocationsContextAndAnErrorItsWholeStack() throws Exception {
        List<ObjectNode> records = new ArrayList<>();
        JsonLog.sink(records::add, CLOCK);
        try (JsonLog.Invocation invocation = JsonLog.invocation("req-1", "gamefleet-ClaimGameServer")) {
            JsonLog.with("group", "arena");
            JsonLog.error("ClaimGameServer failed unexpectedly", new IllegalStateException("boom"));
        }
        JsonLog.info("after the invocation");

        ObjectNode error = records.get(0);
        assertThat(error.path("requestId").asText()).isEqualTo("req-1");
        assertThat(error.path("function").asText()).isEqualTo("gamefleet-ClaimGameServer");
        assertThat(error.path("group").asText()).isEqualTo("arena");
        assertThat(error.path("level").asText()).isEqualTo("ERROR");
        assertThat(error.path("timestamp").asText()).isEqualTo("2100-01-01T10:20:30.456Z");
        assertThat(error.at("/error/stackTrace").asText()).contains("IllegalStateException: boom")
                .contains("at io.gamefleet.local.ReadableLogTest");
        // One line of JSON in AWS, whatever the stack.
        assertThat(new ObjectMapper().readTree(error.toString())).isEqualTo(error);
        assertThat(error.toString()).doesNotContain("\n");
        assertThat(records.get(1).has("requestId")).as("the context ends with its invocation").isFalse();
    }

    @Test
    void theLocalProfilePrintsRecordsReadably() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ReadableLog.install(CLOCK, new PrintStream(out, true, StandardCharsets.UTF_8), LogLevel.REQUESTS);
        try (JsonLog.Invocation invocation = JsonLog.invocation(null, "BalancerHandler")) {
            JsonLog.with("group", "arena");
            JsonLog.warn("group arena has no Auto Scaling group");
            JsonLog.error("failed", new IllegalStateException("boom"));
        }
        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(printed).startsWith("10:20:30.456 WARN  BalancerHandler: group arena has no Auto Scaling group group=arena");
        assertThat(printed).contains("ERROR BalancerHandler: failed group=arena" + System.lineSeparator()
                + "    java.lang.IllegalStateException: boom");
    }

    @Test
    void atTheErrorsLevelOnlyWarningsAndErrorsArePrinted() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ReadableLog.install(CLOCK, new PrintStream(out, true, StandardCharsets.UTF_8), LogLevel.ERRORS);
        JsonLog.info("balanced group arena");
        JsonLog.warn("group arena has no Auto Scaling group");
        JsonLog.error("failed", new IllegalStateException("boom"));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(printed).doesNotContain("balanced").contains("WARN ").contains("ERROR ");
    }

    @Test
    void atTheErrorsLevelTheAgentsInfoLinesAreLeftOut() {
        List<String> shown = new ArrayList<>();
        java.util.function.Consumer<String> lines = Main.agentLines(LogLevel.ERRORS, shown::add);
        lines.accept("agent: 2100-01-01T10:20:30.456Z INFO gs-1 registered");
        lines.accept("agent: 2100-01-01T10:20:30.456Z WARN gs-1 exited 127");
        lines.accept("agent: agent host: the agent of i-1 cannot start: boom");
        assertThat(shown).containsExactly("agent: 2100-01-01T10:20:30.456Z WARN gs-1 exited 127",
                "agent: agent host: the agent of i-1 cannot start: boom");
        List<String> all = new ArrayList<>();
        Main.agentLines(LogLevel.REQUESTS, all::add).accept("agent: 2100-01-01T10:20:30.456Z INFO gs-1 registered");
        assertThat(all).hasSize(1);
    }
}

package io.gamefleet.adapters.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.domain.Metrics.GameServerCounts;
import io.gamefleet.domain.Metrics.ProcessCounts;
import io.gamefleet.domain.ProcessEvents;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The embedded-metric-format lines CloudWatch turns into FleetIQ's metrics. */
class EmfMetricsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<String> lines = new ArrayList<>();
    private final EmfMetrics metrics = new EmfMetrics(
            Clock.fixed(Instant.parse("2026-11-29T12:00:00Z"), ZoneOffset.UTC), lines::add);

    @Test
    void groupGaugesCarryTheirValuesUnderTheGroupDimension() throws Exception {
        metrics.gameServers("arena", new GameServerCounts(6, 2, 1, 1));
        JsonNode line = JSON.readTree(lines.get(0));
        JsonNode directive = line.get("_aws").get("CloudWatchMetrics").get(0);
        assertThat(line.get("_aws").get("Timestamp").asLong()).isEqualTo(1795953600000L);
        assertThat(directive.get("Namespace").asText()).isEqualTo("Gamefleet");
        assertThat(directive.get("Dimensions").toString()).isEqualTo("[[\"GameServerGroup\"]]");
        assertThat(directive.get("Metrics").findValuesAsText("Name")).containsExactly("AvailableGameServers",
                "UtilizedGameServers", "DrainingAvailableGameServers", "DrainingUtilizedGameServers",
                "PercentUtilizedGameServers");
        assertThat(line.get("GameServerGroup").asText()).isEqualTo("arena");
        assertThat(line.get("AvailableGameServers").asDouble()).isEqualTo(6);
        assertThat(line.get("UtilizedGameServers").asDouble()).isEqualTo(2);
        assertThat(line.get("PercentUtilizedGameServers").asDouble()).isEqualTo(25);
    }

    @Test
    void anInterruptionCountsTheInstanceAndItsGameServersByType() throws Exception {
        metrics.interruption("arena", "c4.large", 7);
        JsonNode line = JSON.readTree(lines.get(0));
        assertThat(line.get("_aws").get("CloudWatchMetrics").get(0).get("Dimensions").toString())
                .isEqualTo("[[\"GameServerGroup\",\"InstanceType\"]]");
        assertThat(line.get("InstanceType").asText()).isEqualTo("c4.large");
        assertThat(line.get("InstanceInterruptions").asDouble()).isEqualTo(1);
        assertThat(line.get("GameServerInterruptions").asDouble()).isEqualTo(7);
    }

    @Test
    void anUndeliveredNoticeCountsPerStageAndPerStageAndGroup() throws Exception {
        new EmfMetrics(Clock.systemUTC(), lines::add, "prod").undeliveredNotice("arena", "claimed");
        JsonNode line = JSON.readTree(lines.get(0));
        assertThat(line.get("_aws").get("CloudWatchMetrics").get(0).get("Dimensions").toString())
                .isEqualTo("[[\"Stage\"],[\"Stage\",\"GameServerGroup\"]]");
        assertThat(line.get("Stage").asText()).isEqualTo("prod");
        assertThat(line.get("GameServerGroup").asText()).isEqualTo("arena");
        assertThat(line.get("Notice").asText()).isEqualTo("claimed");
        assertThat(line.get("UndeliveredNotices").asDouble()).isEqualTo(1);
    }

    @Test
    void theProcessGaugesArePerGroup() throws Exception {
        metrics.processes("arena", new ProcessCounts(1, 4, 6, 2, 31));
        JsonNode line = JSON.readTree(lines.get(0));
        JsonNode directive = line.get("_aws").get("CloudWatchMetrics").get(0);
        assertThat(directive.get("Dimensions").toString()).isEqualTo("[[\"GameServerGroup\"]]");
        assertThat(directive.get("Metrics").findValuesAsText("Name")).containsExactly("InitializingGameServers",
                "StandingByGameServers", "ActiveGameServers", "TerminatingGameServers", "ConnectedPlayers");
        assertThat(line.get("StandingByGameServers").asDouble()).isEqualTo(4);
        assertThat(line.get("ActiveGameServers").asDouble()).isEqualTo(6);
        assertThat(line.get("ConnectedPlayers").asDouble()).isEqualTo(31);
    }

    @Test
    void crashesAndStartTimeoutsCountPerStageAndPerStageAndGroup() throws Exception {
        new EmfMetrics(Clock.systemUTC(), lines::add, "prod").processEvents("arena", new ProcessEvents(3, 1));
        JsonNode line = JSON.readTree(lines.get(0));
        assertThat(line.get("_aws").get("CloudWatchMetrics").get(0).get("Dimensions").toString())
                .isEqualTo("[[\"Stage\"],[\"Stage\",\"GameServerGroup\"]]");
        assertThat(line.get("Stage").asText()).isEqualTo("prod");
        assertThat(line.get("CrashedProcesses").asDouble()).isEqualTo(3);
        assertThat(line.get("StartTimeouts").asDouble()).isEqualTo(1);
    }

    @Test
    void anEmptyGroupIsZeroPercentUtilized() {
        assertThat(new GameServerCounts(0, 0, 0, 0).percentUtilized()).isZero();
    }
}

package io.gamefleet.adapters.metrics;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Catalog;
import io.gamefleet.catalog.Settings;
import io.gamefleet.domain.Metrics;
import io.gamefleet.domain.ProcessEvents;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * FleetIQ's metrics, and Gamefleet's own of the agents' processes, as CloudWatch embedded-metric-format
 * log lines: Lambda's log stream turns each line into metrics in {@link Catalog#METRICS_NAMESPACE},
 * with no PutMetricData call.
 */
public final class EmfMetrics implements Metrics {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Clock clock;
    private final Consumer<String> sink;
    private final String stage;

    /** The metrics of the default stage ({@link Settings#STAGE}'s, the local profile's). */
    public EmfMetrics(Clock clock, Consumer<String> sink) {
        this(clock, sink, Settings.STAGE.defaultValue());
    }

    /** {@code stage} is the dimension the stage-wide metrics (the undelivered notices) are alarmed on. */
    public EmfMetrics(Clock clock, Consumer<String> sink, String stage) {
        this.clock = clock;
        this.sink = sink;
        this.stage = stage;
    }

    @Override
    public void gameServers(String group, GameServerCounts counts) {
        emit(Map.of("GameServerGroup", group), List.of(
                new Value(Catalog.AVAILABLE_GAME_SERVERS, "Count", counts.available()),
                new Value(Catalog.UTILIZED_GAME_SERVERS, "Count", counts.utilized()),
                new Value(Catalog.DRAINING_AVAILABLE_GAME_SERVERS, "Count", counts.drainingAvailable()),
                new Value(Catalog.DRAINING_UTILIZED_GAME_SERVERS, "Count", counts.drainingUtilized()),
                new Value(Catalog.PERCENT_UTILIZED_GAME_SERVERS, "Percent", counts.percentUtilized())));
    }

    @Override
    public void interruption(String group, String instanceType, int gameServers) {
        emit(Map.of("GameServerGroup", group, "InstanceType", instanceType), List.of(
                new Value(Catalog.INSTANCE_INTERRUPTIONS, "Count", 1),
                new Value(Catalog.GAME_SERVER_INTERRUPTIONS, "Count", gameServers)));
    }

    /** Per stage (what the alarm sums) and per stage and group; the notice kind is a property of the line. */
    @Override
    public void undeliveredNotice(String group, String notice) {
        ObjectNode line = emit(Map.of(Catalog.STAGE_DIMENSION, stage, "GameServerGroup", group),
                List.of(List.of(Catalog.STAGE_DIMENSION), List.of(Catalog.STAGE_DIMENSION, "GameServerGroup")),
                List.of(new Value(Catalog.UNDELIVERED_NOTICES, "Count", 1)));
        line.put("Notice", notice);
        sink.accept(line.toString());
    }

    @Override
    public void processes(String group, ProcessCounts counts) {
        emit(Map.of("GameServerGroup", group), List.of(
                new Value(Catalog.INITIALIZING_GAME_SERVERS, "Count", counts.initializing()),
                new Value(Catalog.STANDING_BY_GAME_SERVERS, "Count", counts.standingBy()),
                new Value(Catalog.ACTIVE_GAME_SERVERS, "Count", counts.active()),
                new Value(Catalog.TERMINATING_GAME_SERVERS, "Count", counts.terminating()),
                new Value(Catalog.CONNECTED_PLAYERS, "Count", counts.connectedPlayers())));
    }

    /** Per stage (what the crash-loop alarm sums) and per stage and group, as the undelivered notices. */
    @Override
    public void processEvents(String group, ProcessEvents events) {
        sink.accept(emit(Map.of(Catalog.STAGE_DIMENSION, stage, "GameServerGroup", group),
                List.of(List.of(Catalog.STAGE_DIMENSION), List.of(Catalog.STAGE_DIMENSION, "GameServerGroup")),
                List.of(new Value(Catalog.CRASHED_PROCESSES, "Count", events.crashes()),
                        new Value(Catalog.START_TIMEOUTS, "Count", events.startTimeouts()))).toString());
    }

    private record Value(String name, String unit, double value) {}

    private void emit(Map<String, String> dimensions, List<Value> values) {
        sink.accept(emit(dimensions, List.of(dimensions.keySet().stream().sorted().toList()), values).toString());
    }

    private ObjectNode emit(Map<String, String> dimensions, List<List<String>> dimensionSets, List<Value> values) {
        ObjectNode line = JSON.createObjectNode();
        ObjectNode aws = line.putObject("_aws");
        aws.put("Timestamp", clock.millis());
        ObjectNode directive = aws.putArray("CloudWatchMetrics").addObject();
        directive.put("Namespace", Catalog.METRICS_NAMESPACE);
        ArrayNode sets = directive.putArray("Dimensions");
        for (List<String> set : dimensionSets) {
            ArrayNode names = sets.addArray();
            set.forEach(names::add);
        }
        ArrayNode metrics = directive.putArray("Metrics");
        for (Value v : values) {
            metrics.addObject().put("Name", v.name()).put("Unit", v.unit());
            line.put(v.name(), v.value());
        }
        dimensions.forEach(line::put);
        return line;
    }
}

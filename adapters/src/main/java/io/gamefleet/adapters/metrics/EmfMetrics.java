package io.gamefleet.adapters.metrics;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Catalog;
import io.gamefleet.domain.Metrics;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * FleetIQ's metrics as CloudWatch embedded-metric-format log lines: Lambda's log stream turns
 * each line into metrics in {@link Catalog#METRICS_NAMESPACE}, with no PutMetricData call.
 */
public final class EmfMetrics implements Metrics {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Clock clock;
    private final Consumer<String> sink;

    public EmfMetrics(Clock clock, Consumer<String> sink) {
        this.clock = clock;
        this.sink = sink;
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

    private record Value(String name, String unit, double value) {}

    private void emit(Map<String, String> dimensions, List<Value> values) {
        ObjectNode line = JSON.createObjectNode();
        ObjectNode aws = line.putObject("_aws");
        aws.put("Timestamp", clock.millis());
        ObjectNode directive = aws.putArray("CloudWatchMetrics").addObject();
        directive.put("Namespace", Catalog.METRICS_NAMESPACE);
        ArrayNode dimensionSet = directive.putArray("Dimensions").addArray();
        dimensions.keySet().stream().sorted().forEach(dimensionSet::add);
        ArrayNode metrics = directive.putArray("Metrics");
        for (Value v : values) {
            metrics.addObject().put("Name", v.name()).put("Unit", v.unit());
            line.put(v.name(), v.value());
        }
        dimensions.forEach(line::put);
        sink.accept(line.toString());
    }
}

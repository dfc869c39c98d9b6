package io.gamefleet.adapters.cloudwatch;

import io.gamefleet.catalog.Catalog;
import io.gamefleet.domain.MetricsHistory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataResponse;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataQuery;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataResult;
import software.amazon.awssdk.services.cloudwatch.model.ScanBy;

/**
 * The groups' FleetIQ metrics read back from CloudWatch, as the balancer's EMF lines put them
 * ({@link Catalog#METRICS_NAMESPACE}, dimension {@code GameServerGroup}): one GetMetricData of
 * three metrics (the average of each period), pages followed; a time some metric has no value at
 * is left out.
 */
public final class CloudWatchMetricsHistory implements MetricsHistory {
    static final String DIMENSION = "GameServerGroup";
    private static final String AVAILABLE = "available";
    private static final String UTILIZED = "utilized";
    private static final String PERCENT = "percent";

    private final CloudWatchClient cloudWatch;

    public CloudWatchMetricsHistory(CloudWatchClient cloudWatch) {
        this.cloudWatch = cloudWatch;
    }

    @Override
    public List<CountsAt> gameServers(String group, Instant from, Instant to, Duration period) {
        List<MetricDataQuery> queries = List.of(query(AVAILABLE, Catalog.AVAILABLE_GAME_SERVERS, group, period),
                query(UTILIZED, Catalog.UTILIZED_GAME_SERVERS, group, period),
                query(PERCENT, Catalog.PERCENT_UTILIZED_GAME_SERVERS, group, period));
        Map<Instant, double[]> byTime = new TreeMap<>();
        Optional<String> token = Optional.empty();
        do {
            String next = token.orElse(null);
            GetMetricDataResponse page = cloudWatch.getMetricData(r -> r.metricDataQueries(queries)
                    .startTime(from).endTime(to).scanBy(ScanBy.TIMESTAMP_ASCENDING).nextToken(next));
            for (MetricDataResult result : page.metricDataResults()) {
                int at = switch (result.id()) {
                    case AVAILABLE -> 0;
                    case UTILIZED -> 1;
                    default -> 2;
                };
                for (int i = 0; i < result.timestamps().size(); i++) {
                    double[] values = byTime.computeIfAbsent(result.timestamps().get(i),
                            t -> new double[] {Double.NaN, Double.NaN, Double.NaN});
                    values[at] = result.values().get(i);
                }
            }
            token = Optional.ofNullable(page.nextToken());
        } while (token.isPresent());
        List<CountsAt> points = new ArrayList<>();
        byTime.forEach((time, v) -> {
            if (!Double.isNaN(v[0]) && !Double.isNaN(v[1]) && !Double.isNaN(v[2])) {
                points.add(new CountsAt(time, v[0], v[1], v[2]));
            }
        });
        return points;
    }

    private static MetricDataQuery query(String id, String metric, String group, Duration period) {
        return MetricDataQuery.builder().id(id).returnData(true)
                .metricStat(s -> s.stat("Average").period((int) period.toSeconds())
                        .metric(m -> m.namespace(Catalog.METRICS_NAMESPACE).metricName(metric)
                                .dimensions(d -> d.name(DIMENSION).value(group))))
                .build();
    }
}

package io.gamefleet.adapters.cloudwatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.Catalog;
import io.gamefleet.domain.MetricsHistory.CountsAt;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataRequest;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataResponse;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataQuery;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataResult;
import software.amazon.awssdk.services.cloudwatch.model.ScanBy;

/** GetMetricData as CloudWatch answers it: what is asked, and how its series make points. */
class CloudWatchMetricsHistoryTest {
    private static final Instant T0 = Instant.parse("2100-01-01T00:00:00Z");

    private final List<GetMetricDataRequest> asked = new ArrayList<>();

    /** A client whose GetMetricData answers the pages given, in order; every other call fails. */
    @SuppressWarnings("unchecked")
    private CloudWatchClient answering(GetMetricDataResponse... pages) {
        int[] next = {0};
        return (CloudWatchClient) Proxy.newProxyInstance(CloudWatchClient.class.getClassLoader(),
                new Class<?>[] {CloudWatchClient.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("getMetricData") || args == null) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    GetMetricDataRequest request = args[0] instanceof Consumer<?> c
                            ? build((Consumer<GetMetricDataRequest.Builder>) c) : (GetMetricDataRequest) args[0];
                    asked.add(request);
                    return pages[next[0]++];
                });
    }

    private static GetMetricDataRequest build(Consumer<GetMetricDataRequest.Builder> c) {
        GetMetricDataRequest.Builder b = GetMetricDataRequest.builder();
        c.accept(b);
        return b.build();
    }

    private static MetricDataResult result(String id, List<Instant> times, List<Double> values) {
        return MetricDataResult.builder().id(id).timestamps(times).values(values).build();
    }

    @Test
    void asksForTheGroupsThreeMetricsByPeriodAndJoinsThemByTimeAcrossPages() {
        Instant t1 = T0.plusSeconds(60);
        Instant t2 = T0.plusSeconds(120);
        Instant t3 = T0.plusSeconds(180);
        CloudWatchClient client = answering(
                GetMetricDataResponse.builder().nextToken("more").metricDataResults(
                        result("available", List.of(t1, t2), List.of(30.0, 28.0)),
                        result("utilized", List.of(t1), List.of(10.0)),
                        result("percent", List.of(t1), List.of(25.0))).build(),
                GetMetricDataResponse.builder().metricDataResults(
                        result("utilized", List.of(t2, t3), List.of(12.0, 14.0)),
                        result("percent", List.of(t2, t3), List.of(30.0, 35.0))).build());

        List<CountsAt> points = new CloudWatchMetricsHistory(client).gameServers("arena", T0, T0.plusSeconds(3600),
                Duration.ofMinutes(1));

        // t3 lacks its available count: left out rather than drawn as zero.
        assertThat(points).containsExactly(new CountsAt(t1, 30, 10, 25), new CountsAt(t2, 28, 12, 30));
        assertThat(asked).hasSize(2);
        GetMetricDataRequest first = asked.get(0);
        assertThat(first.startTime()).isEqualTo(T0);
        assertThat(first.endTime()).isEqualTo(T0.plusSeconds(3600));
        assertThat(first.scanBy()).isEqualTo(ScanBy.TIMESTAMP_ASCENDING);
        assertThat(first.nextToken()).isNull();
        assertThat(asked.get(1).nextToken()).isEqualTo("more");
        assertThat(first.metricDataQueries()).extracting(q -> q.metricStat().metric().metricName())
                .containsExactly(Catalog.AVAILABLE_GAME_SERVERS, Catalog.UTILIZED_GAME_SERVERS,
                        Catalog.PERCENT_UTILIZED_GAME_SERVERS);
        for (MetricDataQuery q : first.metricDataQueries()) {
            assertThat(q.metricStat().period()).isEqualTo(60);
            assertThat(q.metricStat().stat()).isEqualTo("Average");
            assertThat(q.metricStat().metric().namespace()).isEqualTo(Catalog.METRICS_NAMESPACE);
            assertThat(q.metricStat().metric().dimensions()).singleElement()
                    .satisfies(d -> assertThat(d.name() + "=" + d.value()).isEqualTo("GameServerGroup=arena"));
        }
    }
}

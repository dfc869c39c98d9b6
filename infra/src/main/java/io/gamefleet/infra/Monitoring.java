package io.gamefleet.infra;

import io.gamefleet.catalog.Catalog;
import io.gamefleet.catalog.IndexDefinition;
import io.gamefleet.catalog.TableDefinition;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.apigatewayv2.HttpApi;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.AlarmStatusWidget;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.Dashboard;
import software.amazon.awscdk.services.cloudwatch.GraphWidget;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.IWidget;
import software.amazon.awscdk.services.cloudwatch.MathExpression;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.cloudwatch.TextWidget;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.cloudwatch.actions.SnsAction;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.sns.Topic;
import software.amazon.awscdk.services.sns.subscriptions.EmailSubscription;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.constructs.Construct;

/**
 * Alarms and the dashboard. Every alarm notifies one SNS topic (encrypted with its own key, which
 * CloudWatch may use; subscribe to it, or pass context {@code alarmEmail}).
 *
 * <p>Function errors and throttles are alarmed per function, not aggregated: the alarm's name says
 * which operation, step or trigger fails, which is the first thing an operator needs; an
 * aggregate over all functions would need metric math over more than the ten metrics a
 * CloudWatch alarm may use, and the account-wide Lambda metrics would count other applications'
 * functions. API handlers answer unexpected failures with a 500 rather than fail, so the API's
 * 5xx count has its own alarm. DynamoDB throttling is alarmed per table, over the table and its
 * indexes (claims read the Claimable index, so its throttles matter most).
 */
final class Monitoring extends Construct {
    static final Duration PERIOD = Duration.minutes(5);

    private final StageNames names;
    private final Topic topic;
    private final List<Alarm> alarms = new ArrayList<>();

    Monitoring(Construct scope, String id, Optional<String> alarmEmail, StageNames names) {
        super(scope, id);
        this.names = names;
        Key key = Key.Builder.create(this, "AlarmTopicKey")
                .description("Encrypts the Gamefleet alarm topic; CloudWatch alarms may publish to it")
                .enableKeyRotation(true)
                .removalPolicy(RemovalPolicy.DESTROY)
                .pendingWindow(Duration.days(7))
                .build();
        key.grant(new ServicePrincipal("cloudwatch.amazonaws.com"), "kms:Decrypt", "kms:GenerateDataKey*");
        topic = Topic.Builder.create(this, "AlarmTopic")
                .displayName("Gamefleet alarms")
                .masterKey(key)
                .enforceSsl(true)
                .build();
        alarmEmail.ifPresent(email -> topic.addSubscription(new EmailSubscription(email)));
    }

    Topic topic() {
        return topic;
    }

    void functionAlarms(Map<String, Function> functions) {
        functions.forEach((name, fn) -> {
            alarm(name + "Errors", names.of(name) + "-Errors",
                    "Function " + name + " failed (an exception, a timeout or a crash) at least once in 5 minutes",
                    fn.metricErrors(sum()));
            alarm(name + "Throttles", names.of(name) + "-Throttles",
                    "Lambda throttled function " + name + " at least once in 5 minutes (account concurrency exhausted?)",
                    fn.metricThrottles(sum()));
        });
    }

    void apiAlarm(HttpApi api) {
        alarm("Api5xx", names.prefix() + "Api-5xx",
                "The Gamefleet API answered with a 5xx status at least once in 5 minutes "
                        + "(InternalServiceException, or a function that timed out or failed)",
                api.metricServerError(sum()));
    }

    void stateMachineAlarm(String name, StateMachine stateMachine) {
        alarm(name + "Failed", names.of(name) + "-ExecutionsFailed",
                "An execution of " + name + " failed (the workflow itself, not a step that RecordFailure caught)",
                stateMachine.metricFailed(sum()));
    }

    void tableAlarm(TableDefinition definition, Table table) {
        Map<String, IMetric> metrics = new LinkedHashMap<>();
        for (String name : List.of("ReadThrottleEvents", "WriteThrottleEvents")) {
            metrics.put("t" + metrics.size(), table.metric(name, sum()));
            for (IndexDefinition index : definition.indexes()) {
                metrics.put("t" + metrics.size(), Metric.Builder.create()
                        .namespace("AWS/DynamoDB").metricName(name)
                        .dimensionsMap(Map.of("TableName", table.getTableName(), "GlobalSecondaryIndexName", index.name()))
                        .statistic("Sum").period(PERIOD).build());
            }
        }
        if (metrics.size() > 10) {
            throw new IllegalStateException("table " + definition.logicalName() + " has too many indexes for one "
                    + "throttle alarm (CloudWatch alarms take at most 10 metrics)");
        }
        alarm(definition.logicalName() + "Throttles", names.prefix() + definition.logicalName() + "-Throttles",
                "DynamoDB throttled requests to table " + definition.logicalName() + " or its indexes in 5 minutes",
                MathExpression.Builder.create()
                        .expression("SUM([" + String.join(",", metrics.keySet()) + "])")
                        .usingMetrics(metrics)
                        .label(definition.logicalName() + " throttled requests")
                        .period(PERIOD)
                        .build());
    }

    void dashboard(String name, HttpApi api, Collection<Function> functions, Collection<StateMachine> stateMachines,
            Collection<Table> tables) {
        Dashboard dashboard = Dashboard.Builder.create(this, "Dashboard").dashboardName(name).build();
        dashboard.addWidgets(TextWidget.Builder.create().width(24).height(2).markdown(
                "# Gamefleet\nFleetIQ metrics per game server group (namespace `" + Catalog.METRICS_NAMESPACE
                        + "`, published by the balancer every run and by the instance event handler), then the API, "
                        + "the functions, the workflows and the tables.").build());
        List<IWidget> fleetiq = new ArrayList<>();
        for (String metric : Catalog.GAME_SERVER_GAUGES) {
            fleetiq.add(graph(metric, search(metric, "Average", Duration.minutes(1))));
        }
        for (String metric : Catalog.INTERRUPTION_COUNTS) {
            fleetiq.add(graph(metric, search(metric, "Sum", PERIOD)));
        }
        dashboard.addWidgets(fleetiq.toArray(IWidget[]::new));
        dashboard.addWidgets(
                graph("API requests and errors", api.metricCount(sum()), api.metricClientError(sum()),
                        api.metricServerError(sum())),
                graph("API latency p99 (ms)", api.metricLatency(MetricOptions.builder().statistic("p99").period(PERIOD)
                        .build())),
                graph("Workflow executions failed", stateMachines.stream()
                        .map(sm -> (IMetric) sm.metricFailed(sum())).toArray(IMetric[]::new)));
        dashboard.addWidgets(
                graph("Function errors", functions.stream().map(fn -> (IMetric) fn.metricErrors(sum()))
                        .toArray(IMetric[]::new)),
                graph("Function throttles", functions.stream().map(fn -> (IMetric) fn.metricThrottles(sum()))
                        .toArray(IMetric[]::new)),
                graph("DynamoDB consumed capacity", tables.stream()
                        .flatMap(t -> List.<IMetric>of(t.metricConsumedReadCapacityUnits(sum()),
                                t.metricConsumedWriteCapacityUnits(sum())).stream())
                        .toArray(IMetric[]::new)));
        dashboard.addWidgets(AlarmStatusWidget.Builder.create().title("Alarms").width(24)
                .height(2 + alarms.size() / 4).alarms(List.copyOf(alarms)).build());
    }

    private static MetricOptions sum() {
        return MetricOptions.builder().statistic("Sum").period(PERIOD).build();
    }

    /** Every series of a FleetIQ metric: one per group (per group and instance type for interruptions). */
    private static IMetric search(String metric, String statistic, Duration period) {
        return MathExpression.Builder.create()
                .expression("SEARCH('Namespace=\"" + Catalog.METRICS_NAMESPACE + "\" MetricName=\"" + metric
                        + "\"', '" + statistic + "', " + period.toSeconds().longValue() + ")")
                .usingMetrics(Map.of())
                .label("")
                .period(period)
                .build();
    }

    private static GraphWidget graph(String title, IMetric... metrics) {
        return GraphWidget.Builder.create().title(title).width(8).height(6).left(List.of(metrics)).build();
    }

    private void alarm(String id, String name, String description, IMetric metric) {
        Alarm alarm = Alarm.Builder.create(this, id)
                .alarmName(name)
                .alarmDescription(description)
                .metric(metric)
                .threshold(1)
                .evaluationPeriods(1)
                .comparisonOperator(ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD)
                .treatMissingData(TreatMissingData.NOT_BREACHING)
                .build();
        alarm.addAlarmAction(new SnsAction(topic));
        alarms.add(alarm);
    }
}

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
import software.amazon.awscdk.services.apigatewayv2.WebSocketStage;
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
import software.amazon.awscdk.services.logs.FilterPattern;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.MetricFilter;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sns.Topic;
import software.amazon.awscdk.services.sns.subscriptions.EmailSubscription;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.constructs.Construct;

/**
 * Alarms and the dashboard. Every alarm notifies one SNS topic (encrypted with its own key, which
 * CloudWatch may use; subscribe to it, or pass context {@code alarmEmail}).
 *
 * <p>Alarms page for outcomes, over several periods where one bad minute is noise: the API's 5xx,
 * an abnormal 4xx rate and 429s; the push channel's failures, refusals and undelivered notices; a
 * crash loop of the agents' game server processes; a workflow execution that failed (its group may be stuck); a
 * balancer that stopped completing runs; an event or scheduled run that ended in the failed-events
 * queue; DynamoDB throttling per table (indexes included). A function's errors and throttles show
 * through those outcomes (an API function's as 5xx, a step's as a failed execution, the event
 * handler's in the queue) and on the dashboard, not as one alarm per function.
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

    /**
     * The API's own health: 5xx answers (a handler's unexpected failure, a timeout, a function
     * Lambda could not run), a 4xx rate well above normal (a broken client or an attack), and 429s
     * (the throttles are too small for the fleet: raise expectedGameServers or claimsPerSecond).
     */
    void apiAlarms(HttpApi api, LogGroup accessLogs) {
        alarm("Api5xx", names.prefix() + "Api-5xx", "The Gamefleet API answered 5 or more 5xx in 5 minutes, twice "
                + "within 15 minutes (InternalServiceException, or a function that timed out or failed)",
                api.metricServerError(sum()), 5, 2, 3, TreatMissingData.NOT_BREACHING);
        alarm("Api4xxRate", names.prefix() + "Api-4xx-Rate", "More than a quarter of the API's requests were refused "
                + "(4xx) for 15 minutes, with at least 100 requests in each 5 minutes",
                MathExpression.Builder.create()
                        .expression("IF(requests >= 100, 100 * refused / requests, 0)")
                        .usingMetrics(Map.of("refused", api.metricClientError(sum()), "requests", api.metricCount(sum())))
                        .label("refused requests (%)").period(PERIOD).build(),
                25, 3, 3, TreatMissingData.NOT_BREACHING);
        MetricFilter throttled = MetricFilter.Builder.create(this, "ApiThrottledFilter")
                .logGroup(accessLogs)
                .filterPattern(FilterPattern.stringValue("$.status", "=", "429"))
                .metricNamespace(Catalog.METRICS_NAMESPACE)
                .metricName(names.prefix() + "ApiThrottledRequests")
                .metricValue("1")
                .defaultValue(0)
                .build();
        alarm("Api429", names.prefix() + "Api-429", "20 or more requests were refused 429 in 5 minutes, twice within 15"
                + " minutes: the per-route limits are below the fleet's load, or an instance (the access log's caller)"
                + " floods past its fair share",
                throttled.metric(sum()), 20, 2, 3, TreatMissingData.NOT_BREACHING);
    }

    /**
     * The push channel's health: its functions' failures, a refusal rate well above normal (ClientError before
     * the integration, such as IAM denials and throttles, and IntegrationError, the functions' 4xx
     * and 5xx answers; a few 404s while a new instance is not yet recorded are normal), and the
     * notices that reached no agent (their claims lapse by themselves, after their TTL).
     *
     * <p>The failures: a route's handler catches its faults and answers 500, which API Gateway
     * counts as IntegrationError (the integration's 4xx and 5xx answers), not as ExecutionError
     * (a function that could not be called: not invocable, crashed, timed out); the alarm watches
     * both. IntegrationError holds the handlers' refusals too (a 404 while a new instance is not yet
     * recorded), a few at a time, below the alarm's threshold.
     */
    void pushAlarms(WebSocketStage stage) {
        MetricOptions options = sum();
        alarm("PushErrors", names.prefix() + "Push-Errors", "The push channel's functions failed 5 or more times in "
                + "5 minutes, twice within 15 minutes (API Gateway IntegrationError, the functions' 500s and 4xx, "
                + "plus ExecutionError, functions that could not be called): agents may not connect",
                MathExpression.Builder.create().expression("integration + execution")
                        .usingMetrics(Map.of("integration", stage.metric("IntegrationError", options),
                                "execution", stage.metric("ExecutionError", options)))
                        .label("failed connects and messages").period(PERIOD).build(),
                5, 2, 3, TreatMissingData.NOT_BREACHING);
        alarm("PushRefusedRate", names.prefix() + "Push-Refused-Rate", "More than a quarter of the push channel's "
                + "connects and messages were refused (ClientError or IntegrationError) for 15 minutes, with at least "
                + "100 in each 5 minutes",
                MathExpression.Builder.create()
                        .expression("IF(requests >= 100, 100 * (client + integration) / requests, 0)")
                        .usingMetrics(Map.of("client", stage.metric("ClientError", options),
                                "integration", stage.metric("IntegrationError", options),
                                "requests", MathExpression.Builder.create().expression("connects + messages")
                                        .usingMetrics(Map.of("connects", stage.metric("ConnectCount", options),
                                                "messages", stage.metric("MessageCount", options)))
                                        .period(PERIOD).build()))
                        .label("refused connects and messages (%)").period(PERIOD).build(),
                25, 3, 3, TreatMissingData.NOT_BREACHING);
        alarm("UndeliveredNotices", names.prefix() + "Push-UndeliveredNotices", "10 or more claimed, terminate or retiring "
                + "notices reached no agent in 5 minutes, twice within 15 minutes: agents are not connected or the "
                + "management API failed (a claim whose notice is dropped lapses after its TTL)",
                undeliveredNotices(), 10, 2, 3, TreatMissingData.NOT_BREACHING);
    }

    /**
     * A crash loop: {@code crashes} or more crashed processes, as the agents report them, within
     * {@code minutes}, the stage over (the metric per group says which).
     */
    void crashLoopAlarm(DeploymentContext.CrashLoop loop) {
        alarm("CrashLoop", names.prefix() + "Processes-CrashLoop", loop.crashes() + " or more game server processes"
                + " crashed within " + loop.minutes() + " minutes (the agents' reports, metric "
                + Catalog.CRASHED_PROCESSES + "; per GameServerGroup beside): a build that does not start, or a"
                + " crash loop on some instances",
                Metric.Builder.create().namespace(Catalog.METRICS_NAMESPACE).metricName(Catalog.CRASHED_PROCESSES)
                        .dimensionsMap(Map.of(Catalog.STAGE_DIMENSION, names.stage()))
                        .statistic("Sum").period(Duration.minutes(loop.minutes())).build(),
                loop.crashes(), 1, 1, TreatMissingData.NOT_BREACHING);
    }

    /** The stage's notices that reached no agent (the functions' EMF, see Catalog.UNDELIVERED_NOTICES). */
    private IMetric undeliveredNotices() {
        return Metric.Builder.create().namespace(Catalog.METRICS_NAMESPACE).metricName(Catalog.UNDELIVERED_NOTICES)
                .dimensionsMap(Map.of(Catalog.STAGE_DIMENSION, names.stage()))
                .statistic("Sum").period(PERIOD).build();
    }

    /**
     * The balancer completes a run every period: invocations that did not fail. Three periods
     * without one (the schedule stopped, or every run fails) is an alarm; no data is as bad.
     */
    void balancerAlarm(Function balancer, long periodMinutes) {
        Duration period = Duration.minutes(periodMinutes);
        MetricOptions options = MetricOptions.builder().statistic("Sum").period(period).build();
        alarm("BalancerNotRunning", names.prefix() + "Balancer-NotRunning", "The balancer has not completed a run for "
                + "three periods: Spot balancing, protection, the health sweep and the metrics have stopped",
                MathExpression.Builder.create()
                        .expression("FILL(runs, 0) - FILL(failed, 0)")
                        .usingMetrics(Map.of("runs", balancer.metricInvocations(options), "failed",
                                balancer.metricErrors(options)))
                        .label("completed balancer runs").period(period).build(),
                1, 3, 3, TreatMissingData.BREACHING, ComparisonOperator.LESS_THAN_THRESHOLD);
    }

    /** Any event that could not be delivered or handled, or a scheduled run that could not be invoked. */
    void failedEventsAlarm(Queue failedEvents) {
        alarm("FailedEvents", names.prefix() + "FailedEvents", "An EC2 event or a scheduled run could not be "
                + "delivered or handled and waits in queue " + "FailedEvents" + " (kept 14 days): look at it, then "
                + "redrive or delete it",
                failedEvents.metricApproximateNumberOfMessagesVisible(MetricOptions.builder().statistic("Maximum")
                        .period(PERIOD).build()), 1, 1, 1, TreatMissingData.NOT_BREACHING);
    }

    void stateMachineAlarm(String name, StateMachine stateMachine) {
        alarm(name + "Failed", names.of(name) + "-ExecutionsFailed",
                "An execution of " + name + " failed (the workflow itself, not a step that RecordFailure caught): "
                        + "its group may be left in a transitional status",
                stateMachine.metricFailed(sum()), 1, 1, 1, TreatMissingData.NOT_BREACHING);
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
                "DynamoDB throttled requests to table " + definition.logicalName() + " or its indexes in two of three "
                        + "5-minute periods",
                MathExpression.Builder.create()
                        .expression("SUM([" + String.join(",", metrics.keySet()) + "])")
                        .usingMetrics(metrics)
                        .label(definition.logicalName() + " throttled requests")
                        .period(PERIOD)
                        .build(), 1, 2, 3, TreatMissingData.NOT_BREACHING);
    }

    void dashboard(String name, HttpApi api, WebSocketStage push, Collection<Function> functions,
            Collection<StateMachine> stateMachines, Collection<Table> tables) {
        Dashboard dashboard = Dashboard.Builder.create(this, "Dashboard").dashboardName(name).build();
        dashboard.addWidgets(TextWidget.Builder.create().width(24).height(2).markdown(
                "# Gamefleet\nFleetIQ metrics per game server group (namespace `" + Catalog.METRICS_NAMESPACE
                        + "`, published by the balancer every run and by the instance event handler), the agents' "
                        + "processes (the balancer's gauges, the push channel's crash counts), then the API, "
                        + "the functions, the workflows and the tables.").build());
        List<IWidget> fleetiq = new ArrayList<>();
        for (String metric : Catalog.GAME_SERVER_GAUGES) {
            fleetiq.add(graph(metric, search(metric, "Average", Duration.minutes(1))));
        }
        for (String metric : Catalog.INTERRUPTION_COUNTS) {
            fleetiq.add(graph(metric, search(metric, "Sum", PERIOD)));
        }
        dashboard.addWidgets(fleetiq.toArray(IWidget[]::new));
        List<IWidget> processes = new ArrayList<>();
        for (String metric : Catalog.PROCESS_GAUGES) {
            processes.add(graph(metric, search(metric, "Average", Duration.minutes(1))));
        }
        for (String metric : Catalog.PROCESS_EVENT_COUNTS) {
            processes.add(graph(metric, search(metric, "Sum", PERIOD)));
        }
        dashboard.addWidgets(processes.toArray(IWidget[]::new));
        dashboard.addWidgets(
                graph("API requests and errors", api.metricCount(sum()), api.metricClientError(sum()),
                        api.metricServerError(sum())),
                graph("API latency p99 (ms)", api.metricLatency(MetricOptions.builder().statistic("p99").period(PERIOD)
                        .build())),
                graph("Workflow executions failed", stateMachines.stream()
                        .map(sm -> (IMetric) sm.metricFailed(sum())).toArray(IMetric[]::new)));
        dashboard.addWidgets(
                graph("Push channel connects and messages", push.metric("ConnectCount", sum()),
                        push.metric("MessageCount", sum())),
                graph("Push channel errors", push.metric("ClientError", sum()), push.metric("IntegrationError", sum()),
                        push.metric("ExecutionError", sum())),
                graph("Undelivered notices", undeliveredNotices()));
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

    /** Alarms when {@code datapoints} of the last {@code periods} periods reach the threshold. */
    private void alarm(String id, String name, String description, IMetric metric, double threshold, int datapoints,
            int periods, TreatMissingData missing) {
        alarm(id, name, description, metric, threshold, datapoints, periods, missing,
                ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD);
    }

    private void alarm(String id, String name, String description, IMetric metric, double threshold, int datapoints,
            int periods, TreatMissingData missing, ComparisonOperator comparison) {
        Alarm alarm = Alarm.Builder.create(this, id)
                .alarmName(name)
                .alarmDescription(description)
                .metric(metric)
                .threshold(threshold)
                .datapointsToAlarm(datapoints)
                .evaluationPeriods(periods)
                .comparisonOperator(comparison)
                .treatMissingData(missing)
                .build();
        alarm.addAlarmAction(new SnsAction(topic));
        alarms.add(alarm);
    }
}

package io.gamefleet.infra;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.catalog.EventRule;
import io.gamefleet.catalog.Triggers;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.events.CfnRule;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.lambda.EventInvokeConfigOptions;
import software.amazon.awscdk.services.lambda.destinations.SqsDestination;
import software.amazon.awscdk.services.lambda.Permission;
import software.amazon.awscdk.services.scheduler.Schedule;
import software.amazon.awscdk.services.scheduler.ScheduleExpression;
import software.amazon.awscdk.services.scheduler.targets.LambdaInvoke;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sqs.QueueEncryption;
import software.constructs.Construct;

/**
 * What invokes the functions that no caller does, from {@link Triggers}: an EventBridge Scheduler
 * schedule per schedule (the balancer) and an EventBridge rule per event rule (EC2's instance events).
 * Nothing is lost silently: an event that EventBridge cannot deliver, or that the function still
 * fails after Lambda's retries, and a scheduled run that cannot be invoked, land in one encrypted
 * queue, which has an alarm.
 */
final class EventTriggers extends Construct {
    /** How long an undelivered event waits in the queue for an operator (SQS's longest). */
    static final Duration FAILED_EVENT_RETENTION = Duration.days(14);

    private final StageNames names;
    private final Queue failedEvents;

    private static final ObjectMapper JSON = new ObjectMapper();

    EventTriggers(Construct scope, String id, Functions functions, DeploymentContext context) {
        super(scope, id);
        this.names = context.names();
        failedEvents = Queue.Builder.create(this, "FailedEvents")
                .encryption(QueueEncryption.SQS_MANAGED)
                .enforceSsl(true)
                .retentionPeriod(FAILED_EVENT_RETENTION)
                .build();
        NagRules.failedEventsQueue(failedEvents);
        for (io.gamefleet.catalog.Schedule schedule : Triggers.SCHEDULES) {
            schedule(schedule, context.scheduleMinutes(schedule), functions.alias(schedule.functionName()));
        }
        for (EventRule rule : Triggers.EVENT_RULES) {
            eventRule(rule, functions.alias(rule.functionName()));
        }
    }

    private void schedule(io.gamefleet.catalog.Schedule schedule, long minutes, Alias target) {
        Schedule.Builder.create(this, schedule.name() + "Schedule")
                .scheduleName(names.of(schedule.functionName()))
                .description("Runs " + schedule.functionName() + " every " + minutes + " minute(s) ("
                        + DeploymentContext.contextKey(schedule.rate()) + " rounded up to whole minutes)")
                .schedule(ScheduleExpression.rate(Duration.minutes(minutes)))
                .target(LambdaInvoke.Builder.create(target)
                        // Missed runs are not made up: the next run does the same work.
                        .retryAttempts(0)
                        .maxEventAge(Duration.minutes(1))
                        .deadLetterQueue(failedEvents)
                        .build())
                .build();
    }

    /** The pattern is the catalog's JSON, parsed as is (the local profile's event router reads the same text). */
    private void eventRule(EventRule rule, Alias target) {
        Map<String, Object> pattern;
        try {
            pattern = JSON.readValue(rule.pattern(), new TypeReference<Map<String, Object>>() {});
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the event pattern of " + rule.name() + " is not JSON", e);
        }
        CfnRule cfnRule = CfnRule.Builder.create(this, rule.name() + "Rule")
                .name(names.of(rule.functionName()))
                .description("Routes the catalog's events to " + rule.functionName())
                .state("ENABLED")
                .eventPattern(pattern)
                .targets(List.of(CfnRule.TargetProperty.builder().id(rule.name()).arn(target.getFunctionArn())
                        .deadLetterConfig(CfnRule.DeadLetterConfigProperty.builder().arn(failedEvents.getQueueArn()).build())
                        .build()))
                .build();
        failedEvents.addToResourcePolicy(PolicyStatement.Builder.create()
                .sid(rule.name() + "Undelivered")
                .principals(List.of(new ServicePrincipal("events.amazonaws.com")))
                .actions(List.of("sqs:SendMessage"))
                .resources(List.of(failedEvents.getQueueArn()))
                .conditions(Map.of("ArnEquals", Map.of("aws:SourceArn", cfnRule.getAttrArn())))
                .build());
        // Lambda retries a failed asynchronous invocation twice, then hands the event here.
        target.configureAsyncInvoke(EventInvokeConfigOptions.builder()
                .onFailure(new SqsDestination(failedEvents))
                .build());
        target.addPermission(rule.name() + "Events", Permission.builder()
                .principal(new ServicePrincipal("events.amazonaws.com"))
                .sourceArn(cfnRule.getAttrArn())
                .sourceAccount(Stack.of(this).getAccount())
                .build());
    }

    Queue failedEvents() {
        return failedEvents;
    }
}

package io.gamefleet.catalog;

import java.util.List;

/** The balancer's schedule and the EC2 and ECS event rules, once, for the CDK app and the local profile. */
public final class Triggers {
    private static final String BALANCING = "io.gamefleet.triggers.";

    /** Every ACTIVE group: spot balancing, instance protection, health sweep, metrics. */
    public static final Schedule BALANCER = new Schedule("RunBalancer", BALANCING + "BalancerHandler",
            Settings.BALANCER_RATE_SECONDS);

    /**
     * The member of a balancer's event that names one group: then the function only evaluates that
     * group's standby buffer ({@link Settings#STANDBY_FUNCTION}); the schedule's events have none.
     */
    public static final String STANDBY_GROUP_MEMBER = "GameServerGroupName";

    /**
     * Spot interruption warnings, and instances shutting down or terminated. EC2 events carry no
     * tags, so the rule takes them from every instance of the account and the function picks
     * Gamefleet's; leaving out the other state changes (pending, running, stopping...) spares most
     * of the invocations an account with other EC2 churn would cause.
     */
    public static final EventRule INSTANCE_EVENTS = new EventRule("HandleInstanceEvent", """
            {"source": ["aws.ec2"],
             "$or": [
               {"detail-type": ["EC2 Spot Instance Interruption Warning"]},
               {"detail-type": ["EC2 Instance State-change Notification"],
                "detail": {"state": ["shutting-down", "terminated"]}}]}""",
            BALANCING + "InstanceEventHandler");

    /**
     * ECS task state changes of tasks being stopped or stopped (a Fargate Spot interruption, any
     * stop ECS makes of a running task): a container group's task is an instance, so these take
     * the EC2 events' path. The rule takes them from every cluster of the account, as EC2's does,
     * and the function picks the stage's container services' tasks.
     */
    public static final EventRule TASK_EVENTS = new EventRule("HandleTaskEvent", """
            {"source": ["aws.ecs"],
             "detail-type": ["ECS Task State Change"],
             "detail": {"desiredStatus": ["STOPPED"]}}""",
            BALANCING + "TaskEventHandler");

    public static final List<Schedule> SCHEDULES = List.of(BALANCER);
    public static final List<EventRule> EVENT_RULES = List.of(INSTANCE_EVENTS, TASK_EVENTS);

    private Triggers() {}
}

package io.gamefleet.catalog;

import java.util.List;

/** The balancer's schedule and the EC2 and ECS event rule, once, for the CDK app and the local profile. */
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
     * Spot interruption warnings, and instances shutting down or terminated; and ECS task state
     * changes of tasks being stopped or stopped, a container group's task being an instance (a
     * Fargate Spot interruption, any stop ECS makes of a running task). Neither EC2's nor ECS's
     * events carry the groups' tags, so the rule takes them from every instance and cluster of the
     * account and the function picks Gamefleet's; leaving out the other state changes (pending,
     * running, stopping...) spares most of the invocations an account with other churn would cause.
     */
    public static final EventRule INSTANCE_EVENTS = new EventRule("HandleInstanceEvent", """
            {"$or": [
               {"source": ["aws.ec2"], "detail-type": ["EC2 Spot Instance Interruption Warning"]},
               {"source": ["aws.ec2"], "detail-type": ["EC2 Instance State-change Notification"],
                "detail": {"state": ["shutting-down", "terminated"]}},
               {"source": ["aws.ecs"], "detail-type": ["ECS Task State Change"],
                "detail": {"desiredStatus": ["STOPPED"]}}]}""",
            BALANCING + "InstanceEventHandler");

    public static final List<Schedule> SCHEDULES = List.of(BALANCER);
    public static final List<EventRule> EVENT_RULES = List.of(INSTANCE_EVENTS);

    private Triggers() {}
}

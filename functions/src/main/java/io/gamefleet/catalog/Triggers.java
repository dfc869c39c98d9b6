package io.gamefleet.catalog;

import java.util.List;

/** The balancer's schedule and the EC2 event rule, once, for the CDK app and the local profile. */
public final class Triggers {
    private static final String BALANCING = "io.gamefleet.balancing.";

    /** Every ACTIVE group: spot balancing, instance protection, health sweep, metrics. */
    public static final Schedule BALANCER = new Schedule("RunBalancer", BALANCING + "BalancerHandler",
            Settings.BALANCER_RATE_SECONDS);

    /** Spot interruption warnings and instance state changes of the instances Gamefleet manages. */
    public static final EventRule INSTANCE_EVENTS = new EventRule("HandleInstanceEvent", """
            {"source": ["aws.ec2"],
             "detail-type": ["EC2 Spot Instance Interruption Warning", "EC2 Instance State-change Notification"]}""",
            BALANCING + "InstanceEventHandler");

    public static final List<Schedule> SCHEDULES = List.of(BALANCER);
    public static final List<EventRule> EVENT_RULES = List.of(INSTANCE_EVENTS);

    private Triggers() {}
}

package io.gamefleet.triggers;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.Triggers;
import io.gamefleet.catalog.Workflows;
import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.InstanceDefinition;
import io.gamefleet.domain.InterruptionRepository.Interruption;
import io.gamefleet.domain.LaunchTemplate;
import java.util.List;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.wiring.TestServices;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The EC2 event handler's reading of EventBridge events, and the balancer's report. */
class TriggersTest {
    private static final String I0 = "i-0123456789abcdef0";
    private final TestServices t = new TestServices();
    private final FunctionRegistry functions = new FunctionRegistry(t.services);

    private Map<String, Object> event(String type, Map<String, Object> detail, Object time) {
        Map<String, Object> event = new HashMap<>();
        event.put("detail-type", type);
        event.put("detail", detail);
        event.put("time", time);
        return functions.eventRule(Triggers.INSTANCE_EVENTS).handleRequest(event, null);
    }

    private void instance() {
        t.instances.save(new GameServerInstance("arena", I0, InstanceStatus.ACTIVE, "c5.large", "us-east-1a",
                Instant.parse("2099-12-31T00:00:00Z")));
    }

    @Test
    void aSpotWarningMarksTheInstanceAndRecordsTheInterruptionAtTheEventsTime() {
        instance();
        assertThat(event("EC2 Spot Instance Interruption Warning", Map.of("instance-id", I0), "2100-01-01T00:00:30Z"))
                .isEqualTo(Map.of("Handled", true));
        assertThat(t.instances.findById(I0).orElseThrow().instanceStatus()).isEqualTo(InstanceStatus.SPOT_TERMINATING);
        assertThat(t.metrics.interruptions()).hasSize(1);
        assertThat(t.interruptions.since("arena", Instant.EPOCH)).singleElement()
                .satisfies(i -> assertThat(i.at()).isEqualTo(Instant.parse("2100-01-01T00:00:30Z")));
        assertThat(event("EC2 Spot Instance Interruption Warning", Map.of("instance-id", "i-00000000000000000"),
                "2100-01-01T00:00:00Z")).isEqualTo(Map.of("Handled", false));
    }

    @Test
    void anUnreadableTimeIsNoReasonToDropTheWarning() {
        instance();
        assertThat(event("EC2 Spot Instance Interruption Warning", Map.of("instance-id", I0), "yesterday"))
                .isEqualTo(Map.of("Handled", true));
        assertThat(t.interruptions.since("arena", Instant.EPOCH)).singleElement()
                .satisfies(i -> assertThat(i.at()).isEqualTo(t.clock.instant()));
        assertThat(t.instances.findById(I0).orElseThrow().instanceStatus()).isEqualTo(InstanceStatus.SPOT_TERMINATING);
    }

    @Test
    void onlyTheTerminalStatesEndAnInstance() {
        instance();
        assertThat(event("EC2 Instance State-change Notification", Map.of("instance-id", I0, "state", "stopping"), null))
                .isEqualTo(Map.of("Handled", false));
        assertThat(t.instances.findById(I0)).isPresent();
        assertThat(event("EC2 Instance State-change Notification", Map.of("instance-id", I0, "state", "shutting-down"), null))
                .isEqualTo(Map.of("Handled", true));
        assertThat(t.instances.findById(I0)).isEmpty();
        instance();
        assertThat(event("EC2 Instance State-change Notification", Map.of("instance-id", I0, "state", "terminated"), null))
                .isEqualTo(Map.of("Handled", true));
        assertThat(t.instances.findById(I0)).isEmpty();
    }

    @Test
    void otherEventsAreNotHandled() {
        instance();
        assertThat(event("EC2 Instance Rebalance Recommendation", Map.of("instance-id", I0), null))
                .isEqualTo(Map.of("Handled", false));
        assertThat(event("EC2 Spot Instance Interruption Warning", Map.of("instance", I0), null))
                .isEqualTo(Map.of("Handled", false));
        assertThat(event("EC2 Spot Instance Interruption Warning", Map.of("instance-id", 7), null))
                .isEqualTo(Map.of("Handled", false));
        Map<String, Object> noDetail = new HashMap<>(Map.of("detail-type", "EC2 Spot Instance Interruption Warning",
                "detail", "i-0123456789abcdef0"));
        assertThat(functions.eventRule(Triggers.INSTANCE_EVENTS).handleRequest(noDetail, null))
                .isEqualTo(Map.of("Handled", false));
        assertThat(t.instances.findById(I0).orElseThrow().instanceStatus()).isEqualTo(InstanceStatus.ACTIVE);
    }

    @Test
    void aBalancerRunReportsTheInstancesItDrainedAndTerminated() {
        Map<String, Object> name = Map.of("GameServerGroupName", "arena");
        t.services.groups().create(GameServerGroup.builder().name("arena").roleArn("arn:aws:iam::123456789012:role/r")
                .minSize(0).maxSize(4).launchTemplate(new LaunchTemplate(null, "lt", null))
                .instanceDefinitions(List.of(new InstanceDefinition("c5.large", null), new InstanceDefinition("m5.large", null)))
                .build());
        functions.step(Workflows.START_ACTIVATION).handleRequest(name, null);
        functions.step(Workflows.CREATE_SCALING_GROUP).handleRequest(name, null);
        String asg = t.services.settings().autoScalingGroupName("arena");
        t.compute.addInstance(asg, new ComputeInstance(I0, "c5.large", "us-east-1a", true, false),
                Instant.parse("2099-12-31T00:00:00Z"));
        t.compute.addInstance(asg, new ComputeInstance("i-0123456789abcdef1", "m5.large", "us-east-1a", true, false),
                Instant.parse("2099-12-31T00:00:00Z"));
        functions.step(Workflows.CHECK_ACTIVATION).handleRequest(name, null);
        functions.step(Workflows.COMPLETE_ACTIVATION).handleRequest(name, null);
        t.interruptions.record(new Interruption("arena", "i-0000000000000000a", "c5.large", t.clock.instant()),
                t.clock.instant().plusSeconds(7200));
        t.interruptions.record(new Interruption("arena", "i-0000000000000000b", "c5.large", t.clock.instant()),
                t.clock.instant().plusSeconds(7200));

        // Two interruptions of c5.large: that type is not viable, so its instance drains, and then goes.
        assertThat(functions.schedule(Triggers.BALANCER).handleRequest(Map.of(), null))
                .containsAllEntriesOf(Map.of("Groups", 1, "Swept", 0, "Drained", 1, "Terminated", 0));
        t.clock.advance(java.time.Duration.ofMinutes(1));
        assertThat(functions.schedule(Triggers.BALANCER).handleRequest(Map.of(), null))
                .containsAllEntriesOf(Map.of("Groups", 1, "Swept", 0, "Drained", 0, "Terminated", 1));
        assertThat(t.log).contains("balancer: terminated draining instance " + I0 + " of group arena");
    }

    @Test
    void aBalancerRunOverNoGroupReportsZeros() {
        assertThat(functions.schedule(Triggers.BALANCER).handleRequest(Map.of(), null))
                .isEqualTo(Map.of("Groups", 0, "Swept", 0, "Drained", 0, "Retired", 0, "Terminated", 0,
                        "WorkflowsRestarted", 0, "GroupsFailedByReconciliation", 0));
    }

    /** A claim's standby request: the one group's buffer evaluated, nothing else of a run. */
    @Test
    void anEventNamingAGroupOnlyEvaluatesItsStandbyBuffer() {
        GameServerGroup arena = GameServerGroup.builder().name("arena").arn(t.services.settings().groupArn("arena"))
                .status(io.gamefleet.domain.GameServerGroupStatus.ACTIVE).minSize(0).maxSize(8)
                .creationTime(t.clock.instant()).lastUpdatedTime(t.clock.instant()).build();
        t.groups.create(arena);
        String asg = t.services.settings().autoScalingGroupName("arena");
        t.compute.putScalingGroup(asg, new io.gamefleet.domain.Compute.ScalingGroupState(0, 0, 8, List.of(), false,
                List.of()));
        t.services.standby().put("arena", new io.gamefleet.domain.StandbyPolicy(
                io.gamefleet.domain.StandbyPolicy.Buffer.count(3), List.of(), java.time.Duration.ZERO, List.of(),
                java.time.Duration.ZERO));

        Map<String, Object> answer = functions.schedule(Triggers.BALANCER)
                .handleRequest(Map.of(Triggers.STANDBY_GROUP_MEMBER, "arena"), null);

        // No server registered yet: one instance, to measure servers per instance on.
        assertThat(answer).isEqualTo(Map.of("Group", "arena", "DesiredCapacity", 1));
        assertThat(t.compute.scalingGroup(asg).orElseThrow().desiredCapacity()).isEqualTo(1);
        assertThat(functions.schedule(Triggers.BALANCER).handleRequest(Map.of(Triggers.STANDBY_GROUP_MEMBER, "none"),
                null)).isEqualTo(Map.of("Group", "none"));
        assertThat(t.log).contains("standby: group arena raised to 1 instances for its buffer of 3 servers");
    }
}

package io.gamefleet.triggers;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.Triggers;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.wiring.TestServices;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ECS task state changes, routed to the instance events' function, read as the EC2 events of the task's instance id. */
class TaskStateChangesTest {
    private static final String TASK_ID = "0123456789abcdef0123456789abcdef";
    private static final String TASK_ARN = "arn:aws:ecs:us-east-1:000000000000:task/gamefleet-local/" + TASK_ID;
    private static final String INSTANCE = "i-0123456789abcdef0";
    private final TestServices t = new TestServices();
    private final FunctionRegistry functions = new FunctionRegistry(t.services);
    private final String service = "service:" + t.services.settings().containerServiceName("arena");

    private Map<String, Object> event(String group, String lastStatus, String desiredStatus, Object stoppingAt) {
        return event(group, lastStatus, desiredStatus, stoppingAt, "SpotInterruption");
    }

    private Map<String, Object> event(String group, String lastStatus, String desiredStatus, Object stoppingAt,
            String stopCode) {
        Map<String, Object> detail = new HashMap<>();
        detail.put("taskArn", TASK_ARN);
        detail.put("group", group);
        detail.put("lastStatus", lastStatus);
        detail.put("desiredStatus", desiredStatus);
        detail.put("stopCode", stopCode);
        detail.put("stoppingAt", stoppingAt);
        Map<String, Object> event = new HashMap<>();
        event.put("source", "aws.ecs");
        event.put("detail-type", "ECS Task State Change");
        event.put("time", "2100-01-01T00:00:40Z");
        event.put("detail", detail);
        return functions.eventRule(Triggers.INSTANCE_EVENTS).handleRequest(event, null);
    }

    private void task() {
        t.instances.save(new GameServerInstance("arena", INSTANCE, InstanceStatus.ACTIVE, "FARGATE_SPOT", "us-east-1a",
                Instant.parse("2099-12-31T00:00:00Z")));
    }

    @Test
    void aRunningTaskBeingStoppedIsASpotWarningAtItsStoppingTime() {
        task();
        assertThat(event(service, "RUNNING", "STOPPED", "2100-01-01T00:00:30Z")).isEqualTo(Map.of("Handled", true));
        assertThat(t.instances.findById(INSTANCE).orElseThrow().instanceStatus()).isEqualTo(InstanceStatus.SPOT_TERMINATING);
        assertThat(t.interruptions.since("arena", Instant.EPOCH)).singleElement().satisfies(i -> {
            assertThat(i.at()).isEqualTo(Instant.parse("2100-01-01T00:00:30Z"));
            assertThat(i.instanceType()).isEqualTo("FARGATE_SPOT");
        });
    }

    @Test
    void anyOtherStopOfARunningTaskTakesItOutOfClaimsWithoutCountingAnInterruption() {
        // Its game's end (the sidecar exits), a deployment of a new capacity provider strategy, and an event without a code.
        for (String stopCode : new String[] {"EssentialContainerExited", "ServiceSchedulerInitiated", null}) {
            task();
            assertThat(event(service, "RUNNING", "STOPPED", "2100-01-01T00:00:30Z", stopCode)).as("%s", stopCode)
                    .isEqualTo(Map.of("Handled", true));
            assertThat(t.instances.findById(INSTANCE).orElseThrow().instanceStatus()).isEqualTo(InstanceStatus.SPOT_TERMINATING);
            t.instances.delete("arena", INSTANCE);
        }
        assertThat(t.interruptions.since("arena", Instant.EPOCH)).as("Fargate Spot's viability untouched").isEmpty();
    }

    @Test
    void withoutAStoppingTimeTheEventsTimeIsTheWarningsAndAStoppedTaskIsForgotten() {
        task();
        assertThat(event(service, "DEPROVISIONING", "STOPPED", null)).isEqualTo(Map.of("Handled", true));
        assertThat(t.interruptions.since("arena", Instant.EPOCH)).singleElement()
                .satisfies(i -> assertThat(i.at()).isEqualTo(Instant.parse("2100-01-01T00:00:40Z")));

        assertThat(event(service, "STOPPED", "STOPPED", null)).isEqualTo(Map.of("Handled", true));
        assertThat(t.instances.findById(INSTANCE)).isEmpty();
    }

    @Test
    void tasksOfNoContainerServiceOrOfNoGroupAndOtherEventsAreNotHandled() {
        task();
        assertThat(event("service:someone-elses", "RUNNING", "STOPPED", null)).isEqualTo(Map.of("Handled", false));
        assertThat(event("service:gamefleet-prod_tasks_arena", "RUNNING", "STOPPED", null)).as("another stage's")
                .isEqualTo(Map.of("Handled", false));
        assertThat(event("family:game", "RUNNING", "STOPPED", null)).isEqualTo(Map.of("Handled", false));
        assertThat(event(service, "RUNNING", "RUNNING", null)).isEqualTo(Map.of("Handled", false));
        assertThat(t.instances.findById(INSTANCE).orElseThrow().instanceStatus()).isEqualTo(InstanceStatus.ACTIVE);

        t.instances.delete("arena", INSTANCE);
        assertThat(event(service, "RUNNING", "STOPPED", null)).isEqualTo(Map.of("Handled", false));
        Map<String, Object> notATask = new HashMap<>(Map.of("detail-type", "ECS Task State Change",
                "detail", Map.of("taskArn", "arn:aws:ecs:task/x/not-hex", "group", service, "desiredStatus", "STOPPED")));
        assertThat(functions.eventRule(Triggers.INSTANCE_EVENTS).handleRequest(notATask, null)).isEqualTo(Map.of("Handled", false));
        assertThat(t.interruptions.since("arena", Instant.EPOCH)).isEmpty();
    }
}

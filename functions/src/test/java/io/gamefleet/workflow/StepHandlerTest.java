package io.gamefleet.workflow;

import io.gamefleet.wiring.CallerRole;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Workflows;
import io.gamefleet.domain.Compute;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.InstanceDefinition;
import io.gamefleet.domain.LaunchTemplate;
import io.gamefleet.domain.ServiceSettings;
import io.gamefleet.domain.fakes.FakeCompute;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.wiring.Services;
import io.gamefleet.wiring.TestServices;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.RetryableException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;

/** How a workflow step's failure reaches Step Functions: retried (transient) or sent to RecordFailure. */
class StepHandlerTest {
    private final TestServices t = new TestServices();
    private final FunctionRegistry functions = new FunctionRegistry(t.services);

    private Map<String, Object> run(io.gamefleet.catalog.WorkflowStep step, Map<String, Object> input) {
        return functions.step(step).handleRequest(input, null);
    }

    private void newGroup(String name) {
        t.services.groups().create(GameServerGroup.builder().name(name).roleArn("arn:aws:iam::123456789012:role/r")
                .minSize(0).maxSize(2).launchTemplate(new LaunchTemplate(null, "lt", null))
                .instanceDefinitions(List.of(new InstanceDefinition("c5.large", null), new InstanceDefinition("m5.large", null)))
                .build());
    }

    @Test
    void anInputWithoutAGroupNameFails() {
        assertThatThrownBy(() -> run(Workflows.START_ACTIVATION, Map.of())).isInstanceOf(StepFailedException.class)
                .hasMessage("the workflow input has no GameServerGroupName");
        assertThatThrownBy(() -> run(Workflows.START_ACTIVATION, Map.of("GameServerGroupName", 7)))
                .isInstanceOf(StepFailedException.class);
    }

    @Test
    void aRefusedStepFailsWithTheReason() {
        assertThatThrownBy(() -> run(Workflows.CREATE_SCALING_GROUP, Map.of("GameServerGroupName", "nobody")))
                .isInstanceOf(StepFailedException.class).hasMessage("game server group nobody no longer exists");
        newGroup("arena");
        assertThatThrownBy(() -> run(Workflows.START_DELETING, Map.of("GameServerGroupName", "arena")))
                .isInstanceOf(StepFailedException.class).hasMessageContaining("is NEW where");
    }

    @Test
    void aComputeFailureIsRetriedOnlyWhenItIsRetryable() {
        newGroup("arena");
        run(Workflows.START_ACTIVATION, Map.of("GameServerGroupName", "arena"));
        t.compute.failNext(FakeCompute.CREATE_SCALING_GROUP, true);
        assertThatThrownBy(() -> run(Workflows.CREATE_SCALING_GROUP, Map.of("GameServerGroupName", "arena")))
                .isInstanceOf(TransientStepException.class).hasMessage("FakeCompute was told to fail createScalingGroup");
        t.compute.failNext(FakeCompute.CREATE_SCALING_GROUP, false);
        assertThatThrownBy(() -> run(Workflows.CREATE_SCALING_GROUP, Map.of("GameServerGroupName", "arena")))
                .isInstanceOf(StepFailedException.class).hasMessage("FakeCompute was told to fail createScalingGroup");
        assertThat(run(Workflows.CREATE_SCALING_GROUP, Map.of("GameServerGroupName", "arena")))
                .containsOnlyKeys("AutoScalingGroupArn");
    }

    @Test
    void anSdkFailureIsRetriedWhenRetryableAndOtherwisePassedOn() {
        SdkException retryable = RetryableException.builder().message("throttled").build();
        assertThatThrownBy(() -> createScalingGroupFailingWith(retryable)).isInstanceOf(TransientStepException.class)
                .hasMessage("throttled").hasCause(retryable);
        SdkException fatal = SdkClientException.create("bad request");
        assertThatThrownBy(() -> createScalingGroupFailingWith(fatal)).isSameAs(fatal);
    }

    private Map<String, Object> createScalingGroupFailingWith(SdkException failure) {
        Compute failing = (Compute) Proxy.newProxyInstance(Compute.class.getClassLoader(), new Class<?>[] {Compute.class},
                (proxy, method, args) -> {
                    throw failure;
                });
        Map<Role, CallerRole> roles = new EnumMap<>(Role.class);
        ServiceSettings settings = t.services.settings();
        Services services = new Services(new Services.Ports(t.groups, t.servers, t.sessions, t.standby, t.instances, t.interruptions,
                () -> failing, () -> t.metrics, t.workflows, () -> t.templates, () -> t.notifier,
                t.standbyRequested::add, io.gamefleet.domain.PeerRegions.NONE, t.summaries,
                () -> t.metricsHistory, () -> t.taskDefinitions),
                new Services.Config(settings, "k", Duration.ofHours(1), 0.2, Duration.ofMinutes(1), roles, java.util.Set.of()), t.clock, t.log::add);
        if (t.groups.find("arena").isEmpty()) {
            newGroup("arena");
            run(Workflows.START_ACTIVATION, Map.of("GameServerGroupName", "arena"));
        }
        return new CreateScalingGroupStep(services).handleRequest(new HashMap<>(Map.of("GameServerGroupName", "arena")),
                null);
    }

    @Test
    void recordFailurePutsTheGroupInErrorWithTheStepsMessage() {
        newGroup("arena");
        Map<String, Object> input = Map.of("GameServerGroupName", "arena", "Workflow", "ACTIVATION",
                "Error", "States.Timeout", "Cause", "{\"errorMessage\": \"took too long\"}");
        assertThat(run(Workflows.RECORD_FAILURE, input)).isEqualTo(Map.of("Recorded", true));
        GameServerGroup group = t.groups.find("arena").orElseThrow();
        assertThat(group.status()).isEqualTo(GameServerGroupStatus.ERROR);
        assertThat(group.statusReason()).isEqualTo("workflow step failed with States.Timeout: took too long");
        assertThat(run(Workflows.RECORD_FAILURE, input)).isEqualTo(Map.of("Recorded", false));
        assertThat(LocalAccount.REGION).isEqualTo(t.services.settings().region());
    }

    @Test
    void theReasonIsTheCausesMessage() {
        assertThat(RecordFailureStep.reason("io.gamefleet.workflow.StepFailedException",
                "{\"errorMessage\": \"no instance\", \"errorType\": \"x\"}")).isEqualTo("no instance");
        assertThat(RecordFailureStep.reason("io.gamefleet.workflow.StepFailedException", "plain words"))
                .isEqualTo("plain words");
        assertThat(RecordFailureStep.reason("io.gamefleet.X", "{\"errorType\": \"x\"}")).isEqualTo("{\"errorType\": \"x\"}");
        assertThat(RecordFailureStep.reason("io.gamefleet.X", "{\"errorMessage\": null}"))
                .isEqualTo("{\"errorMessage\": null}");
        assertThat(RecordFailureStep.reason("io.gamefleet.X", "null")).isEqualTo("null");
        assertThat(RecordFailureStep.reason("Lambda.Unknown", "gone")).isEqualTo("workflow step failed with Lambda.Unknown: gone");
    }

    @Test
    void aLongReasonIsCutTo1024Characters() {
        String exact = "x".repeat(1024);
        assertThat(RecordFailureStep.reason("io.gamefleet.X", exact)).isEqualTo(exact);
        String cut = RecordFailureStep.reason("io.gamefleet.X", exact + "y");
        assertThat(cut).hasSize(1024).endsWith("x…").startsWith("xxx");
    }
}

package io.gamefleet.adapters.stepfunctions;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.GameServerGroup;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;
import software.amazon.awssdk.services.sfn.model.StartExecutionRequest;
import software.amazon.awssdk.services.sfn.model.StartExecutionResponse;

/** The StartExecution requests of the group workflows: which state machine, the execution's name, the input. */
class StepFunctionsWorkflowStarterTest {
    private static final Instant AT = Instant.parse("2100-01-01T00:00:00.123Z");
    private final List<StartExecutionRequest> started = new ArrayList<>();
    private boolean alreadyExists;

    private final SfnClient sfn = new SfnClient() {
        @Override
        public StartExecutionResponse startExecution(StartExecutionRequest request) {
            started.add(request);
            if (alreadyExists) {
                throw ExecutionAlreadyExistsException.builder().message("exists").build();
            }
            return StartExecutionResponse.builder().executionArn("arn:execution").build();
        }

        @Override
        public String serviceName() {
            return SERVICE_NAME;
        }

        @Override
        public void close() {}
    };

    private final StepFunctionsWorkflowStarter starter = new StepFunctionsWorkflowStarter(() -> sfn, "arn:activate",
            "arn:delete");

    private static GameServerGroup group(String name) {
        return GameServerGroup.builder().name(name).lastUpdatedTime(AT).build();
    }

    @Test
    void eachWorkflowStartsItsStateMachineWithTheGroupAsInput() {
        starter.startActivation(group("arena.eu"));
        starter.startDeletion(group("arena.eu"));

        assertThat(started).extracting(StartExecutionRequest::stateMachineArn).containsExactly("arn:activate", "arn:delete");
        assertThat(started).extracting(StartExecutionRequest::input)
                .containsOnly("{\"GameServerGroupName\":\"arena.eu\"}");
        assertThat(started.get(0).name()).matches("activate-4102444800123-[0-9a-f]{8}-arena_eu");
        assertThat(started.get(1).name()).matches("delete-4102444800123-[0-9a-f]{8}-arena_eu");
    }

    @Test
    void aNameIsCutTo80Characters() {
        String fits = "g".repeat(48); // "activate-" + 13 digits + "-" + 8 + "-" is 32 characters
        starter.startActivation(group(fits));
        assertThat(started.get(0).name()).hasSize(80).endsWith("-" + fits);

        starter.startActivation(group(fits + "xyz"));
        assertThat(started.get(1).name()).hasSize(80).endsWith("-" + fits);
    }

    @Test
    void anExecutionThatAlreadyExistsIsStarted() {
        alreadyExists = true;
        starter.startDeletion(group("arena"));
        assertThat(started).hasSize(1);
    }
}

package io.gamefleet.adapters.stepfunctions;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.GameServerGroup;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;
import software.amazon.awssdk.services.sfn.model.StartExecutionRequest;
import software.amazon.awssdk.services.sfn.model.StartExecutionResponse;

/**
 * The StartExecution requests of the group workflows (which state machine, the execution's name, the
 * input), and the key of its group that each execution name carries for reconciliation.
 */
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
    void aNameFits80CharactersAndEndsWithItsGroupsKey() {
        String fits = "g".repeat(48); // "activate-" + 13 digits + "-" + 8 + "-" is 32 characters
        starter.startActivation(group(fits));
        assertThat(started.get(0).name()).hasSize(80).endsWith("-" + fits);

        starter.startActivation(group(fits + "xyz"));
        assertThat(started.get(1).name()).hasSizeLessThanOrEqualTo(80)
                .endsWith("-" + StepFunctionsWorkflowStarter.groupKey(fits + "xyz"))
                .isNotEqualTo(started.get(0).name().replace(fits, ""));
    }

    @Test
    void anExecutionThatAlreadyExistsIsStarted() {
        alreadyExists = true;
        starter.startDeletion(group("arena"));
        assertThat(started).hasSize(1);
    }

    @Test
    void everyGroupNameHasItsOwnKeyThatFitsAnExecutionName() {
        String long128 = "g".repeat(120) + "-1234567";
        List<String> names = List.of("a", "arena-1", "arena.eu.1", "arena_eu_1".replace('_', '-'), "x".repeat(48),
                "x".repeat(49), "x".repeat(50), long128, long128.substring(0, 127) + "8", "a.b", "a-b");
        Set<String> keys = new HashSet<>();
        for (String name : names) {
            String key = StepFunctionsWorkflowStarter.groupKey(name);
            assertThat(keys.add(key)).as(name).isTrue();
            for (String verb : List.of("activate", "delete")) {
                String execution = verb + "-1767225600000-0a1b2c3d-" + key;
                assertThat(execution).as(name).hasSizeLessThanOrEqualTo(80).matches("[A-Za-z0-9_-]+");
                assertThat(StepFunctionsWorkflowStarter.keyOf(execution)).as(name).contains(key);
            }
        }
        assertThat(StepFunctionsWorkflowStarter.keyOf("by-hand")).isEmpty();
    }
}

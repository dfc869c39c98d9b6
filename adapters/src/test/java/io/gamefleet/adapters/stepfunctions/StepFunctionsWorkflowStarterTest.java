package io.gamefleet.adapters.stepfunctions;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Execution names carry a key of their group that reconciliation reads back, for every group name. */
class StepFunctionsWorkflowStarterTest {
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

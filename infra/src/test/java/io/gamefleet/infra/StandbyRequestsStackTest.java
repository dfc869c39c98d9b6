package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.FunctionAccess;
import io.gamefleet.catalog.Settings;
import io.gamefleet.catalog.Triggers;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Standby requests (Functions.requestStandbyEvaluations): the functions that ask for a group's
 * evaluation know the balancer's alias and may invoke it, that alias alone; no other function may.
 */
class StandbyRequestsStackTest extends SynthesizedStack {

    @Test
    void onlyTheRequestingFunctionsMayInvokeTheBalancersAliasAndNothingElse() {
        String balancer = "<" + aliasId(Triggers.BALANCER.functionName()) + ">";
        for (String name : functionNames()) {
            Map<String, Object> variables = variables(resources.get(functionId(name)));
            List<Map<String, Object>> invokes = statementsOf(name).stream()
                    .filter(s -> actions(s).stream().anyMatch(a -> a.startsWith("lambda:"))).toList();
            if (FunctionAccess.requestsStandbyEvaluations(name)) {
                assertThat(render(variables.get(Settings.STANDBY_FUNCTION.environmentVariable()))).as(name)
                        .isEqualTo(balancer);
                assertThat(invokes).as(name).hasSize(1);
                assertThat(actions(invokes.get(0))).containsExactly("lambda:InvokeFunction");
                assertThat(resourcesOf(invokes.get(0)).stream().map(SynthesizedStack::render)).as(name)
                        .containsExactly(balancer);
            } else {
                assertThat(variables).as(name).doesNotContainKey(Settings.STANDBY_FUNCTION.environmentVariable());
                assertThat(invokes).as(name).isEmpty();
            }
        }
        assertThat(functionNames().stream().filter(FunctionAccess::requestsStandbyEvaluations))
                .as("ClaimGameServer, CreateSession, DeregisterGameServer and the JSON door").hasSize(4);
    }
}

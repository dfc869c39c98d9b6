package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.EventRule;
import io.gamefleet.catalog.Schedule;
import io.gamefleet.catalog.Triggers;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The schedule and the event rule (EventTriggers). */
class EventTriggersStackTest extends SynthesizedStack {
    @Test
    void theScheduleInvokesTheBalancerAliasEveryMinuteByDefault() {
        template.resourceCountIs("AWS::Scheduler::Schedule", Triggers.SCHEDULES.size());
        for (Schedule schedule : Triggers.SCHEDULES) {
            Map<String, Object> p = props(resources.get(
                    idWhere("AWS::Scheduler::Schedule", "Name", STAGE.of(schedule.functionName()))));
            assertThat(p).containsEntry("ScheduleExpression", "rate(1 minute)").containsEntry("State", "ENABLED");
            Map<String, Object> target = map(p.get("Target"));
            assertThat(target.get("Arn")).isEqualTo(ref(aliasId(schedule.functionName())));
            String roleId = getAttId(target.get("RoleArn"));
            List<Map<String, Object>> statements = statementsOfRole(roleId);
            assertThat(statements).hasSize(2);
            assertThat(actions(statements.get(0))).containsExactly("lambda:InvokeFunction");
            assertThat(resourcesOf(statements.get(0))).containsExactly(ref(aliasId(schedule.functionName())));
            // A run it cannot invoke goes to the failed-events queue.
            assertThat(actions(statements.get(1))).containsExactly("sqs:SendMessage");
            assertThat(resourcesOf(statements.get(1))).containsExactly(
                    Map.of("Fn::GetAtt", List.of(onlyResourceOf("AWS::SQS::Queue"), "Arn")));
        }
    }

    @Test
    void theEventRuleCarriesTheCatalogPatternToTheHandlerAlias() throws IOException {
        template.resourceCountIs("AWS::Events::Rule", Triggers.EVENT_RULES.size());
        for (EventRule rule : Triggers.EVENT_RULES) {
            String ruleId = idWhere("AWS::Events::Rule", "Name", STAGE.of(rule.functionName()));
            Map<String, Object> p = props(resources.get(ruleId));
            assertThat(p).containsEntry("State", "ENABLED");
            JsonNode pattern = JSON.valueToTree(p.get("EventPattern"));
            assertThat(pattern).isEqualTo(JSON.readTree(rule.pattern()));
            List<Object> targets = listOf(p.get("Targets"));
            assertThat(targets).hasSize(1);
            assertThat(map(targets.get(0)).get("Arn")).isEqualTo(ref(aliasId(rule.functionName())));
            // EventBridge may invoke that alias, for this rule only.
            assertThat(ofType("AWS::Lambda::Permission").values().stream().map(SynthesizedStack::props)
                    .filter(perm -> "events.amazonaws.com".equals(perm.get("Principal"))).toList())
                    .singleElement().satisfies(perm -> {
                        assertThat(perm.get("FunctionName")).isEqualTo(ref(aliasId(rule.functionName())));
                        assertThat(perm.get("SourceArn")).isEqualTo(Map.of("Fn::GetAtt", List.of(ruleId, "Arn")));
                    });
        }
    }
}

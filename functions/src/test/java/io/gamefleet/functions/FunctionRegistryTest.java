package io.gamefleet.functions;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.EventRule;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.catalog.Routes;
import io.gamefleet.catalog.Schedule;
import io.gamefleet.catalog.Triggers;
import io.gamefleet.catalog.WorkflowStep;
import io.gamefleet.catalog.Workflows;
import io.gamefleet.wiring.TestServices;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The registry builds, for every catalog function, the very class the CDK app deploys for it. */
class FunctionRegistryTest {
    private final FunctionRegistry registry = new FunctionRegistry(TestServices.unreachableStore(Map.of()));

    @Test
    void everyOperationsHandlerIsTheCatalogsClass() {
        for (Operation operation : Operation.values()) {
            assertThat(registry.api(operation).getClass().getName()).as(operation.fleetIqName())
                    .isEqualTo(operation.handlerClass());
        }
    }

    @Test
    void theJsonDoorIsTheCatalogsClass() {
        assertThat(registry.jsonDoor().getClass().getName()).isEqualTo(Routes.JSON_DOOR.handlerClass());
    }

    @Test
    void everyStepAndTriggerHandlerIsTheCatalogsClass() {
        for (WorkflowStep step : Workflows.allSteps()) {
            assertThat(registry.step(step).getClass().getName()).as(step.name()).isEqualTo(step.handlerClass());
        }
        for (Schedule schedule : Triggers.SCHEDULES) {
            assertThat(registry.schedule(schedule).getClass().getName()).isEqualTo(schedule.handlerClass());
        }
        for (EventRule rule : Triggers.EVENT_RULES) {
            assertThat(registry.eventRule(rule).getClass().getName()).isEqualTo(rule.handlerClass());
        }
    }

    @Test
    void everyPushRoutesHandlerIsTheCatalogsClass() {
        for (PushChannel.WebSocketRoute route : PushChannel.ROUTES) {
            assertThat(registry.push(route).getClass().getName()).as(route.routeKey()).isEqualTo(route.handlerClass());
        }
    }

    @Test
    void everyExtensionsHandlerIsTheCatalogsClass() {
        for (io.gamefleet.catalog.ExtensionRoute route : Routes.EXTENSIONS) {
            assertThat(registry.extension(route).getClass().getName()).as(route.routeKey()).isEqualTo(route.handlerClass());
        }
    }
}

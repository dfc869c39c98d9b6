package io.gamefleet.local.edge;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2WebSocketEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2WebSocketResponse;
import io.gamefleet.api.ApiHandler;
import io.gamefleet.catalog.EventRule;
import io.gamefleet.catalog.ExtensionRoute;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import io.gamefleet.catalog.Schedule;
import io.gamefleet.catalog.Triggers;
import io.gamefleet.catalog.WorkflowStep;
import io.gamefleet.catalog.Workflows;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.functions.GameLiftJsonHandler;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every function of the catalog, built once, as CDK wires them in AWS: by Lambda function name
 * (what the Step Functions sidecar invokes), and behind its route (and CBOR path), the JSON door,
 * its event rule or schedule, or its push channel route (by route key).
 */
public record Functions(Map<String, RequestHandler<?, ?>> byName, Map<Route, ApiHandler> routes,
        Map<ExtensionRoute, RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse>> extensions,
        GameLiftJsonHandler jsonDoor,
        Map<EventRule, RequestHandler<Map<String, Object>, Map<String, Object>>> eventRules,
        Map<String, RequestHandler<Map<String, Object>, Map<String, Object>>> schedulesByName,
        Map<String, RequestHandler<APIGatewayV2WebSocketEvent, APIGatewayV2WebSocketResponse>> pushRoutes) {

    public static Functions of(FunctionRegistry registry) {
        Map<String, RequestHandler<?, ?>> byName = new HashMap<>();
        Map<Route, ApiHandler> routes = new LinkedHashMap<>();
        for (Route r : Routes.ALL) {
            routes.put(r, registry.api(r.operation()));
            byName.put(r.functionName(), routes.get(r));
        }
        Map<ExtensionRoute, RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse>> extensions = new LinkedHashMap<>();
        for (ExtensionRoute e : Routes.EXTENSIONS) {
            extensions.put(e, registry.extension(e));
            byName.put(e.functionName(), extensions.get(e));
        }
        GameLiftJsonHandler jsonDoor = registry.jsonDoor();
        byName.put(Routes.JSON_DOOR.functionName(), jsonDoor);
        for (WorkflowStep s : Workflows.allSteps()) {
            byName.put(s.functionName(), registry.step(s));
        }
        Map<EventRule, RequestHandler<Map<String, Object>, Map<String, Object>>> eventRules = new LinkedHashMap<>();
        for (EventRule rule : Triggers.EVENT_RULES) {
            eventRules.put(rule, registry.eventRule(rule));
            byName.put(rule.functionName(), eventRules.get(rule));
        }
        Map<String, RequestHandler<Map<String, Object>, Map<String, Object>>> schedules = new LinkedHashMap<>();
        for (Schedule schedule : Triggers.SCHEDULES) {
            schedules.put(schedule.name(), registry.schedule(schedule));
            byName.put(schedule.functionName(), schedules.get(schedule.name()));
        }
        Map<String, RequestHandler<APIGatewayV2WebSocketEvent, APIGatewayV2WebSocketResponse>> push = new HashMap<>();
        for (PushChannel.WebSocketRoute route : PushChannel.ROUTES) {
            push.put(route.routeKey(), registry.push(route)); // not invocable: they trust the caller in their event
        }
        return new Functions(byName, routes, extensions, jsonDoor, eventRules, schedules, push);
    }

    /**
     * What Lambda's unsigned Invoke path may call: the workflow, event and schedule functions. The
     * API functions (Gamefleet's own routes' too) trust the caller written in their event, which only
     * API Gateway may write.
     */
    public Map<String, RequestHandler<?, ?>> invocable() {
        Map<String, RequestHandler<?, ?>> invocable = new HashMap<>(byName);
        routes.keySet().forEach(r -> invocable.remove(r.functionName()));
        extensions.keySet().forEach(e -> invocable.remove(e.functionName()));
        invocable.remove(Routes.JSON_DOOR.functionName());
        return invocable;
    }
}

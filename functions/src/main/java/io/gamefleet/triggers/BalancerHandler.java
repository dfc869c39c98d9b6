package io.gamefleet.triggers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import io.gamefleet.domain.SpotBalancer.GroupReport;
import io.gamefleet.logging.JsonLog;
import io.gamefleet.wiring.Services;
import java.util.List;
import java.util.Map;

/** The scheduled balancer (EventBridge Scheduler in AWS): one run over every ACTIVE group. */
public final class BalancerHandler implements RequestHandler<Map<String, Object>, Map<String, Object>> {
    private final Services services;

    public BalancerHandler() {
        this(Services.shared());
    }

    public BalancerHandler(Services services) {
        this.services = services;
    }

    @Override
    public Map<String, Object> handleRequest(Map<String, Object> input, Context context) {
        try (JsonLog.Invocation invocation = JsonLog.invocation(context == null ? null : context.getAwsRequestId(),
                getClass().getSimpleName())) {
            return handle(input);
        }
    }

    private Map<String, Object> handle(Map<String, Object> input) {
        List<GroupReport> reports = services.balancer().runAll();
        return Map.of("Groups", reports.size(),
                "Swept", reports.stream().mapToInt(GroupReport::swept).sum(),
                "Drained", reports.stream().mapToInt(r -> r.drained().size()).sum(),
                "Terminated", reports.stream().mapToInt(r -> r.terminated().size()).sum());
    }
}

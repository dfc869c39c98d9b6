package io.gamefleet.triggers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import io.gamefleet.catalog.Triggers;
import io.gamefleet.domain.SpotBalancer.GroupReport;
import io.gamefleet.domain.WorkflowReconciler;
import io.gamefleet.logging.JsonLog;
import io.gamefleet.wiring.Services;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The scheduled balancer (EventBridge Scheduler in AWS): first reconciliation (a group whose
 * workflow was lost gets it started again, or goes to ERROR), then one run over every ACTIVE group
 * ({@code Retired}: instances it made DRAINING for their lifetime; {@code Terminated} includes those
 * it ended at its end).
 * Each part runs even when the other failed. An event naming a group ({@link Triggers#STANDBY_GROUP_MEMBER},
 * a claim's asynchronous request) only evaluates that group's standby buffer.
 */
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
        Object group = input == null ? null : input.get(Triggers.STANDBY_GROUP_MEMBER);
        if (group instanceof String name) {
            JsonLog.with("group", name);
            Optional<Integer> raised = services.balancer().keepStandby(name);
            return raised.<Map<String, Object>>map(d -> Map.of("Group", name, "DesiredCapacity", d))
                    .orElseGet(() -> Map.of("Group", name));
        }
        WorkflowReconciler.Report reconciled;
        try {
            reconciled = services.reconciler().reconcile();
        } catch (RuntimeException e) { // the group listing failed: the balancer may still get further
            JsonLog.error("reconciliation failed this run", e);
            reconciled = new WorkflowReconciler.Report(List.of(), List.of());
        }
        List<GroupReport> reports = services.balancer().runAll();
        return Map.of("WorkflowsRestarted", reconciled.restarted().size(),
                "GroupsFailedByReconciliation", reconciled.failed().size(),
                "Groups", reports.size(),
                "Swept", reports.stream().mapToInt(GroupReport::swept).sum(),
                "Drained", reports.stream().mapToInt(r -> r.drained().size()).sum(),
                "Retired", reports.stream().mapToInt(r -> r.retired().size()).sum(),
                "Terminated", reports.stream().mapToInt(r -> r.terminated().size()).sum());
    }
}

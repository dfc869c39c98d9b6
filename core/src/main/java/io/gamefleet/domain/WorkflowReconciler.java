package io.gamefleet.domain;

import io.gamefleet.domain.GroupLifecycle.Workflow;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps every group in a status a workflow owns (NEW, ACTIVATING, DELETE_SCHEDULED, DELETING)
 * moving: such a group has a running execution of its workflow, or one is started again (every
 * step is idempotent, so it carries on where the lost one stopped), or, after
 * {@value #MAX_RESTARTS} restarts, it goes to ERROR with a reason that says what to do. A
 * workflow is lost when an execution is aborted or times out by hand, when StartExecution failed
 * after the group was stored, or, in the local profile, when the sidecar (which keeps executions
 * in memory) ends or the profile stops.
 *
 * <p>A group changed less than the grace period ago is left alone: its workflow may be starting,
 * and Step Functions may not list it yet. The restarts are counted in the group's StatusReason,
 * which says so to whoever describes the group; CompleteActivation clears it.
 */
public final class WorkflowReconciler {
    /** How long after its last change a group may have no listed execution. */
    public static final Duration GRACE = Duration.ofMinutes(2);
    /** Restarts of a group's workflow before it goes to ERROR. */
    public static final int MAX_RESTARTS = 3;

    private static final Pattern RESTARTS = Pattern.compile("\\(restart (\\d+) of \\d+\\)");
    private static final int PAGE = 100;

    private final GroupRepository groups;
    private final GroupService groupService;
    private final WorkflowStarter workflows;
    private final Clock clock;
    private final Consumer<String> log;

    public WorkflowReconciler(GroupRepository groups, GroupService groupService, WorkflowStarter workflows,
            Clock clock, Consumer<String> log) {
        this.groups = groups;
        this.groupService = groupService;
        this.workflows = workflows;
        this.clock = clock;
        this.log = log;
    }

    /** What one run did: the groups whose workflow it started again, and those it put in ERROR. */
    public record Report(List<String> restarted, List<String> failed) {}

    /** A run with the usual {@link #GRACE}, as the balancer's schedule makes it. */
    public Report reconcile() {
        return reconcile(GRACE);
    }

    /**
     * One run over every group. {@code grace} is zero where no workflow can be running (the local
     * profile's start, a restarted sidecar). A group that cannot be handled now (its workflow's
     * executions cannot be listed, a start fails) is logged, and the next run tries again.
     */
    public Report reconcile(Duration grace) {
        Map<Workflow, List<GameServerGroup>> owned = new EnumMap<>(Workflow.class);
        Optional<String> cursor = Optional.empty();
        do {
            Page<GameServerGroup> page = groups.list(PAGE, cursor);
            for (GameServerGroup g : page.items()) {
                Workflow.owning(g.status()).ifPresent(w -> owned.computeIfAbsent(w, k -> new ArrayList<>()).add(g));
            }
            cursor = page.cursor();
        } while (cursor.isPresent());

        List<String> restarted = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        Instant now = clock.instant();
        owned.forEach((workflow, candidates) -> {
            Set<String> running;
            try {
                running = workflows.running(workflow, candidates.stream().map(GameServerGroup::name).toList());
            } catch (RuntimeException e) {
                log.accept("reconciliation: the " + name(workflow) + " executions could not be listed; next run: " + e);
                return;
            }
            for (GameServerGroup g : candidates) {
                if (running.contains(g.name()) || g.lastUpdatedTime().isAfter(now.minus(grace))) {
                    continue;
                }
                try {
                    if (restart(g, workflow, now)) {
                        restarted.add(g.name());
                    } else {
                        failed.add(g.name());
                    }
                } catch (RuntimeException e) {
                    log.accept("reconciliation: group " + g.name() + " failed this run: " + e);
                }
            }
        });
        return new Report(restarted, failed);
    }

    /** Starts the group's workflow again, or puts it in ERROR past the restarts; true if restarted. */
    private boolean restart(GameServerGroup seen, Workflow workflow, Instant now) {
        int restarts = restarts(seen);
        if (restarts >= MAX_RESTARTS) {
            String reason = "its " + name(workflow) + " workflow stopped " + (restarts + 1) + " times without finishing"
                    + " (lost or aborted executions, or starts that failed); " + (workflow == Workflow.ACTIVATION
                    ? "delete the group (DeleteOption FORCE_DELETE) and create it again"
                    : "call DeleteGameServerGroup again");
            GameServerGroup result = changeIfUnchanged(seen, g -> g.toBuilder().status(GameServerGroupStatus.ERROR)
                    .statusReason(reason).build());
            if (result != null) {
                log.accept("reconciliation: group " + seen.name() + " is now ERROR: " + reason);
            }
            return false;
        }
        String reason = "its " + name(workflow) + " workflow had stopped while the group was " + seen.status()
                + "; it was started again at " + now + " (restart " + (restarts + 1) + " of " + MAX_RESTARTS + ")";
        GameServerGroup marked = changeIfUnchanged(seen, g -> g.toBuilder().statusReason(reason).build());
        if (marked == null) {
            return false; // it moved on since it was listed: nothing to do
        }
        if (workflow == Workflow.ACTIVATION) {
            workflows.startActivation(marked);
        } else {
            workflows.startDeletion(marked);
        }
        log.accept("reconciliation: group " + seen.name() + ": " + reason);
        return true;
    }

    /** Writes the change if the group is as it was listed; the group written, or null if it had changed. */
    private GameServerGroup changeIfUnchanged(GameServerGroup seen, java.util.function.UnaryOperator<GameServerGroup> change) {
        boolean[] changed = {false};
        GameServerGroup result = groupService.transition(seen.name(), g -> {
            changed[0] = g.version() == seen.version(); // decided again on each attempt's read
            return changed[0] ? change.apply(g) : g;
        });
        return changed[0] ? result : null;
    }

    private static int restarts(GameServerGroup g) {
        if (g.statusReason() == null) {
            return 0;
        }
        Matcher m = RESTARTS.matcher(g.statusReason());
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    private static String name(Workflow workflow) {
        return workflow == Workflow.ACTIVATION ? "activation" : "deletion";
    }
}

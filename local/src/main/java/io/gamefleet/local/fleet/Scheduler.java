package io.gamefleet.local.fleet;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The local EventBridge Scheduler: runs the catalog's schedules by name and, once started, each
 * at the profile's rate, with the simulated fleet and the simulated ECS advanced every second.
 */
public final class Scheduler implements AutoCloseable {
    private final Map<String, RequestHandler<Map<String, Object>, Map<String, Object>>> schedules;
    private final Map<String, Runnable> simulations;
    private final Timeline timeline;
    private ScheduledExecutorService executor;

    /**
     * {@code schedules}: each schedule's function, by the schedule's name; each run goes on the
     * timeline. {@code simulations}: what advances every second (the simulated fleet's and ECS's
     * ticks), by what it is.
     */
    public Scheduler(Map<String, RequestHandler<Map<String, Object>, Map<String, Object>>> schedules,
            Map<String, Runnable> simulations, Timeline timeline) {
        this.schedules = Map.copyOf(schedules);
        this.simulations = Map.copyOf(simulations);
        this.timeline = timeline;
    }

    public Set<String> names() {
        return schedules.keySet();
    }

    /** Runs a schedule's function now, with the event EventBridge Scheduler sends. */
    public Map<String, Object> run(String name) {
        RequestHandler<Map<String, Object>, Map<String, Object>> handler = schedules.get(name);
        if (handler == null) {
            throw new IllegalArgumentException("no schedule named " + name + "; there are " + schedules.keySet());
        }
        Map<String, Object> result = handler.handleRequest(Map.of("source", "aws.scheduler", "detail-type",
                "Scheduled Event"), null);
        timeline.scheduleRun(name, result);
        return result;
    }

    /** Every schedule every {@code rate}; a zero rate leaves both to the caller (tests move a clock and call {@link #run}). */
    public void start(Duration rate) {
        if (rate.isZero()) {
            return;
        }
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "local-scheduler");
            t.setDaemon(true);
            return t;
        });
        simulations.forEach((what, tick) -> executor.scheduleAtFixedRate(() -> guarded(what, tick), 1, 1, TimeUnit.SECONDS));
        long period = rate.toMillis();
        for (String name : schedules.keySet()) {
            executor.scheduleAtFixedRate(() -> guarded(name, () -> run(name)), period, period, TimeUnit.MILLISECONDS);
        }
    }

    private static void guarded(String what, Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            System.err.println("local scheduler: " + what + " failed: " + e);
        }
    }

    @Override
    public void close() {
        if (executor != null) {
            executor.shutdownNow();
        }
    }
}

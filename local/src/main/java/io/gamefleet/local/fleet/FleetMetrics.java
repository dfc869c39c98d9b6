package io.gamefleet.local.fleet;

import io.gamefleet.adapters.metrics.EmfMetrics;
import io.gamefleet.domain.GroupSummaries;
import io.gamefleet.domain.Metrics;
import io.gamefleet.domain.MetricsHistory;
import io.gamefleet.domain.ProcessEvents;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The local CloudWatch: FleetIQ metrics and the agents' process metrics as EMF lines in a log
 * file, the utilization fed to the simulated fleet's target tracking, the counts on the timeline,
 * and each group's FleetIQ counts of the last {@link #KEPT} read back ({@link MetricsHistory}, the
 * console's charts).
 */
public final class FleetMetrics implements Metrics, MetricsHistory {
    /** How long the counts are kept: as far back as the console's charts go. */
    static final Duration KEPT = GroupSummaries.HISTORY;

    private final EmfMetrics emf;
    private final SimulatedFleet fleet;
    private final Timeline timeline;
    private final Clock clock;
    private final Map<String, Deque<CountsAt>> history = new ConcurrentHashMap<>();

    public FleetMetrics(Path log, Clock clock, SimulatedFleet fleet, Timeline timeline) {
        this.emf = new EmfMetrics(clock, line -> {
            try {
                Files.writeString(log, line + System.lineSeparator(), StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                System.err.println("cannot write " + log + ": " + e.getMessage());
            }
        });
        this.fleet = fleet;
        this.timeline = timeline;
        this.clock = clock;
    }

    @Override
    public void gameServers(String group, GameServerCounts counts) {
        emf.gameServers(group, counts);
        fleet.observe(group, counts.percentUtilized());
        timeline.gameServers(group, counts);
        Instant now = clock.instant();
        Deque<CountsAt> kept = history.computeIfAbsent(group, g -> new ArrayDeque<>());
        synchronized (kept) {
            kept.addLast(new CountsAt(now, counts.available(), counts.utilized(), counts.percentUtilized()));
            while (kept.getFirst().time().isBefore(now.minus(KEPT))) {
                kept.removeFirst();
            }
        }
    }

    /** Each run's counts, as the balancer gave them (no averaging by period: a local run can come every second). */
    @Override
    public List<CountsAt> gameServers(String group, Instant from, Instant to, Duration period) {
        Deque<CountsAt> kept = history.getOrDefault(group, new ArrayDeque<>());
        synchronized (kept) {
            return kept.stream().filter(p -> !p.time().isBefore(from) && !p.time().isAfter(to)).toList();
        }
    }

    @Override
    public void interruption(String group, String instanceType, int gameServers) {
        emf.interruption(group, instanceType, gameServers);
    }

    @Override
    public void undeliveredNotice(String group, String notice) {
        emf.undeliveredNotice(group, notice);
    }

    @Override
    public void processes(String group, ProcessCounts counts) {
        emf.processes(group, counts);
        timeline.processes(group, counts);
    }

    @Override
    public void processEvents(String group, ProcessEvents events) {
        emf.processEvents(group, events);
    }
}

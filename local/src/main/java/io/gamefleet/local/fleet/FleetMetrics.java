package io.gamefleet.local.fleet;

import io.gamefleet.adapters.metrics.EmfMetrics;
import io.gamefleet.domain.Metrics;
import io.gamefleet.domain.ProcessEvents;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;

/**
 * The local CloudWatch: FleetIQ metrics and the agents' process metrics as EMF lines in a log
 * file, the utilization fed to the simulated fleet's target tracking, and the counts on the
 * timeline (for the console's charts).
 */
public final class FleetMetrics implements Metrics {
    private final EmfMetrics emf;
    private final SimulatedFleet fleet;
    private final Timeline timeline;

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
    }

    @Override
    public void gameServers(String group, GameServerCounts counts) {
        emf.gameServers(group, counts);
        fleet.observe(group, counts.percentUtilized());
        timeline.gameServers(group, counts);
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

package io.gamefleet.domain.fakes;

import io.gamefleet.domain.Metrics;
import io.gamefleet.domain.ProcessEvents;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Keeps every metric published, in order. */
public final class RecordingMetrics implements Metrics {
    public record GameServersReport(String group, GameServerCounts counts) {}

    public record InterruptionReport(String group, String instanceType, int gameServers) {}

    public record UndeliveredNotice(String group, String notice) {}

    public record ProcessesReport(String group, ProcessCounts counts) {}

    public record ProcessEventsReport(String group, ProcessEvents events) {}

    private final List<GameServersReport> gameServers = new ArrayList<>();
    private final List<InterruptionReport> interruptions = new ArrayList<>();
    private final List<UndeliveredNotice> undelivered = new ArrayList<>();
    private final List<ProcessesReport> processes = new ArrayList<>();
    private final List<ProcessEventsReport> processEvents = new ArrayList<>();

    @Override
    public synchronized void gameServers(String group, GameServerCounts counts) {
        gameServers.add(new GameServersReport(group, counts));
    }

    @Override
    public synchronized void interruption(String group, String instanceType, int gameServers) {
        interruptions.add(new InterruptionReport(group, instanceType, gameServers));
    }

    @Override
    public synchronized void undeliveredNotice(String group, String notice) {
        undelivered.add(new UndeliveredNotice(group, notice));
    }

    @Override
    public synchronized void processes(String group, ProcessCounts counts) {
        processes.add(new ProcessesReport(group, counts));
    }

    @Override
    public synchronized void processEvents(String group, ProcessEvents events) {
        processEvents.add(new ProcessEventsReport(group, events));
    }

    public synchronized List<ProcessesReport> processes() {
        return List.copyOf(processes);
    }

    public synchronized List<ProcessEventsReport> processEvents() {
        return List.copyOf(processEvents);
    }

    public synchronized List<UndeliveredNotice> undeliveredNotices() {
        return List.copyOf(undelivered);
    }

    public synchronized List<GameServersReport> gameServers() {
        return List.copyOf(gameServers);
    }

    public synchronized List<InterruptionReport> interruptions() {
        return List.copyOf(interruptions);
    }

    /** The counts last published for the group. */
    public synchronized Optional<GameServerCounts> lastCounts(String group) {
        return gameServers.stream().filter(r -> r.group().equals(group)).reduce((first, second) -> second)
                .map(GameServersReport::counts);
    }
}

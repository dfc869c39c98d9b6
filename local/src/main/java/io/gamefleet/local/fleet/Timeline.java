package io.gamefleet.local.fleet;

import io.gamefleet.domain.Metrics.GameServerCounts;
import io.gamefleet.domain.Metrics.ProcessCounts;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What happened to the fleet lately, for the console: every EC2 event the local EventBridge
 * delivered (Spot interruption warnings, terminations), every schedule run with what it did, and
 * the game server and process counts each balancer run gave the metrics (its charts). The newest {@value #CAPACITY} entries, each numbered, so a reader asks for those
 * after the last it saw.
 */
public final class Timeline {
    static final int CAPACITY = 1000;

    private final Clock clock;
    private final Deque<Map<String, Object>> entries = new ArrayDeque<>();
    private long next = 1;

    public Timeline(Clock clock) {
        this.clock = clock;
    }

    /** An event as the rules receive it: its detail-type and detail. */
    @SuppressWarnings("unchecked")
    void event(Map<String, Object> event) {
        Object detail = event.get("detail");
        add("Event", String.valueOf(event.get("detail-type")), detail instanceof Map ? (Map<String, Object>) detail : Map.of());
    }

    /** A schedule's run and its function's answer. */
    void scheduleRun(String name, Map<String, Object> result) {
        add("Schedule", name, result);
    }

    /** A group's game server counts, as the balancer put them in its metrics. */
    void gameServers(String group, GameServerCounts counts) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("GameServerGroupName", group);
        detail.put("Available", counts.available());
        detail.put("Utilized", counts.utilized());
        detail.put("DrainingAvailable", counts.drainingAvailable());
        detail.put("DrainingUtilized", counts.drainingUtilized());
        detail.put("PercentUtilized", counts.percentUtilized());
        add("Metric", "GameServers", detail);
    }

    /** A group's process counts, as the balancer put them in its metrics. */
    void processes(String group, ProcessCounts counts) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("GameServerGroupName", group);
        detail.put("Initializing", counts.initializing());
        detail.put("StandingBy", counts.standingBy());
        detail.put("Active", counts.active());
        detail.put("Terminating", counts.terminating());
        detail.put("ConnectedPlayers", counts.connectedPlayers());
        add("Metric", "Processes", detail);
    }

    private synchronized void add(String kind, String name, Map<String, Object> detail) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("Sequence", next++);
        entry.put("Time", clock.instant().toString());
        entry.put("Kind", kind);
        entry.put("Name", name);
        entry.put("Detail", detail);
        entries.addLast(entry);
        if (entries.size() > CAPACITY) {
            entries.removeFirst();
        }
    }

    /** The entries numbered above {@code after}, oldest first. */
    public synchronized List<Map<String, Object>> after(long after) {
        List<Map<String, Object>> newer = new ArrayList<>();
        for (Map<String, Object> entry : entries) {
            if ((long) entry.get("Sequence") > after) {
                newer.add(entry);
            }
        }
        return newer;
    }
}

package io.gamefleet.domain;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a game server's item keeps of its process's last report ({@link ProcessReport#summary}):
 * the state (null before the process's first heartbeat) and player count, which the balancer's
 * process gauges count from the items it reads anyway, the process's named ports (none from an
 * older agent), which a session's answer gives from the server it reads anyway, and the report's
 * digest.
 */
public record ProcessSummary(ProcessState state, int connectedPlayers, Map<String, Integer> ports, String digest) {
    public ProcessSummary {
        ports = Collections.unmodifiableSortedMap(new TreeMap<>(ports));
    }

    /** A summary of a report that named no ports. */
    public ProcessSummary(ProcessState state, int connectedPlayers, String digest) {
        this(state, connectedPlayers, Map.of(), digest);
    }
}

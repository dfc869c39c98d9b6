package io.gamefleet.domain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A game server's process as its instance's agent reports it with its health: the PlayFab state it
 * last reported ({@code state}, null before its first heartbeat), the players connected to it (a
 * count, and the ids the agent passes on, which may be fewer), its process slot's crashes and start
 * timeouts since the agent started, the exit code of the slot's previous process (null: none), and
 * its named ports (the agent's {@code ports}: name to port; none from an older agent). A process
 * may say anything of itself; the push channel holds it to the bounds the catalog gives.
 */
public record ProcessReport(ProcessState state, int connectedPlayers, List<String> playerIds, int crashes,
        int startTimeouts, Integer lastExitCode, Map<String, Integer> ports) {

    public ProcessReport {
        playerIds = List.copyOf(playerIds);
        ports = Collections.unmodifiableSortedMap(new TreeMap<>(ports));
        if (connectedPlayers < playerIds.size() || crashes < 0 || startTimeouts < 0) {
            throw new IllegalArgumentException("a process report counts no fewer players than it names, and no"
                    + " negative crashes or start timeouts");
        }
    }

    /** A report that names no ports, as an older agent's. */
    public ProcessReport(ProcessState state, int connectedPlayers, List<String> playerIds, int crashes, int startTimeouts,
            Integer lastExitCode) {
        this(state, connectedPlayers, playerIds, crashes, startTimeouts, lastExitCode, Map.of());
    }

    /**
     * A short fingerprint of the whole report, kept on the server's item: a report whose
     * fingerprint is the one stored changes nothing, and is not written again.
     */
    public String digest() {
        String canonical = state + "\n" + connectedPlayers + "\n" + String.join("\u0000", playerIds) + "\n" + crashes
                + "\n" + startTimeouts + "\n" + lastExitCode;
        if (!ports.isEmpty()) { // an older agent's report keeps the digest it had
            canonical += "\n" + ports;
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /**
     * What the server's item keeps of it: the state and player count (the balancer's gauges), the
     * ports (a session's answer) and the digest.
     */
    public ProcessSummary summary() {
        return new ProcessSummary(state, connectedPlayers, ports, digest());
    }
}

package io.gamefleet.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What {@code /proc/<pid>/stat} and {@code status} say of a process: its process group, session,
 * start time in clock ticks since boot (with the pid, the OS's own identity of a process: a reused
 * pid has a later one) and real uid.
 */
record ProcessStat(long pid, long processGroup, long session, long startTicks) {
    static Optional<ProcessStat> of(long pid) {
        try {
            return parse(pid, Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
        } catch (IOException e) {
            return Optional.empty(); // gone
        }
    }

    /** The fields after the command's name, which is in parentheses and may hold spaces and parentheses itself. */
    static Optional<ProcessStat> parse(long pid, String stat) {
        int end = stat.lastIndexOf(')');
        if (end < 0) {
            return Optional.empty();
        }
        String[] f = stat.substring(end + 1).trim().split("\\s+");
        // f[0] is field 3 of proc(5): state; pgrp is field 5, session 6, starttime 22.
        if (f.length < 20 || f[0].equals("Z")) {
            return Optional.empty();
        }
        return Optional.of(new ProcessStat(pid, Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[19])));
    }

    /** Whether it leads its own session and process group, as {@code setsid} made each game server. */
    boolean leadsItsSession() {
        return session == pid && processGroup == pid;
    }

    static OptionalLong realUid(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("Uid:")) {
                    return OptionalLong.of(Long.parseLong(line.substring(4).trim().split("\\s+")[0]));
                }
            }
        } catch (IOException e) {
            // gone
        }
        return OptionalLong.empty();
    }
}

package io.gamefleet.agent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The agent's own user and effective capabilities, as {@code /proc/self/status} gives them: what
 * decides whether each game server process can run as a user of its own. Root holds every
 * capability; under systemd the agent runs as {@code gamefleet} with the unit's AmbientCapabilities.
 */
record Privileges(long uid, long effectiveCapabilities) {
    /** Capability numbers (linux/capability.h). */
    static final int CAP_CHOWN = 0;
    static final int CAP_DAC_OVERRIDE = 1;
    static final int CAP_KILL = 5;
    static final int CAP_SETGID = 6;
    static final int CAP_SETUID = 7;
    static final int CAP_SETPCAP = 8;

    /**
     * What per-server mode needs besides switching users: its processes' folders given to their uids
     * (CHOWN), reached, archived and removed (DAC_OVERRIDE), their process groups signalled (KILL).
     */
    static final List<Integer> PER_SERVER_NEEDS = List.of(CAP_SETUID, CAP_SETGID, CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_KILL);

    static Privileges ofThisProcess() {
        try {
            return parse(Files.readString(Path.of("/proc/self/status")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc/self/status (the agent runs on Linux)", e);
        }
    }

    /** {@code Uid:} (real, effective, saved, filesystem: the effective one counts) and {@code CapEff:} (hex). */
    static Privileges parse(String status) {
        long uid = -1;
        long caps = 0;
        for (String line : status.split("\n")) {
            String[] fields = line.trim().split("\\s+");
            if (fields[0].equals("Uid:") && fields.length > 2) {
                uid = Long.parseLong(fields[2]);
            } else if (fields[0].equals("CapEff:") && fields.length > 1) {
                caps = Long.parseUnsignedLong(fields[1], 16);
            }
        }
        return new Privileges(uid, caps);
    }

    boolean has(int capability) {
        return (effectiveCapabilities >>> capability & 1) == 1;
    }

    /** setpriv can give a process another uid and gid. */
    boolean canSwitchUsers() {
        return has(CAP_SETUID) && has(CAP_SETGID);
    }

    /** The capabilities per-server mode needs that the agent does not hold, by name ({@code CAP_CHOWN, ...}). */
    String missingForPerServer() {
        return PER_SERVER_NEEDS.stream().filter(c -> !has(c)).map(Privileges::name).collect(Collectors.joining(" "));
    }

    static String name(int capability) {
        return switch (capability) {
            case CAP_CHOWN -> "CAP_CHOWN";
            case CAP_DAC_OVERRIDE -> "CAP_DAC_OVERRIDE";
            case CAP_KILL -> "CAP_KILL";
            case CAP_SETGID -> "CAP_SETGID";
            case CAP_SETUID -> "CAP_SETUID";
            case CAP_SETPCAP -> "CAP_SETPCAP";
            default -> "cap_" + capability;
        };
    }
}

package io.gamefleet.agent;

/**
 * Which user each process slot runs as (config {@code runAs}). Per server, slot i is uid and gid
 * {@code runAsUidBase + i}: no process can read another's folder, config file or {@code /proc}
 * entries, or pass as another on the GSDK endpoint (the socket's owner is checked). As the agent, every
 * process is the agent's own user, and nothing tells one from another but the session host id.
 */
final class ServerUsers {
    /** A process that runs as the agent's own user: no uid to switch to, no caller to check. */
    static final int AGENT_USER = -1;

    private final boolean perServer;
    private final int uidBase;
    private final int processes;

    private ServerUsers(boolean perServer, int uidBase, int processes) {
        this.perServer = perServer;
        this.uidBase = uidBase;
        this.processes = processes;
    }

    static ServerUsers perServer(int uidBase, int processes) {
        return new ServerUsers(true, uidBase, processes);
    }

    static ServerUsers agent() {
        return new ServerUsers(false, 0, 0);
    }

    /**
     * Per server where the agent may switch users (the default) or where asked; the agent's user
     * where asked or where it may not, said once. A per-server mode that cannot work is refused.
     */
    static ServerUsers decide(AgentConfig config, Privileges privileges, AgentLog log) throws Agent.StartFailure {
        AgentConfig.RunAs asked = config.runAs();
        boolean canSwitch = privileges.canSwitchUsers();
        if (asked == AgentConfig.RunAs.PER_SERVER && !canSwitch) {
            throw new Agent.StartFailure("runAs \"per-server\" needs an agent that may switch users (root, or CAP_SETUID "
                    + "and CAP_SETGID), and this one runs as uid " + privileges.uid() + " without them: run it as root or "
                    + "under scripts/gamefleet-agent.service (its AmbientCapabilities), or set runAs \"agent\" (the game "
                    + "servers are then not isolated from each other)");
        }
        if (asked == AgentConfig.RunAs.AGENT || !canSwitch) {
            log.warn("the game servers run as the agent's own user (uid " + privileges.uid() + "; "
                    + (asked == null ? "it may not switch users: neither root nor CAP_SETUID and CAP_SETGID" : "runAs \"agent\"")
                    + "): they are NOT isolated from each other, and each can read the others' folders, config files "
                    + "and session host ids; run the agent as root or under scripts/gamefleet-agent.service for a user per "
                    + "game server (docs/agent.md)");
            return agent();
        }
        String missing = privileges.missingForPerServer();
        if (!missing.isEmpty()) {
            throw new Agent.StartFailure("runAs \"per-server\"" + (asked == null ? " (the default: this agent may switch users)" : "")
                    + " also needs CAP_CHOWN, CAP_DAC_OVERRIDE and CAP_KILL (the processes' folders and process groups), "
                    + "and this agent lacks " + missing + ": add them to the unit's AmbientCapabilities, or set runAs \"agent\"");
        }
        ServerUsers users = perServer(config.runAsUidBase(), config.processes());
        if (privileges.uid() >= users.uid(0) && privileges.uid() <= users.uid(config.processes() - 1)) {
            throw new Agent.StartFailure("the game servers' uids " + users.range() + " (runAsUidBase) include the agent's own uid "
                    + privileges.uid() + ": give runAsUidBase a value whose " + config.processes() + " uids leave it out");
        }
        if (!privileges.has(Privileges.CAP_SETPCAP)) {
            log.warn("without CAP_SETPCAP the game servers keep the agent's capability bounding set (they hold no capability, "
                    + "and no_new_privs keeps them from gaining one); add CAP_SETPCAP to the unit's AmbientCapabilities to empty it");
        }
        log.info("each game server runs as its own user: slot i as uid and gid " + config.runAsUidBase() + " + i ("
                + users.range() + "), no supplementary groups, no capabilities");
        return users;
    }

    boolean perServer() {
        return perServer;
    }

    /** The uid (and gid) of slot {@code slot}'s processes, or {@link #AGENT_USER}. */
    int uid(int slot) {
        return perServer ? uidBase + slot : AGENT_USER;
    }

    String range() {
        return uid(0) + "-" + uid(processes - 1);
    }
}

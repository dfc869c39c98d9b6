package io.gamefleet.catalog;

/**
 * The agent sidecar Gamefleet adds to every task of a container group, as the ECS adapter writes it
 * into the task definition and the agent finds it in its container (the container's name is the
 * domain's, {@code ContainerCompute.AGENT_CONTAINER}, which a studio's definition may not use): the
 * task volume it shares with the game server container, where the GSDK configuration file is, and
 * the environment that tells the agent it is a sidecar, of which group, and on which ports.
 */
public final class AgentSidecar {
    /** The task volume the sidecar and the game server container share. */
    public static final String VOLUME = "gamefleet";
    public static final String MOUNT_PATH = "/gamefleet";
    /** The variable the GSDK reads its configuration file's path from, in both containers. */
    public static final String GSDK_CONFIG_FILE_VARIABLE = "GSDK_CONFIG_FILE";
    /** Written by the sidecar, read by the game server's GSDK. */
    public static final String GSDK_CONFIG_FILE = MOUNT_PATH + "/gsdk.json";
    /** The agent's mode variable and the sidecar mode's value: the agent launches no process. */
    public static final String MODE_VARIABLE = "GAMEFLEET_AGENT_MODE";
    public static final String MODE = "sidecar";
    /** The game server group the sidecar registers its game server in. */
    public static final String GROUP_VARIABLE = "GAMEFLEET_GAME_SERVER_GROUP";
    /**
     * The game server container's ports, as the agent's {@code ports} (a JSON object of names, each
     * {@code {"from": p, "to": p}}): what the sidecar tells its game server and reports.
     */
    public static final String GAME_PORTS_VARIABLE = "GAMEFLEET_GAME_PORTS";

    private AgentSidecar() {}
}

package io.gamefleet.agent;

import java.nio.file.Path;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;

/**
 * {@code java -jar gamefleet-agent.jar agent.json}: the agent of one instance (docs/agent.md).
 * {@code java -jar gamefleet-agent.jar --game-server-uids agent.json} prints the users its game
 * servers run as, {@code FIRST-LAST}, which the user data's metadata rule names, and exits.
 */
public final class AgentMain {
    static final String GAME_SERVER_UIDS = "--game-server-uids";

    private AgentMain() {}

    public static void main(String[] args) throws Exception {
        boolean uids = args.length == 2 && args[0].equals(GAME_SERVER_UIDS);
        if (args.length != 1 && !uids) {
            System.err.println("usage: java -jar gamefleet-agent.jar [" + GAME_SERVER_UIDS + "] AGENT_CONFIG.json (docs/agent.md)");
            System.exit(2);
        }
        try {
            AgentConfig config = AgentConfigReader.read(Path.of(args[args.length - 1]), System.getenv());
            if (uids) {
                System.out.println(gameServerUids(config));
                return;
            }
            run(config);
        } catch (AgentConfigReader.ConfigException | Agent.StartFailure e) {
            System.err.println("gamefleet-agent: " + e.getMessage());
            System.exit(2);
        }
    }

    /** The users slot 0 to {@code processes - 1} run as in per-server mode: {@code FIRST-LAST}. */
    static String gameServerUids(AgentConfig config) {
        return config.runAsUidBase() + "-" + (config.runAsUidBase() + config.processes() - 1);
    }

    /**
     * Runs until the JVM is stopped; a SIGTERM (systemd's stop, or ECS's stop of a task) ends every
     * process with the graceful sequence first. A sidecar also exits, with 0, once its game server is
     * over: its task then stops, and ECS replaces it.
     */
    static void run(AgentConfig config) throws Exception {
        Agent agent = Agent.start(config, DefaultCredentialsProvider.builder().build());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                agent.shutdown();
            } catch (Exception e) {
                System.err.println("gamefleet-agent: the stop failed: " + e);
            }
        }, "agent-stop"));
        agent.gameServerOver().join();
        System.err.println("gamefleet-agent: the task's game server is over; the sidecar exits");
        System.exit(0);
    }

    /** The GSDK port, known once Jetty listens (the processes of a restarted agent find it in its state file). */
    static final class PortHolder implements java.util.function.IntSupplier {
        volatile int port;

        @Override
        public int getAsInt() {
            return port;
        }
    }
}

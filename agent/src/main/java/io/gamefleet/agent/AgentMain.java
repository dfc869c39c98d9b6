package io.gamefleet.agent;

import java.nio.file.Path;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;

/** {@code java -jar gamefleet-agent.jar agent.json}: the agent of one instance (docs/agent.md). */
public final class AgentMain {
    private AgentMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: java -jar gamefleet-agent.jar AGENT_CONFIG.json (docs/agent.md)");
            System.exit(2);
        }
        try {
            run(AgentConfigReader.read(Path.of(args[0])));
        } catch (AgentConfigReader.ConfigException | Agent.StartFailure e) {
            System.err.println("gamefleet-agent: " + e.getMessage());
            System.exit(2);
        }
    }

    static void run(AgentConfig config) throws Exception {
        Agent.start(config, DefaultCredentialsProvider.builder().build());
        Thread.currentThread().join();
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
